import { and, eq, lt, sql } from 'drizzle-orm';
import type { Db } from '../../../platform/db/database.ts';
import { workflowRunEvents, workflowRuns } from '../run.schema.ts';

export function createRunEventsPurgeRepo(db: Db) {
  return {
    /**
     * Deletes at most `limit` events of runs that finished before `before`, and answers how many.
     * The scan starts from the events, which once purged hold only recent and running runs, so
     * its cost follows the last day's events, not the whole history of runs.
     */
    async deleteOfRunsFinishedBefore(before: Date, limit: number): Promise<number> {
      const doomed = db
        .select({ runId: workflowRunEvents.runId, seq: workflowRunEvents.seq })
        .from(workflowRunEvents)
        .innerJoin(workflowRuns, eq(workflowRuns.id, workflowRunEvents.runId))
        .where(and(eq(workflowRuns.status, 'finished'), lt(workflowRuns.finishedAt, before)))
        .limit(limit);
      const deleted = await db
        .delete(workflowRunEvents)
        .where(sql`(${workflowRunEvents.runId}, ${workflowRunEvents.seq}) in (${doomed})`)
        .returning({ seq: workflowRunEvents.seq });
      return deleted.length;
    },
  };
}
