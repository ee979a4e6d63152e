import { REPORT_EXPORT_PATH, profileReportRoutes as r, reportFilterSchema } from '@athena/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { authenticate } from '../../platform/auth-guard.ts';
import { contextOf } from '../../platform/http/request-context.ts';
import { authedRoute } from '../../platform/http/route.ts';
import type { ReportService } from './report.service.ts';
import { reportCsv } from './report-csv.ts';

export function registerReportRoutes(app: FastifyInstance, reports: ReportService) {
  authedRoute(app, r.reportOverview, (body, ctx) => reports.overview(ctx, body));

  app.withTypeProvider<ZodTypeProvider>().post(
    REPORT_EXPORT_PATH,
    {
      schema: {
        summary: "The scene's report per day as CSV (UTF-8 with BOM, for spreadsheet programs), or the error envelope",
        tags: ['user-profile'],
        body: reportFilterSchema,
      },
    },
    async (request, reply) => {
      const ctx = await authenticate(request, contextOf(request));
      const report = await reports.overview(ctx, request.body);
      const stamp = new Date(report.to).toISOString().slice(0, 10);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="athena-report-${stamp}.csv"`)
        .header('cache-control', 'private, no-store')
        .send(reportCsv(report, ctx.language));
    },
  );
}
