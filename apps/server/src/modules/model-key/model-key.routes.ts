import { modelKeyRoutes } from '@athena/contract';
import type { FastifyInstance } from 'fastify';
import { authedRoute } from '../../platform/http/route.ts';
import type { ModelKeyService } from './model-key.service.ts';

export function registerModelKeyRoutes(app: FastifyInstance, keys: ModelKeyService) {
  authedRoute(app, modelKeyRoutes.list, (body, ctx) => keys.list(ctx, body?.purpose));
  authedRoute(app, modelKeyRoutes.create, (body, ctx) => keys.create(ctx, body));
  authedRoute(app, modelKeyRoutes.update, (body, ctx) => {
    const { id, ...fields } = body;
    return keys.update(ctx, id, fields);
  });
  authedRoute(app, modelKeyRoutes.delete, async (body, ctx) => {
    await keys.remove(ctx, body.id);
    return null;
  });
  authedRoute(app, modelKeyRoutes.setDefault, async (body, ctx) => {
    await keys.setDefault(ctx, body.id);
    return null;
  });
  authedRoute(app, modelKeyRoutes.test, (body, ctx) => keys.test(ctx, body.id));
  authedRoute(app, modelKeyRoutes.testDraft, (body, ctx) => keys.testDraft(ctx, body));
}
