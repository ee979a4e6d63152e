import {
  CHAT_INGEST_PATH_PREFIX,
  CHAT_LIMITS,
  chatLiveStream,
  chatHistoryRoutes as r,
  WORKFLOW_SIGNATURE_HEADER,
} from '@athena/contract';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../platform/http/app-error.ts';
import { answerFault, languageOf, refuse } from '../../platform/http/public-answers.ts';
import { authedRoute } from '../../platform/http/route.ts';
import { liveFor, openEventStream, stillMemberOf, streamRoute } from '../../platform/http/sse.ts';
import { addressKey } from '../../platform/rate-limit/address-key.ts';
import type { RateLimits } from '../../platform/rate-limit/rate-limits.ts';
import type { ChatHistoryService } from './chat-history.service.ts';
import type { ChatLive } from './chat-live.ts';
import type { ChatReplyService } from './chat-reply.service.ts';
import { chatScope } from './chat-scope.ts';
import type { IngestService } from './ingest.service.ts';
import type { SceneSettingsService } from './scene-settings.service.ts';

export function registerChatHistoryRoutes(
  app: FastifyInstance,
  deps: {
    history: ChatHistoryService;
    settings: SceneSettingsService;
    replies: ChatReplyService;
    live: ChatLive;
    liveSeconds: number;
  },
) {
  const { history, settings, replies, live } = deps;
  authedRoute(app, r.settingsGet, (_body, ctx) => settings.get(ctx));
  authedRoute(app, r.ingestRotate, (_body, ctx) => settings.rotateIngest(ctx));
  authedRoute(app, r.ingestDisable, (_body, ctx) => settings.disableIngest(ctx));
  authedRoute(app, r.replyUpdate, (body, ctx) => settings.updateReply(ctx, body));
  authedRoute(app, r.messageSend, (body, ctx) => replies.send(ctx, body));
  authedRoute(app, r.messageDraft, (body, ctx) => replies.draft(ctx, body.conversation_id));
  authedRoute(app, r.messageAiReply, (body, ctx) => replies.aiReply(ctx, body.conversation_id));
  authedRoute(app, r.conversationList, (body, ctx) => history.list(ctx, body));
  authedRoute(app, r.conversationGet, (body, ctx) => history.get(ctx, body.id));
  authedRoute(app, r.conversationRead, (body, ctx) => history.read(ctx, body.id));
  authedRoute(app, r.messageList, (body, ctx) => history.messages(ctx, body.conversation_id, body));
  authedRoute(app, r.customerSearch, (body, ctx) => history.customers(ctx, body.keyword));
  streamRoute(app, chatLiveStream, async (_body, ctx, reply) => {
    const scope = chatScope(ctx, 'chat.view');
    const stream = openEventStream(reply, chatLiveStream);
    const stillMember = stillMemberOf(app, scope.spaceId, ctx.userId);
    const stop = live.follow(scope, (ids) => {
      void stillMember().then((member) => member && stream.send('changed', { conversation_ids: ids }));
    });
    liveFor(reply, stream, { seconds: deps.liveSeconds, stop, bye: () => stream.send('bye', {}) });
  });
}

/** A body over the limit is a batch too large, said in the ingest's own words. */
function ingestFault(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (error.statusCode === 413) {
    return refuse(reply, languageOf(request), 'CHAT_INGEST_BATCH_TOO_LARGE', { max: CHAT_LIMITS.ingestBatch });
  }
  return answerFault(error, request, reply);
}

/**
 * `POST /hooks/chat/<ingest id>`: batches of messages from the other channels, signed like workflow
 * webhooks (`X-Athena-Signature: t=…,v1=…` over the raw body), answered in plain JSON with a real
 * HTTP status (docs/chat-ingest.md).
 */
export async function registerIngestRoute(
  app: FastifyInstance,
  deps: { ingest: IngestService; rateLimits: RateLimits; signedRoutes: SignedIngestRoute[] },
) {
  const perAddress = {
    name: 'chat-ingest-address',
    limit: CHAT_LIMITS.ingestCallsPerAddressPerMinute,
    windowSeconds: 60,
  };
  await app.register(async (scope) => {
    // The signature covers the exact bytes sent, so this scope reads every body raw (and capped).
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(
      '*',
      { parseAs: 'buffer', bodyLimit: CHAT_LIMITS.ingestBodyBytes },
      (_request, body, done) => done(null, body),
    );
    scope.setErrorHandler(ingestFault);
    scope.addHook('onRequest', async (request) => {
      const verdict = await deps.rateLimits.hit([{ rule: perAddress, subject: addressKey(request.ip) }]);
      if (!verdict.allowed) throw new AppError('RATE_LIMITED', {}, verdict.retryAfterSeconds);
    });
    // Messages, and other modules' endpoints under the ingest URL (behaviour events), signed alike.
    type Accept = (ingestId: string, signature: string | undefined, raw: Buffer) => Promise<unknown>;
    const routes: { suffix: string; accept: Accept }[] = [
      { suffix: '', accept: deps.ingest.accept },
      ...deps.signedRoutes.map((route) => ({
        suffix: route.suffix,
        accept: ((ingestId, signature, raw) =>
          deps.ingest.acceptSigned(ingestId, route.suffix, signature, raw, route.handle)) satisfies Accept,
      })),
    ];
    for (const route of routes) {
      scope.post<{ Params: { ingestId: string } }>(
        `${CHAT_INGEST_PATH_PREFIX}:ingestId${route.suffix}`,
        { schema: { hide: true } },
        async (request, reply) => {
          const signature = request.headers[WORKFLOW_SIGNATURE_HEADER];
          const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
          const answer = await route.accept(
            request.params.ingestId,
            typeof signature === 'string' ? signature : undefined,
            raw,
          );
          return reply.status(200).send(answer);
        },
      );
    }
  });
}

/** An endpoint another module offers under a scene's ingest URL (`/hooks/chat/<ingest id><suffix>`). */
export interface SignedIngestRoute {
  suffix: string;
  handle: (scene: { spaceId: string; sceneId: number }, raw: Buffer) => Promise<unknown>;
}
