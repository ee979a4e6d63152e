import type { AppModule, PlatformDeps } from '../../platform/module.ts';
import type { RateLimits } from '../../platform/rate-limit/rate-limits.ts';
import type { KnowledgeModule } from '../knowledge/index.ts';
import type { McpClientModule } from '../mcp-client/index.ts';
import type { ModelKeyModule } from '../model-key/index.ts';
import { registerAgentRoutes } from './agent.routes.ts';
import { createAgentService } from './agent.service.ts';
import type { AgentMcpTools } from './agent-tools.ts';
import { createAskAgent } from './ask.command.ts';
import { ANSWER_STALE_MS, createChatTurnCommand } from './chat-turn.command.ts';
import { createConversationRepo } from './conversation.repo.ts';
import { type FindSources, readableSegment } from './grounding.ts';
import { registerOpenAICompatRoutes } from './openai-compat.routes.ts';
import { createPublishService } from './publish.service.ts';
import { createReferenceRepo } from './references.repo.ts';
import { registerShareRoutes, type ShareChatLimits } from './share.routes.ts';

/** How answering as an agent finds it (workflow agent nodes, chat-history replies). */
export { type AgentLookup, createAgentLookup } from './agent-lookup.repo.ts';
export type { AskAgent } from './ask.command.ts';
export type { AgentQueries } from './queries.ts';

import { createAgentQueries } from './queries.ts';

/**
 * Agents: their settings, chat in the playground, public share links and the OpenAI-compatible
 * API, answers grounded in the agent's knowledge bases.
 */
export function createAgentModule(
  deps: PlatformDeps & {
    publicUrl: string;
    modelKey: ModelKeyModule;
    knowledge: KnowledgeModule;
    /** No other process uses the database, so at start every answer still streaming is orphaned. */
    soleProcess: boolean;
    rateLimits: RateLimits;
    /** Calls per minute per API key, and what the share page's chat takes (docs/agents.md). */
    limits: { apiCallsPerMinute: number; shareChat: ShareChatLimits };
    /** The team's external MCP servers, whose tools an agent may call (docs/mcp.md). */
    mcpClient: AgentMcpTools & Pick<McpClientModule, 'ownsServers'>;
  },
) {
  const { db, bus, log, now } = deps;
  const { gateway, modelKeys } = deps.modelKey;
  const findSources: FindSources = async (params) =>
    (await deps.knowledge.retrieval.retrieveForAgent(params)).map((hit) => ({
      knowledgeId: hit.knowledgeId,
      unitId: hit.unitId,
      segmentId: hit.segment.id,
      fileName: hit.fileName,
      text: readableSegment(hit.segment),
      score: hit.score,
    }));
  const agents = createAgentService({
    db,
    bus,
    publicUrl: deps.publicUrl,
    now,
    ownsMcpServers: deps.mcpClient.ownsServers,
    references: createReferenceRepo({ modelKeys: deps.modelKey.queries, knowledge: deps.knowledge.queries }),
  });
  const conversations = createConversationRepo({ db, now });
  const chatTurn = createChatTurnCommand({
    modelKeys,
    gateway,
    findSources,
    log,
    store: conversations,
    mcpTools: deps.mcpClient,
  });
  const publish = createPublishService({ db, agents, now });
  const markInterrupted = async (before: Date) => {
    const count = await conversations.markInterrupted(before);
    if (count > 0) log.warn({ count }, 'answers left streaming by a stopped process marked interrupted');
  };
  const staleBefore = () => new Date(now().getTime() - ANSWER_STALE_MS);
  const module: AppModule = {
    name: 'agent',
    onStart: () => markInterrupted(deps.soleProcess ? now() : staleBefore()),
    schedules: [{ name: 'agent.interrupted-answers', cron: '* * * * *', run: () => markInterrupted(staleBefore()) }],
    routes(app) {
      registerAgentRoutes(app, { agents, conversations, publish, chatTurn });
      const { rateLimits, limits } = deps;
      registerShareRoutes(app, { agents, conversations, chatTurn, rateLimits, limits: limits.shareChat });
      registerOpenAICompatRoutes(app, { publish, chatTurn, rateLimits, callsPerMinute: limits.apiCallsPerMinute });
    },
  };
  // One question answered whole, for the MCP server's agent tools (docs/mcp.md).
  const ask = createAskAgent({ agents, chatTurn });
  /** What other modules may read of agents. */
  const queries = createAgentQueries(db);
  return { module, ask, queries };
}
export type AgentModule = ReturnType<typeof createAgentModule>;
