import type { Db } from '../../platform/db/database.ts';
import type { ScheduledJob } from '../../platform/module.ts';
import { createReportRepo } from './report.repo.ts';
import { createReportService } from './report.service.ts';
import { createReportSummary } from './report-summary.job.ts';

/**
 * The service reports (docs/user-profiles.md, Reports): the service the routes call, and the
 * summary job that keeps the summary tables, every minute, once across processes (pg-boss).
 */
export function wireReports(deps: { db: Db; now: () => Date; oneConnection: boolean }) {
  const reports = createReportService({ reports: createReportRepo(deps.db), now: deps.now });
  // Where the database runs one statement at a time, a batch holds every request's statements up
  // until it commits: short batches (requests waiting go between them, in order of arrival).
  const reportSummary = createReportSummary({ db: deps.db, batch: deps.oneConnection ? 2_000 : 20_000 });
  const schedule: ScheduledJob = {
    name: 'profile-report-summary',
    cron: '* * * * *',
    run: async () => {
      // 100 batches a run at most (2 million messages, about half a minute, on PostgreSQL).
      await reportSummary.catchUp({ maxBatches: 100 });
    },
  };
  return { reports, reportSummary, schedule };
}
