import { accountRoutes } from '@athena/contract';
import type { FastifyInstance } from 'fastify';
import { authedRoute } from '../../platform/http/route.ts';
import type { RealNameService } from './realname.service.ts';

export interface RealNameRouteDeps {
  realName: RealNameService;
  /** The simulated completion exists only with the dev provider (like dev_wechat_scan). */
  devProvider: boolean;
}

export function registerRealNameRoutes(app: FastifyInstance, deps: RealNameRouteDeps) {
  const { realName } = deps;
  authedRoute(app, accountRoutes.realNameGet, (_body, ctx) => realName.get(ctx.userId));
  authedRoute(app, accountRoutes.realNameStart, (body, ctx) =>
    realName.start(ctx.userId, { name: body.name, idNumber: body.id_number }),
  );
  authedRoute(app, accountRoutes.realNameRefresh, (_body, ctx) => realName.refresh(ctx.userId));
  if (deps.devProvider) {
    authedRoute(app, accountRoutes.realNameDevComplete, (body, ctx) =>
      realName.devComplete(ctx.userId, body.token, body.outcome),
    );
  }
}
