import { type SQL, sql } from 'drizzle-orm';
import type { InvalidationBus } from '../../platform/cache.ts';
import { knowledgeUnits } from '../../platform/db/schema.ts';
import type { IndexJob } from './index-queue.ts';
import type { Tx } from './knowledge.repo.ts';

/**
 * Bus keys a worker listens for while it indexes a unit: a message means its run may have been
 * replaced (cancel, restart, new embedding model, deletion), so it stops and re-reads the unit.
 */
export const unitKey = (unitId: string) => `knowledge_unit:${unitId}`;
export const baseKey = (knowledgeId: string) => `knowledge_base:${knowledgeId}`;

/**
 * Starts a new run for the units matching `where`: status waiting, run id + 1 (so any worker still
 * on the old run sees its writes refused), lease, progress and error cleared. Returns the jobs to
 * send once the transaction has committed.
 */
export async function beginRun(
  tx: Tx,
  where: SQL | undefined,
  extra: Partial<typeof knowledgeUnits.$inferInsert> = {},
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
