import { agentRoutes, agentStreams } from '@athena/contract';
import type { FastifyInstance } from 'fastify';
import { type AuthContext, authorize } from '../../platform/auth-guard.ts';
import { authedRoute } from '../../platform/http/route.ts';
import { streamRoute } from '../../platform/http/sse.ts';
import type { AgentService } from './agent.service.ts';
import type { ChatTurnCommand } from './chat-turn.command.ts';
import type { ConversationRepo } from './conversation.repo.ts';
import type { PublishService } from './publish.service.ts';
import { streamTurn } from './turn-stream.ts';

export interface AgentRouteDeps {
  agents: AgentService;
  conversations: ConversationRepo;
  publish: PublishService;
  chatTurn: ChatTurnCommand;
}

export function registerAgentRoutes(app: FastifyInstance, deps: AgentRouteDeps) {
  const { agents, conversations, publish, chatTurn: turns } = deps;
  const none = () => null;

  authedRoute(app, agentRoutes.list, (body, ctx) => agents.list(ctx, body?.keyword));
  authedRoute(app, agentRoutes.get, (body, ctx) => agents.get(ctx, body.id));
  authedRoute(app, agentRoutes.create, (body, ctx) => agents.create(ctx, body));
  authedRoute(app, agentRoutes.update, (body, ctx) => {
    const { id, ...fields } = body;
    return agents.update(ctx, id, fields);
  });
  authedRoute(app, agentRoutes.duplicate, (body, ctx) => agents.duplicate(ctx, body.id));
  authedRoute(app, agentRoutes.delete, (body, ctx) => agents.remove(ctx, body.id).then(none));
  authedRoute(app, agentRoutes.share, (body, ctx) => agents.share(ctx, body.id, body.enabled));

  // A member's own conversations, in the space they are in now.
  const mine = (ctx: AuthContext) => ({ userId: ctx.userId, spaceId: authorize(ctx, 'member.view').id });
  authedRoute(app, agentRoutes.conversations, async (body, ctx) => {
    const agent = await agents.get(ctx, body.agent_id);
    return conversations.listConversations(agent.id, mine(ctx));
  });
  authedRoute(app, agentRoutes.messages, async (body, ctx) => {
    const { items } = await conversations.messages(body.conversation_id, mine(ctx));
    return { items };
  });
  authedRoute(app, agentRoutes.renameConversation, (body, ctx) =>
    conversations.rename(body.id, mine(ctx), body.title).then(none),
  );
  authedRoute(app, agentRoutes.deleteConversation, (body, ctx) => conversations.remove(body.id, mine(ctx)).then(none));

  authedRoute(app, agentRoutes.apiKeyCreate, (body, ctx) => publish.createKey(ctx, body.agent_id, body.name));
  authedRoute(app, agentRoutes.apiKeyList, (body, ctx) => publish.listKeys(ctx, body.agent_id));
  authedRoute(app, agentRoutes.apiKeyRevoke, (body, ctx) => publish.revokeKey(ctx, body.id).then(none));
  authedRoute(app, agentRoutes.apps, (_body, ctx) => publish.apps(ctx));

  // The playground's chat: JSON errors until the stream starts, then the contract's events.
  streamRoute(app, agentStreams.chat, async (body, ctx, reply) => {
    const space = authorize(ctx, 'member.view');
    const agent = await agents.findForChat(space.id, body.agent_id);
    const turn = await turns.open({
      agent,
      owner: { userId: ctx.userId, spaceId: space.id },
      channel: 'playground',
      conversationId: body.conversation_id,
      message: body.message,
      regenerate: body.regenerate,
    });
    await streamTurn(reply, agentStreams.chat, turns, turn, ctx.language);
  });
}
