import { behaviourRoutes as r } from '@athena/contract';
import type { FastifyInstance } from 'fastify';
import { authedRoute } from '../../platform/http/route.ts';
import type { BehaviourService } from './behaviour.service.ts';
import type { SatisfactionService } from './satisfaction.service.ts';

export function registerBehaviourRoutes(
  app: FastifyInstance,
  deps: { behaviour: BehaviourService; satisfaction: SatisfactionService },
) {
  const { behaviour, satisfaction } = deps;
  authedRoute(app, r.behaviourList, (body, ctx) => behaviour.list(ctx, body));
  authedRoute(app, r.satisfactionSettingsGet, (_body, ctx) => satisfaction.settings(ctx));
  authedRoute(app, r.satisfactionSettingsUpdate, (body, ctx) => satisfaction.updateSettings(ctx, body));
  authedRoute(app, r.satisfactionList, (body, ctx) => satisfaction.list(ctx, body));
  authedRoute(app, r.satisfactionSummary, (body, ctx) => satisfaction.summary(ctx, body));
}
