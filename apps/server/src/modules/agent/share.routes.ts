import { agentStreams, shareRoutes } from '@athena/contract';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../platform/http/app-error.ts';
import { publicRoute } from '../../platform/http/route.ts';
import { streamRoute } from '../../platform/http/sse.ts';
import { addressKey } from '../../platform/rate-limit/address-key.ts';
import type { RateLimits } from '../../platform/rate-limit/rate-limits.ts';
import type { AgentService } from './agent.service.ts';
import type { ChatTurnCommand } from './chat-turn.command.ts';
import type { ConversationRepo } from './conversation.repo.ts';
import { streamTurn } from './turn-stream.ts';

/** How much the share page's chat takes: messages per window, per visitor and per address of a link. */
export interface ShareChatLimits {
  perVisitor: number;
  perAddress: number;
  windowSeconds: number;
}

export function registerShareRoutes(
  app: FastifyInstance,
  deps: {
    agents: AgentService;
    conversations: ConversationRepo;
    chatTurn: ChatTurnCommand;
    rateLimits: RateLimits;
    limits: ShareChatLimits;
  },
) {
  const turns = deps.chatTurn;
  const { perVisitor, perAddress, windowSeconds } = deps.limits;
  // A link is public and a visitor id is whatever the page sends, so the address counts as well.
  const visitorRule = { name: 'share-visitor', limit: perVisitor, windowSeconds };
  const addressRule = { name: 'share-address', limit: perAddress, windowSeconds };

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
    // The address first: a refused address must not add a row for each visitor id it makes up.
    const byAddress = await deps.rateLimits.hit([{ rule: addressRule, subject: `${agent.id}:${addressKey(ctx.ip)}` }]);
    if (!byAddress.allowed) throw new AppError('RATE_LIMITED', {}, byAddress.retryAfterSeconds);
    const byVisitor = await deps.rateLimits.hit([{ rule: visitorRule, subject: `${agent.id}:${body.visitor_id}` }]);
    if (!byVisitor.allowed) throw new AppError('RATE_LIMITED', {}, byVisitor.retryAfterSeconds);
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
