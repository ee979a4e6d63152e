import type { Db } from '../../platform/db/database.ts';
import type { UsageReport } from '../../platform/llm/llm-gateway.ts';
import { llmUsage } from './model-key.schema.ts';

/** Stores the gateway's usage reports: one row per model call, with its fee on a platform model. */
export function createUsageRepo(db: Db) {
  return {
    async record(report: UsageReport) {
      const { subject, ...row } = report;
      const [stored] = await db
        .insert(llmUsage)
        .values({ ...row, subjectKind: subject?.kind, subjectId: subject?.id, runId: subject?.runId })
        .returning({ id: llmUsage.id });
      return stored.id;
    },
  };
}
