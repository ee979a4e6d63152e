import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../../platform/db/database.ts';
import type { ScheduledJob } from '../../../platform/module.ts';
import { createRunEventsPurgeRepo } from './run-events-purge.repo.ts';

/**
 * How long a finished run keeps its numbered events. They serve a reconnect, which is only useful
 * while a run is fresh; the run's row and its node executions keep everything the history shows,
 * and a reconnect to a purged run still gets a run_finished made from its row.
 */
export const RUN_EVENTS_KEEP_MS = 24 * 60 * 60_000;
/** Events deleted per statement, so that no statement holds its locks long. */
export const RUN_EVENTS_PURGE_BATCH = 5_000;
/** Statements per job; what is left (a backlog after a long stop) waits for the next hour. */
const MAX_BATCHES = 200;

/** Hourly: deletes the events of runs finished more than a day ago, in bounded batches. */
export function runEventsPurgeJob(
  deps: { db: Db; now: () => Date; log: FastifyBaseLogger },
  batchSize = RUN_EVENTS_PURGE_BATCH,
): ScheduledJob {
  const repo = createRunEventsPurgeRepo(deps.db);
  return {
    name: 'workflow.run-events-purge',
    cron: '41 * * * *',
    async run() {
      const before = new Date(deps.now().getTime() - RUN_EVENTS_KEEP_MS);
      let removed = 0;
      for (let batch = 0; batch < MAX_BATCHES; batch++) {
        const deleted = await repo.deleteOfRunsFinishedBefore(before, batchSize);
        removed += deleted;
        if (deleted < batchSize) break;
      }
      if (removed > 0) deps.log.info({ removed }, 'purged the events of workflow runs finished a day ago');
    },
  };
}
