import { spaceRoutes } from '@athena/contract';
import type { FastifyInstance } from 'fastify';
import { authedRoute } from '../../platform/http/route.ts';
import type { SpaceService } from './space.service.ts';

export function registerSpaceRoutes(app: FastifyInstance, spaces: SpaceService) {
  authedRoute(app, spaceRoutes.get, (body, ctx) => spaces.getMine(body.id, ctx.userId));
  authedRoute(app, spaceRoutes.select, (body, ctx) => spaces.select(body.selected_space_id, ctx.userId));
  authedRoute(app, spaceRoutes.list, async (_body, ctx) => ({ items: await spaces.list(ctx.userId) }));
}
