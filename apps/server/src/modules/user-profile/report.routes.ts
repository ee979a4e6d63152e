import { REPORT_EXPORT_PATH, profileReportRoutes as r, reportFilterSchema } from '@athena/contract';
import type { FastifyInstance } from 'fastify';
import { authedFileRoute, authedRoute } from '../../platform/http/route.ts';
import type { ReportService } from './report.service.ts';
import { reportCsv } from './report-csv.ts';

export function registerReportRoutes(app: FastifyInstance, reports: ReportService) {
  authedRoute(app, r.reportOverview, (body, ctx) => reports.overview(ctx, body));

  authedFileRoute(
    app,
    {
      path: REPORT_EXPORT_PATH,
      summary: "The scene's report per day as CSV (UTF-8 with BOM, for spreadsheet programs), or the error envelope",
      tag: 'user-profile',
      body: reportFilterSchema,
    },
    async (body, ctx, reply) => {
      const report = await reports.overview(ctx, body);
      const stamp = new Date(report.to).toISOString().slice(0, 10);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="athena-report-${stamp}.csv"`)
        .header('cache-control', 'private, no-store')
        .send(reportCsv(report, ctx.language));
    },
  );
}
