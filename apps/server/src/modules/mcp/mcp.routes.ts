import { mcpRoutes as r } from '@athena/contract';
import type { FastifyInstance } from 'fastify';
import { authedRoute } from '../../platform/http/route.ts';
import type { McpAdmin } from './mcp-admin.service.ts';

/** The MCP server page's calls: the switch, access tokens, exposed tools and the call log. */
export function registerMcpRoutes(app: FastifyInstance, admin: McpAdmin) {
  authedRoute(app, r.settingsGet, (_body, ctx) => admin.settings(ctx));
  authedRoute(app, r.settingsSet, (body, ctx) => admin.setEnabled(ctx, body.enabled));
  authedRoute(app, r.tokenCreate, (body, ctx) => admin.createToken(ctx, body));
  authedRoute(app, r.tokenList, (_body, ctx) => admin.listTokens(ctx));
  authedRoute(app, r.tokenRevoke, (body, ctx) => admin.revokeToken(ctx, body.id));
  authedRoute(app, r.toolCandidates, (_body, ctx) => admin.candidates(ctx));
  authedRoute(app, r.toolAdd, (body, ctx) => admin.addTool(ctx, body));
  authedRoute(app, r.toolUpdate, (body, ctx) => admin.updateTool(ctx, body));
  authedRoute(app, r.toolRemove, (body, ctx) => admin.removeTool(ctx, body.id));
  authedRoute(app, r.toolList, (_body, ctx) => admin.listTools(ctx));
  authedRoute(app, r.callList, (body, ctx) => admin.listCalls(ctx, body));
}
