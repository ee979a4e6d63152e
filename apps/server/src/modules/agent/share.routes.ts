import { agentStreams, shareRoutes } from '@athena/contract';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../platform/http/app-error.ts';
import { publicRoute } from '../../platform/http/route.ts';
import { streamRoute } from '../../platform/http/sse.ts';
import type { AgentService } from './agent.service.ts';
import type { ChatTurnCommand } from './chat-turn.command.ts';
import type { ConversationRepo } from './conversation.repo.ts';
import { streamTurn } from './turn-stream.ts';

/** Messages a visitor (and, separately, an address) may send per window; a share link is public. */
const VISITOR_LIMIT = 20;
const ADDRESS_LIMIT = 60;
const WINDOW_MS = 10 * 60_000;

/** A sliding-window counter in memory (per process; documented in docs/agents.md). */
function createLimiter(limit: number, windowMs: number) {
  const hits = new Map<string, number[]>();
  return (key: string, nowMs = Date.now()) => {
    const recent = (hits.get(key) ?? []).filter((at) => nowMs - at < windowMs);
    if (recent.length >= limit) {
      hits.set(key, recent);
      return false;
    }
    recent.push(nowMs);
    hits.set(key, recent);
    if (hits.size > 100_000) hits.clear();
    return true;
  };
}

export function registerShareRoutes(
  app: FastifyInstance,
  deps: {
    agents: AgentService;
    conversations: ConversationRepo;
    chatTurn: ChatTurnCommand;
  },
) {
  const turns = deps.chatTurn;
  const byVisitor = createLimiter(VISITOR_LIMIT, WINDOW_MS);
  const byAddress = createLimiter(ADDRESS_LIMIT, WINDOW_MS);

  publicRoute(app, shareRoutes.info, async (body) => {
    const agent = await deps.agents.findByShareCode(body.code);
    return {
      name: agent.name,
      avatar_url: agent.avatarUrl,
      description: agent.description,
      opening_message: agent.openingMessage,
      suggested_questions: agent.suggestedQuestions,
    };
  });

  publicRoute(app, shareRoutes.messages, async (body) => {
    const agent = await deps.agents.findByShareCode(body.code);
    const { items } = await deps.conversations.messages(body.conversation_id, { visitorId: body.visitor_id }, agent.id);
    return { items };
  });

  streamRoute(app, agentStreams.shareChat, async (body, ctx, reply) => {
    const agent = await deps.agents.findByShareCode(body.code);
    if (!byVisitor(`${agent.id}:${body.visitor_id}`) || !byAddress(`${agent.id}:${ctx.ip}`)) {
      throw new AppError('RATE_LIMITED');
    }
    const turn = await turns.open({
      agent,
      owner: { visitorId: body.visitor_id },
      channel: 'share',
      conversationId: body.conversation_id,
      message: body.message,
      regenerate: false,
    });
    await streamTurn(reply, agentStreams.shareChat, turns, turn, ctx.language);
  });
}
