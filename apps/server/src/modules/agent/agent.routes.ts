import { agentRoutes, CHAT_STREAM_PATH, chatRequest, errorEnvelope } from '@athena/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { authenticate, authorize } from '../../platform/auth-guard.ts';
import { AppError } from '../../platform/http/app-error.ts';
import { authedRoute, contextOf } from '../../platform/http/route.ts';
import { openEventStream } from '../../platform/http/sse.ts';
import type { ModelKeyService } from '../model-key/model-key.service.ts';
import type { AgentService } from './agent.service.ts';
import type { ChatService } from './chat.service.ts';
import type { PublishService } from './publish.service.ts';

export interface AgentRouteDeps {
  agents: AgentService;
  chat: ChatService;
  publish: PublishService;
  modelKeys: ModelKeyService;
}

export function registerAgentRoutes(app: FastifyInstance, deps: AgentRouteDeps) {
  const { agents, chat, publish, modelKeys } = deps;
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

  authedRoute(app, agentRoutes.conversations, async (body, ctx) => {
    const agent = await agents.get(ctx, body.agent_id);
    return chat.listConversations(agent.id, { userId: ctx.userId });
  });
  authedRoute(app, agentRoutes.messages, async (body, ctx) => {
    authorize(ctx, 'member.view');
    const { items } = await chat.messages(body.conversation_id, { userId: ctx.userId });
    return { items };
  });
  authedRoute(app, agentRoutes.renameConversation, (body, ctx) =>
    chat.rename(body.id, { userId: ctx.userId }, body.title).then(none),
  );
  authedRoute(app, agentRoutes.deleteConversation, (body, ctx) =>
    chat.remove(body.id, { userId: ctx.userId }).then(none),
  );

  authedRoute(app, agentRoutes.apiKeyCreate, (body, ctx) => publish.createKey(ctx, body.agent_id, body.name));
  authedRoute(app, agentRoutes.apiKeyList, (body, ctx) => publish.listKeys(ctx, body.agent_id));
  authedRoute(app, agentRoutes.apiKeyRevoke, (body, ctx) => publish.revokeKey(ctx, body.id).then(none));
  authedRoute(app, agentRoutes.apps, (_body, ctx) => publish.apps(ctx));

  // The playground's chat: JSON errors until the stream starts, then server-sent events.
  app.withTypeProvider<ZodTypeProvider>().post(
    CHAT_STREAM_PATH,
    {
      schema: {
        summary: 'Chat with an agent; answers stream as server-sent events (see the contract)',
        tags: ['agent'],
        body: chatRequest,
        response: { 200: errorEnvelope },
      },
    },
    async (request, reply) => {
      const ctx = await authenticate(request, contextOf(request));
      const space = authorize(ctx, 'member.view');
      const agent = await agents.findForChat(space.id, request.body.agent_id);
      const key = await modelKeys.resolveForUse(space.id, { id: agent.modelKeyId ?? undefined, purpose: 'chat' });
      if (!key) throw new AppError('NO_MODEL_KEY');
      const turn = await chat.openTurn({
        agent,
        owner: { userId: ctx.userId },
        channel: 'playground',
        conversationId: request.body.conversation_id,
        message: request.body.message,
        regenerate: request.body.regenerate,
      });
      const stream = openEventStream(reply);
      await chat.runTurn({
        agent,
        key,
        turn,
        usage: { spaceId: space.id, userId: ctx.userId, source: 'agent.chat' },
        signal: stream.signal,
        sink: stream,
        language: ctx.language,
      });
      stream.end();
    },
  );
}
