import { WechatApiError, type WechatProvider } from './wechat-provider.ts';

/** WeChat official-account API: access token, temporary string-scene QR codes, user info. */

export interface OfficialWechatOptions {
  apiBase: string;
  appId: string;
  appSecret: string;
  fetch?: typeof fetch;
  now?: () => number;
  timeoutMs?: number;
}

export type OfficialWechatProvider = WechatProvider & {
  fetchUser(openid: string): Promise<{ unionid?: string }>;
};

/** Refresh this long before WeChat's stated expiry so a token never dies mid-request. */
const REFRESH_MARGIN_MS = 5 * 60 * 1000;
/** invalid credential, access_token expired, invalid access_token: a fresh token may fix these. */
const STALE_TOKEN_CODES = new Set([40001, 42001, 40014]);

type Json = Record<string, unknown>;

export function createOfficialWechatProvider(opts: OfficialWechatOptions): OfficialWechatProvider {
  const doFetch = opts.fetch ?? fetch;
  const now = opts.now ?? Date.now;
  const timeoutMs = opts.timeoutMs ?? 10_000;
  const base = opts.apiBase.replace(/\/+$/, '');

  let cached: { token: string; refreshAt: number } | undefined;
  let inflight: Promise<string> | undefined;

  async function call(path: string, query: Record<string, string>, body?: unknown): Promise<Json> {
    const url = `${base}${path}?${new URLSearchParams(query)}`;
    let response: Response;
    try {
      response = await doFetch(url, {
        method: body === undefined ? 'GET' : 'POST',
        headers: body === undefined ? undefined : { 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      // Never echo the URL: it carries the app secret or the access token.
      const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
      const failure = new WechatApiError(
        timedOut ? `WeChat API did not answer within ${timeoutMs} ms` : 'WeChat API is unreachable',
      );
      failure.cause = error;
      throw failure;
    }
    const parsed: unknown = await response.json().catch(() => undefined);
    if (!response.ok || typeof parsed !== 'object' || parsed === null) {
      throw new WechatApiError(`WeChat API answered HTTP ${response.status} without a JSON object`);
    }
    const json = parsed as Json;
    // WeChat reports errors in the body with HTTP 200; errcode 0 means success.
    if (typeof json.errcode === 'number' && json.errcode !== 0) {
      throw new WechatApiError(typeof json.errmsg === 'string' ? json.errmsg : 'WeChat API error', json.errcode);
    }
    return json;
  }

  async function requestToken(): Promise<string> {
    const json = await call('/cgi-bin/token', {
      grant_type: 'client_credential',
      appid: opts.appId,
      secret: opts.appSecret,
    });
    if (typeof json.access_token !== 'string' || typeof json.expires_in !== 'number') {
      throw new WechatApiError('WeChat token response lacks access_token/expires_in');
    }
    cached = { token: json.access_token, refreshAt: now() + json.expires_in * 1000 - REFRESH_MARGIN_MS };
    return json.access_token;
  }

  function accessToken(): Promise<string> {
    if (cached && now() < cached.refreshAt) return Promise.resolve(cached.token);
    // WeChat rate-limits /token and each new token can retire the previous one, so concurrent
    // callers must share a single request.
    inflight ??= requestToken().finally(() => {
      inflight = undefined;
    });
    return inflight;
  }

  async function withToken(run: (token: string) => Promise<Json>): Promise<Json> {
    const token = await accessToken();
    try {
      return await run(token);
    } catch (error) {
      if (!(error instanceof WechatApiError && error.errcode !== undefined && STALE_TOKEN_CODES.has(error.errcode))) {
        throw error;
      }
      // Drop only the token that failed; another caller may already have fetched a fresh one.
      if (cached?.token === token) cached = undefined;
      return run(await accessToken());
    }
  }

  return {
    name: 'official',

    async createQr(sceneStr, expireSeconds) {
      const json = await withToken((token) =>
        call(
          '/cgi-bin/qrcode/create',
          { access_token: token },
          {
            expire_seconds: expireSeconds,
            action_name: 'QR_STR_SCENE',
            action_info: { scene: { scene_str: sceneStr } },
          },
        ),
      );
      if (typeof json.url !== 'string' || !json.url) throw new WechatApiError('WeChat QR response lacks url');
      return { url: json.url };
    },

    async fetchUser(openid) {
      const json = await withToken((token) =>
        call('/cgi-bin/user/info', { access_token: token, openid, lang: 'zh_CN' }),
      );
      return typeof json.unionid === 'string' && json.unionid ? { unionid: json.unionid } : {};
    },
  };
}
