import type { Db } from '../../platform/db/database.ts';
import type { UsageReport } from '../../platform/llm/llm-gateway.ts';
import { llmUsage } from './model-key.schema.ts';

/** Stores the gateway's usage reports: one row per model call, for the fees billing will price. */
export function createUsageRepo(db: Db) {
  return {
    async record(report: UsageReport) {
      await db.insert(llmUsage).values(report);
    },
  };
}
