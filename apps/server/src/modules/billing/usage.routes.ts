import { billingUsageRoutes as routes, USAGE_EXPORT_PATH, usageFilterSchema } from '@athena/contract';
import type { FastifyInstance } from 'fastify';
import { authedFileRoute, authedRoute } from '../../platform/http/route.ts';
import type { OperatorService } from './operator.service.ts';
import type { PlatformModelService } from './platform-models.service.ts';
import { usageCsv } from './usage-csv.ts';
import type { UsageRecordsService } from './usage-records.service.ts';

export function registerUsageRoutes(
  app: FastifyInstance,
  deps: { usage: UsageRecordsService; platformModels: PlatformModelService; operator: OperatorService },
) {
  const { usage, platformModels, operator } = deps;

  authedRoute(app, routes.usageList, (body, ctx) => usage.list(ctx, body));
  authedRoute(app, routes.usageDaily, (body, ctx) => usage.daily(ctx, body));
  authedRoute(app, routes.platformModels, (_body, ctx) => platformModels.list(ctx));
  authedRoute(app, routes.platformModelCreate, (body, ctx) => platformModels.create(ctx, body));
  authedRoute(app, routes.platformModelUpdate, (body, ctx) => platformModels.update(ctx, body.id, body));
  authedRoute(app, routes.operatorLookup, (body, ctx) => operator.lookup(ctx, body.query));
  authedRoute(app, routes.operatorRefund, (body, ctx) => operator.refund(ctx, body));
  authedRoute(app, routes.operatorAdjust, (body, ctx) => operator.adjust(ctx, body));

  authedFileRoute(
    app,
    {
      path: USAGE_EXPORT_PATH,
      summary: 'The fee records of a filter as CSV (UTF-8 with BOM, for spreadsheet programs), or the error envelope',
      tag: 'billing',
      body: usageFilterSchema,
    },
    async (body, ctx, reply) => {
      const rows = await usage.exportRows(ctx, body);
      const stamp = new Date().toISOString().slice(0, 10);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="athena-fees-${stamp}.csv"`)
        .header('cache-control', 'private, no-store')
        .send(usageCsv(rows, ctx.language));
    },
  );
}
