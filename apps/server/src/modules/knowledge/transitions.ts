import { type SQL, sql } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { InvalidationBus } from '../../platform/cache.ts';
import type { Tx } from '../../platform/db/sql.ts';
import type { IndexJob } from './index-queue.ts';
import { knowledgeUnits } from './knowledge.schema.ts';

/**
 * Bus keys a worker listens for while it indexes a unit: a message means its run may have been
 * replaced (cancel, restart, new embedding model, deletion), so it stops and re-reads the unit.
 */
export const unitKey = (unitId: string) => `knowledge_unit:${unitId}`;
export const baseKey = (knowledgeId: string) => `knowledge_base:${knowledgeId}`;

/** Columns a transition may set besides the run's own, as values or SQL. */
export type UnitChanges = PgUpdateSetSource<typeof knowledgeUnits>;

/**
 * Starts a new run for the units matching `where`: status waiting, run id + 1 (so any worker still
 * on the old run sees its writes refused), lease, progress and error cleared. The update locks the
 * rows until the caller's transaction ends, so a worker's next write waits and then sees the new
 * run. Returns the jobs to send once the transaction has committed. `where` is required: an
 * accidental `undefined` would restart every unit of every space.
 */
export async function beginRun(
  tx: Tx,
  where: SQL,
  extra: UnitChanges = {},
): Promise<(IndexJob & { spaceId: string })[]> {
  return tx
    .update(knowledgeUnits)
    .set({
      status: 'waiting',
      runId: sql`${knowledgeUnits.runId} + 1`,
      progress: 0,
      errorCode: null,
      errorDetail: null,
      leaseExpiresAt: null,
      leaseToken: null,
      updatedAt: sql`now()`,
      ...extra,
    })
    .where(where)
    .returning({ unitId: knowledgeUnits.id, runId: knowledgeUnits.runId, spaceId: knowledgeUnits.spaceId });
}

/** Tells workers in every process that these runs changed (see unitKey). */
export async function announce(bus: InvalidationBus, keys: string[]) {
  for (const key of keys) await bus.publish(key);
}
