import type { FastifyInstance, FastifyRequest } from 'fastify';
import { parseWechatScanEvent, verifyWechatSignature } from '../../platform/wechat/wechat-callback.ts';
import type { WechatLoginService } from './wechat-login.service.ts';

export const WECHAT_CALLBACK_PATH = '/accountv2/wechat/callback';
const REPLAY_WINDOW_MS = 5 * 60_000;

interface CallbackOptions {
  callbackToken: string;
  wechat: WechatLoginService;
  fetchUser?: (openid: string) => Promise<{ unionid?: string }>;
  now: () => Date;
}

type SignedQuery = { signature?: string; timestamp?: string; nonce?: string; echostr?: string };

/**
 * WeChat's server-to-server event push (plaintext mode). GET verifies the URL once; POST brings
 * SCAN/subscribe events whose scene string is our login code. WeChat expects "success" quickly
 * whatever happens, or it retries.
 */
export async function registerWechatCallback(app: FastifyInstance, options: CallbackOptions) {
  app.addContentTypeParser(['text/xml', 'application/xml'], { parseAs: 'string' }, (_req, body, done) =>
    done(null, body),
  );

  // Plaintext mode signs only the query, so a captured push could be replayed: accept a push only
  // within a few minutes of its timestamp, and each nonce once in that window.
  const seenNonces = new Map<string, number>();
  const signed = (request: FastifyRequest<{ Querystring: SignedQuery }>, checkReplay: boolean) => {
    const { signature = '', timestamp = '', nonce = '' } = request.query;
    if (!verifyWechatSignature({ token: options.callbackToken, timestamp, nonce, signature })) return false;
    if (!checkReplay) return true;
    const nowMs = options.now().getTime();
    if (Math.abs(nowMs - Number(timestamp) * 1000) > REPLAY_WINDOW_MS) return false;
    for (const [seen, at] of seenNonces) if (nowMs - at > REPLAY_WINDOW_MS) seenNonces.delete(seen);
    if (seenNonces.has(nonce)) return false;
    seenNonces.set(nonce, nowMs);
    return true;
  };

  app.get<{ Querystring: SignedQuery }>(WECHAT_CALLBACK_PATH, { schema: { hide: true } }, async (request, reply) => {
    if (!signed(request, false)) return reply.status(403).send('invalid signature');
    return reply.type('text/plain').send(request.query.echostr ?? '');
  });

  app.post<{ Querystring: SignedQuery; Body: string }>(
    WECHAT_CALLBACK_PATH,
    { schema: { hide: true } },
    async (request, reply) => {
      if (!signed(request, true)) return reply.status(403).send('invalid signature');
      const event = typeof request.body === 'string' ? parseWechatScanEvent(request.body) : null;
      if (event) {
        const unionid = options.fetchUser
          ? await options.fetchUser(event.openid).then(
              (user) => user.unionid,
              (error) => {
                request.log.warn({ err: error }, 'WeChat user lookup failed; continuing without unionid');
                return undefined;
              },
            )
          : undefined;
        await options.wechat.recordScan({ sceneStr: event.sceneStr, openid: event.openid, unionid });
      }
      return reply.type('text/plain').send('success');
    },
  );
}
