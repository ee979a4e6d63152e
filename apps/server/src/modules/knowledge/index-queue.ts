import { and, count, eq } from 'drizzle-orm';
import type PgBoss from 'pg-boss';
import type { Db } from '../../platform/db/database.ts';
import { knowledgeUnits } from './knowledge.schema.ts';

export const INDEX_QUEUE = 'knowledge-index';

/** One run of one unit; a job whose run is no longer the unit's current one does nothing. */
export interface IndexJob {
  unitId: string;
  runId: number;
}

export type IndexQueue = ReturnType<typeof createIndexQueue>;

/**
 * Sends indexing jobs to pg-boss. Built with the app, attached to pg-boss when the indexer starts
 * (main.ts, or a test that runs it). Until then sending does nothing: the unit rows are the
 * durable state, and the indexer's sweeper queues every waiting unit that has no job.
 *
 * Fairness across spaces: pg-boss hands out jobs by priority (highest first), then by age. A job
 * gets priority −(units of its space already waiting), so a space's n-th queued file competes with
 * every other space's n-th file: one space's 10 000 files interleave with another's single file
 * instead of running ahead of it.
 */
export function createIndexQueue(deps: { db: Db }) {
  let boss: PgBoss | null = null;
  let wake = () => {};

  return {
    attach(instance: PgBoss, onSent: () => void) {
      boss = instance;
      wake = onSent;
    },
    detach() {
      boss = null;
      wake = () => {};
    },
    get attached() {
      return boss !== null;
    },

    /** Queues runs of units of one space; call after they are marked `waiting` (and committed). */
    async enqueue(spaceId: string, jobs: IndexJob[], options: { startAfter?: Date } = {}) {
      const target = boss;
      if (!target || jobs.length === 0) return;
      const [{ waiting }] = await deps.db
        .select({ waiting: count() })
        .from(knowledgeUnits)
        .where(and(eq(knowledgeUnits.spaceId, spaceId), eq(knowledgeUnits.status, 'waiting')));
      // The units being queued are already counted as waiting; the first of them gets the place
      // after the ones before it.
      const ahead = Math.max(0, waiting - jobs.length);
      await target.insert(
        jobs.map((job, index) => ({
          name: INDEX_QUEUE,
          data: job,
          singletonKey: `${job.unitId}:${job.runId}`,
          priority: -Math.min(ahead + index, 2 ** 31 - 1),
          startAfter: options.startAfter,
        })),
      );
      wake();
    },
  };
}
