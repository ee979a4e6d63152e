import { activationRoutes as r } from '@athena/contract';
import type { FastifyInstance } from 'fastify';
import { authedRoute } from '../../platform/http/route.ts';
import type { ActivationService } from './activation.service.ts';
import type { ActivationTemplateService } from './activation-template.service.ts';

export function registerActivationRoutes(
  app: FastifyInstance,
  deps: { templates: ActivationTemplateService; events: ActivationService },
) {
  const { templates, events } = deps;
  authedRoute(app, r.templateList, (_body, ctx) => templates.list(ctx));
  authedRoute(app, r.templateCreate, (body, ctx) => templates.create(ctx, body));
  authedRoute(app, r.templateUpdate, (body, ctx) => templates.update(ctx, body));
  authedRoute(app, r.templateDelete, (body, ctx) => templates.remove(ctx, body.id));
  authedRoute(app, r.preview, (body, ctx) => templates.preview(ctx, body));
  authedRoute(app, r.audienceCount, (body, ctx) => events.audienceCount(ctx, body.audience));
  authedRoute(app, r.eventList, (body, ctx) => events.list(ctx, body));
  authedRoute(app, r.eventGet, (body, ctx) => events.get(ctx, body.id));
  authedRoute(app, r.eventCreate, (body, ctx) => events.create(ctx, body));
  authedRoute(app, r.eventCancel, (body, ctx) => events.cancel(ctx, body.id));
  authedRoute(app, r.sendList, (body, ctx) => events.sends(ctx, body));
}
