/**
 * What WeChat's and WeCom's server APIs share: JSON over HTTPS with the access token in the query,
 * errors reported as `errcode` in a 200 body, and an access token that lives about two hours, must
 * be fetched by one caller at a time (each new one may retire the last), and can die early.
 */

type Json = Record<string, unknown>;

export interface TencentApiOptions {
  apiBase: string;
  /** "WeChat" or "WeCom": how errors name the service. */
  service: string;
  /** Builds the error thrown for every failure, with WeChat's or WeCom's errcode when there is one. */
  error: (message: string, errcode?: number) => Error & { errcode?: number };
  /** Fetches a new access token through `call`: its value and lifetime in seconds. */
  requestToken: (call: TencentCall) => Promise<{ token: string; expiresIn: number }>;
  fetch?: typeof fetch;
  now?: () => number;
  timeoutMs?: number;
}

export type TencentCall = (path: string, query: Record<string, string>, body?: unknown) => Promise<Json>;

/** Refresh this long before the stated expiry so a token never dies mid-request. */
const REFRESH_MARGIN_MS = 5 * 60 * 1000;
/** invalid credential, access_token expired, invalid access_token: a fresh token may fix these. */
const STALE_TOKEN_CODES = new Set([40001, 42001, 40014]);

export function createTencentApi(opts: TencentApiOptions) {
  const doFetch = opts.fetch ?? fetch;
  const now = opts.now ?? Date.now;
  const timeoutMs = opts.timeoutMs ?? 10_000;
  const base = opts.apiBase.replace(/\/+$/, '');

  let cached: { token: string; refreshAt: number } | undefined;
  let inflight: Promise<string> | undefined;

  const call: TencentCall = async (path, query, body) => {
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
      // Never echo the URL: it carries the secret or the access token.
      const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
      const failure = opts.error(
        timedOut ? `${opts.service} API did not answer within ${timeoutMs} ms` : `${opts.service} API is unreachable`,
      );
      failure.cause = error;
      throw failure;
    }
    const parsed: unknown = await response.json().catch(() => undefined);
    if (!response.ok || typeof parsed !== 'object' || parsed === null) {
      throw opts.error(`${opts.service} API answered HTTP ${response.status} without a JSON object`);
    }
    const json = parsed as Json;
    if (typeof json.errcode === 'number' && json.errcode !== 0) {
      throw opts.error(typeof json.errmsg === 'string' ? json.errmsg : `${opts.service} API error`, json.errcode);
    }
    return json;
  };

  async function requestToken(): Promise<string> {
    const { token, expiresIn } = await opts.requestToken(call);
    cached = { token, refreshAt: now() + expiresIn * 1000 - REFRESH_MARGIN_MS };
    return token;
  }

  function accessToken(): Promise<string> {
    if (cached && now() < cached.refreshAt) return Promise.resolve(cached.token);
    inflight ??= requestToken().finally(() => {
      inflight = undefined;
    });
    return inflight;
  }

  /**
   * A GET that answers a file (WeCom's media/get): its bytes, read up to `maxBytes` and refused
   * past them without reading on, or the JSON error it answers instead.
   */
  async function download(path: string, query: Record<string, string>, maxBytes: number) {
    let response: Response;
    try {
      response = await doFetch(`${base}${path}?${new URLSearchParams(query)}`, {
        signal: AbortSignal.timeout(timeoutMs * 6),
      });
    } catch (error) {
      const failure = opts.error(`${opts.service} API is unreachable`);
      failure.cause = error;
      throw failure;
    }
    const contentType = response.headers.get('content-type') ?? '';
    if (!response.ok) throw opts.error(`${opts.service} API answered HTTP ${response.status}`);
    if (/json|text\/plain/i.test(contentType)) {
      const json = (await response.json().catch(() => ({}))) as Json;
      const errcode = typeof json.errcode === 'number' ? json.errcode : undefined;
      throw opts.error(typeof json.errmsg === 'string' ? json.errmsg : `${opts.service} answered no file`, errcode);
    }
    const declared = Number(response.headers.get('content-length'));
    if (declared > maxBytes) {
      await response.body?.cancel();
      throw opts.error(`${opts.service} file is larger than ${maxBytes} bytes`);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of response.body ?? []) {
      size += chunk.length;
      if (size > maxBytes) {
        await response.body?.cancel().catch(() => {});
        throw opts.error(`${opts.service} file is larger than ${maxBytes} bytes`);
      }
      chunks.push(Buffer.from(chunk));
    }
    const disposition = response.headers.get('content-disposition') ?? '';
    const fileName = /filename="?([^";]+)"?/i.exec(disposition)?.[1] ?? '';
    return { bytes: Buffer.concat(chunks), contentType, fileName };
  }

  /** Runs a call with the access token; a token the API calls stale is replaced once. */
  async function withToken<T>(run: (token: string) => Promise<T>): Promise<T> {
    const token = await accessToken();
    try {
      return await run(token);
    } catch (error) {
      const errcode = (error as { errcode?: number }).errcode;
      if (errcode === undefined || !STALE_TOKEN_CODES.has(errcode)) throw error;
      // Drop only the token that failed; another caller may already have fetched a fresh one.
      if (cached?.token === token) cached = undefined;
      return run(await accessToken());
    }
  }

  return { call, download, withToken };
}
