import { chatHistoryRoutes as r, WECOM_CALLBACK_PATH_PREFIX } from '@athena/contract';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { decryptSecret } from '../../platform/crypto.ts';
import type { Db } from '../../platform/db/database.ts';
import { authedRoute } from '../../platform/http/route.ts';
import { MAX_CALLBACK_BODY_BYTES, openKfCallback, readKfMsgOrEvent } from '../../platform/wecom/kf-callback.ts';
import { type CallbackQuery, isFreshTimestamp, WecomCryptError, wecomCrypt } from '../../platform/wecom/msg-crypt.ts';
import { wecomAccounts } from './wecom-account.schema.ts';
import type { WecomAccountService } from './wecom-account.service.ts';
import type { WecomClients } from './wecom-clients.ts';
import type { WecomPuller } from './wecom-pull.ts';

type SignedQuery = Partial<CallbackQuery & { echostr: string }>;

export function registerWecomAccountRoutes(app: FastifyInstance, accounts: WecomAccountService) {
  authedRoute(app, r.wecomGet, (_body, ctx) => accounts.get(ctx));
  authedRoute(app, r.wecomConnect, (body, ctx) => accounts.connect(ctx, body));
  authedRoute(app, r.wecomDisconnect, (_body, ctx) => accounts.disconnect(ctx));
}

/**
 * WeCom's callback URL of each connection (docs/wecom.md): GET answers the URL check with the
 * decrypted echostr; POST takes a push, answers at once, and starts a pull. Every refusal looks
 * the same to the sender (403, no reason); the reason goes to the log.
 */
export async function registerWecomCallback(
  app: FastifyInstance,
  deps: {
    db: Db;
    masterKey: Buffer;
    now: () => Date;
    puller: WecomPuller;
    clients: Pick<WecomClients, 'accountByCallback'>;
  },
) {
  // A dissolved team's callback URL answers as an unknown one: no URL check, no pull.
  const accountOf = async (callbackId: string) =>
    /^[A-Za-z0-9_-]{1,64}$/.test(callbackId) ? deps.clients.accountByCallback(callbackId) : null;
  const cryptOf = (account: typeof wecomAccounts.$inferSelect) =>
    wecomCrypt({
      token: decryptSecret(deps.masterKey, account.tokenSealed),
      encodingAesKey: decryptSecret(deps.masterKey, account.aesKeySealed),
      receiveId: account.corpId,
    });
  const signedQuery = (query: SignedQuery): CallbackQuery => ({
    msg_signature: String(query.msg_signature ?? ''),
    timestamp: String(query.timestamp ?? ''),
    nonce: String(query.nonce ?? ''),
  });

  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'string', bodyLimit: MAX_CALLBACK_BODY_BYTES }, (_request, body, done) =>
      done(null, body),
    );
    const path = `${WECOM_CALLBACK_PATH_PREFIX}:callbackId`;

    scope.get<{ Params: { callbackId: string }; Querystring: SignedQuery }>(
      path,
      { schema: { hide: true } },
      async (request, reply) => {
        const account = await accountOf(request.params.callbackId);
        if (!account) return reply.status(404).send('not found');
        try {
          const echo = cryptOf(account).openEcho({
            ...signedQuery(request.query),
            echostr: String(request.query.echostr ?? ''),
          });
          await deps.db.update(wecomAccounts).set({ verifiedAt: deps.now() }).where(eq(wecomAccounts.id, account.id));
          return reply.type('text/plain').send(echo);
        } catch (error) {
          if (!(error instanceof WecomCryptError)) throw error;
          request.log.warn({ reason: error.reason, account: account.id }, 'WeCom URL check refused');
          return reply.status(403).send('forbidden');
        }
      },
    );

    scope.post<{ Params: { callbackId: string }; Querystring: SignedQuery; Body: string }>(
      path,
      { schema: { hide: true } },
      async (request, reply) => {
        const account = await accountOf(request.params.callbackId);
        if (!account) return reply.status(404).send('not found');
        const query = signedQuery(request.query);
        try {
          if (!isFreshTimestamp(query.timestamp, deps.now())) throw new WecomCryptError('timestamp');
          const push = readKfMsgOrEvent(openKfCallback(cryptOf(account), query, String(request.body ?? '')));
          if (push) deps.puller.start(account, push.openKfId, push.syncToken);
          return reply.type('text/plain').send('success');
        } catch (error) {
          if (!(error instanceof WecomCryptError)) throw error;
          request.log.warn({ reason: error.reason, account: account.id }, 'WeCom push refused');
          return reply.status(403).send('forbidden');
        }
      },
    );
  });
}
