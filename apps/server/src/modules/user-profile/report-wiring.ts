import type { Db } from '../../platform/db/database.ts';
import type { ScheduledJob } from '../../platform/module.ts';
import { createReportRepo } from './report.repo.ts';
import { createReportService } from './report.service.ts';
import { createReportSummary } from './report-summary.job.ts';

/**
 * The service reports (docs/user-profiles.md, Reports): the service the routes call, and the
 * summary job that keeps the summary tables, every minute, once across processes (pg-boss).
 */
export function wireReports(deps: { db: Db; now: () => Date; embedded: boolean }) {
  const reports = createReportService({ reports: createReportRepo(deps.db), now: deps.now });
  // The embedded database is one connection: short batches, each followed by three times its
  // length of pause, leave at least three quarters of it to requests (as ingestion does).
  const reportSummary = deps.embedded
    ? createReportSummary({ db: deps.db, batch: 2_000, pauseShare: 3 })
    : createReportSummary({ db: deps.db, batch: 20_000, pauseShare: 0 });
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
