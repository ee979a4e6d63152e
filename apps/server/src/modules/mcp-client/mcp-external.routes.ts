import { mcpExternalRoutes as r } from '@athena/contract';
import type { FastifyInstance } from 'fastify';
import { authedRoute } from '../../platform/http/route.ts';
import type { ExternalServers } from './mcp-external.service.ts';

/** The page's calls for the team's external MCP servers (docs/mcp.md, "External MCP servers"). */
export function registerExternalRoutes(app: FastifyInstance, servers: ExternalServers) {
  authedRoute(app, r.list, (_body, ctx) => servers.list(ctx));
  authedRoute(app, r.add, (body, ctx) => servers.add(ctx, body));
  authedRoute(app, r.update, (body, ctx) => servers.update(ctx, body));
  authedRoute(app, r.remove, (body, ctx) => servers.remove(ctx, body.id));
  authedRoute(app, r.refresh, (body, ctx) => servers.refresh(ctx, body.id));
  authedRoute(app, r.tools, (body, ctx) => servers.tools(ctx, body.id));
  authedRoute(app, r.try, (body, ctx) => servers.tryTool(ctx, body));
}
