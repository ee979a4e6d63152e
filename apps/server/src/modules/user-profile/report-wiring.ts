import type { Db } from '../../platform/db/database.ts';
import type { ScheduledJob } from '../../platform/module.ts';
import { createReportRepo } from './report.repo.ts';
import { createReportService } from './report.service.ts';
import { createReportSummary } from './report-summary.job.ts';

/**
 * The service reports (docs/user-profiles.md, Reports): the service the routes call, and the
 * summary job that keeps the summary tables, every minute, once across processes (pg-boss).
 */
export function wireReports(deps: { db: Db; now: () => Date }) {
  const reports = createReportService({ reports: createReportRepo(deps.db), now: deps.now });
  const reportSummary = createReportSummary({ db: deps.db });
  const schedule: ScheduledJob = {
    name: 'profile-report-summary',
    cron: '* * * * *',
    run: async () => {
      // 100 batches (2 million messages, about half a minute on PostgreSQL) a run at most.
      await reportSummary.catchUp({ maxBatches: 100 });
    },
  };
  return { reports, reportSummary, schedule };
}
