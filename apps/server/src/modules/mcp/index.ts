import type { AppModule, PlatformDeps } from '../../platform/module.ts';
import type { RateLimits } from '../../platform/rate-limit/rate-limits.ts';
import type { AgentModule } from '../agent/index.ts';
import type { KnowledgeModule } from '../knowledge/index.ts';
import type { AuditRepo } from '../team/index.ts';
import type { WorkflowModule } from '../workflow/index.ts';
import { createMcpRepo } from './mcp.repo.ts';
import { registerMcpRoutes } from './mcp.routes.ts';
import { createMcpAdmin } from './mcp-admin.service.ts';
import { registerMcpEndpoint } from './mcp-endpoint.routes.ts';
import { createToolCalls } from './tool-call.command.ts';

export type McpModule = ReturnType<typeof createMcpModule>;

/**
 * The team's MCP server (docs/mcp.md): its knowledge bases, effective workflows and agents as MCP
 * tools over Streamable HTTP, access tokens, and the page's management calls and call log.
 */
export function createMcpModule(
  deps: PlatformDeps & {
    knowledge: Pick<KnowledgeModule, 'retrieval' | 'queries'>;
    workflow: Pick<WorkflowModule, 'runs' | 'queries'>;
    agent: Pick<AgentModule, 'ask' | 'queries'>;
    audit: AuditRepo;
    rateLimits: RateLimits;
    version: string;
    /** Requests per token per minute (MCP_CALLS_PER_MINUTE). */
    callsPerMinute: number;
  },
) {
  const { db, now, log, bus } = deps;
  const repo = createMcpRepo({
    db,
    now,
    bus,
    targets: {
      knowledge: deps.knowledge.queries.basesForTools,
      agent: deps.agent.queries.agentsForTools,
      workflow: deps.workflow.queries.workflowsForTools,
    },
  });
  const admin = createMcpAdmin({ repo, now, audit: deps.audit });
  const tools = createToolCalls({
    repo,
    retrieval: deps.knowledge.retrieval,
    runs: deps.workflow.runs,
    ask: deps.agent.ask,
    log,
  });
  const module: AppModule = {
    name: 'mcp',
    routes(app) {
      registerMcpRoutes(app, admin);
      registerMcpEndpoint(app, {
        repo,
        tools,
        rateLimits: deps.rateLimits,
        bus,
        events: deps.events,
        callsPerMinute: deps.callsPerMinute,
        version: deps.version,
      });
    },
  };
  return { module, admin, tools };
}
