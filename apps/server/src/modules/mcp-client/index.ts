import { createOutboundFetch } from '../../platform/llm/outbound-guard.ts';
import type { AppModule, PlatformDeps } from '../../platform/module.ts';
import { createAuditRepo } from '../team/index.ts';
import { createExternalClient } from './external-client.command.ts';
import { createExternalRepo } from './mcp-external.repo.ts';
import { registerExternalRoutes } from './mcp-external.routes.ts';
import { createExternalServers } from './mcp-external.service.ts';

export type { ExternalCallOptions } from './mcp-external.service.ts';
export type McpClientModule = ReturnType<typeof createMcpClientModule>;

/**
 * External MCP servers a team adds (docs/mcp.md, "External MCP servers"): their settings and cached
 * tool lists, the page's routes, and the calls agents and workflows make to their tools. Apart
 * from the team's own MCP server (modules/mcp), which serves workflows and agents: this module
 * serves them, so it comes before them.
 */
export function createMcpClientModule(
  deps: PlatformDeps & {
    /** Seals the servers' headers. */
    masterKey: Buffer;
    /** Servers may sit on private and loopback addresses (ALLOW_PRIVATE_MODEL_ENDPOINTS). */
    allowPrivate: boolean;
  },
) {
  const { db, now } = deps;
  // Every connection through the outbound guard, redirects included.
  const external = createExternalServers({
    repo: createExternalRepo({ db, now }),
    client: createExternalClient({ fetch: createOutboundFetch({ allowPrivate: deps.allowPrivate }) }),
    masterKey: deps.masterKey,
    allowPrivate: deps.allowPrivate,
    audit: createAuditRepo(db),
  });
  const module: AppModule = {
    name: 'mcp-client',
    routes(app) {
      registerExternalRoutes(app, external);
    },
  };
  return {
    module,
    external,
    callExternalTool: external.callExternalTool,
    inputSchemaOf: external.inputSchemaOf,
    describeTools: external.describeTools,
    ownsServers: external.ownsServers,
  };
}
