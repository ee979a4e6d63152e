import { workflowTriggerRoutes as r } from '@athena/contract';
import type { FastifyInstance } from 'fastify';
import { authedRoute } from '../../../platform/http/route.ts';
import type { TriggerAdmin } from './trigger-admin.service.ts';

/** Managing a workflow's API keys, webhook and schedule (the session routes of the triggers panel). */
export function registerTriggerRoutes(app: FastifyInstance, admin: TriggerAdmin) {
  authedRoute(app, r.apiKeyCreate, (body, ctx) => admin.createKey(ctx, body.workflow_id, body.name));
  authedRoute(app, r.apiKeyList, (body, ctx) => admin.listKeys(ctx, body.workflow_id));
  authedRoute(app, r.apiKeyRevoke, (body, ctx) => admin.revokeKey(ctx, body.id));
  authedRoute(app, r.webhookGet, (body, ctx) => admin.webhook(ctx, body.workflow_id));
  authedRoute(app, r.webhookSet, (body, ctx) => admin.setWebhook(ctx, body.workflow_id, body.enabled));
  authedRoute(app, r.webhookRotate, (body, ctx) => admin.rotateWebhook(ctx, body.workflow_id));
  authedRoute(app, r.scheduleGet, (body, ctx) => admin.schedule(ctx, body.workflow_id));
  authedRoute(app, r.scheduleSet, (body, ctx) => admin.setSchedule(ctx, body));
  authedRoute(app, r.schedulePreview, (body, ctx) => admin.preview(ctx, body.cron, body.timezone));
}
