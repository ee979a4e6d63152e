import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for api.weixin.qq.com (access token, temporary QR codes, user info) plus a
 * scan() helper that pushes a signed plaintext-mode event to our callback the way WeChat does.
 */

export interface FakeWechatApiOptions {
  appId?: string;
  appSecret?: string;
  /** The official account's original id, sent as ToUserName in event pushes. */
  accountId?: string;
  /** Lifetime reported for each access token; WeChat uses 7200. */
  tokenExpiresIn?: number;
}

export interface FakeWechatRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  body?: unknown;
  errcode: number;
}

export interface FakeWechatQr {
  ticket: string;
  url: string;
  sceneStr: string;
  expireSeconds: number;
}

export interface FakeWechatScan {
  callbackUrl: string;
  callbackToken: string;
  sceneStr: string;
  openid: string;
  event: 'subscribe' | 'SCAN';
  /** Registered for later /cgi-bin/user/info calls. */
  unionid?: string;
}

export interface FakeWechatApi {
  url: string;
  appId: string;
  appSecret: string;
  requests: FakeWechatRequest[];
  /** QR codes issued by /cgi-bin/qrcode/create, oldest first. */
  qrcodes: FakeWechatQr[];
  /** How many times /cgi-bin/token was called (to prove caching). */
  readonly tokenRequests: number;
  /** The current token now answers 42001 (access_token expired), as after its 7200 s. */
  expireToken(): void;
  /** The next qrcode/create with a valid token answers this error. */
  failNextQrcode(errcode: number, errmsg: string): void;
  setUser(openid: string, user: { unionid?: string }): void;
  scan(scan: FakeWechatScan): Promise<{ status: number; body: string }>;
  close(): Promise<void>;
}

const ERRMSG: Record<number, string> = {
  40001: 'invalid credential, access_token is invalid or not latest',
  40002: 'invalid grant_type',
  40003: 'invalid openid',
  40013: 'invalid appid',
  40053: 'invalid action info',
  40125: 'invalid appsecret',
  42001: 'access_token expired',
  41001: 'access_token missing',
};

export async function startFakeWechatApi(options: FakeWechatApiOptions = {}): Promise<FakeWechatApi> {
  const appId = options.appId ?? 'wxfake0000000000';
  const appSecret = options.appSecret ?? 'fake-app-secret';
  const accountId = options.accountId ?? 'gh_fake00000000';
  const requests: FakeWechatRequest[] = [];
  const qrcodes: FakeWechatQr[] = [];
  const users = new Map<string, { unionid?: string }>();
  const liveTokens = new Set<string>();
  const expiredTokens = new Set<string>();
  let currentToken: string | undefined;
  let tokenRequests = 0;
  let nextQrFailure: { errcode: number; errmsg: string } | undefined;

  function tokenError(token: string | undefined): number {
    if (!token) return 41001;
    if (expiredTokens.has(token)) return 42001;
    return liveTokens.has(token) ? 0 : 40001;
  }

  function route(method: string, path: string, query: Record<string, string>, body: unknown): Record<string, unknown> {
    if (method === 'GET' && path === '/cgi-bin/token') {
      tokenRequests += 1;
      if (query.grant_type !== 'client_credential') return { errcode: 40002 };
      if (query.appid !== appId) return { errcode: 40013 };
      if (query.secret !== appSecret) return { errcode: 40125 };
      currentToken = randomBytes(48).toString('base64url');
      liveTokens.add(currentToken);
      return { access_token: currentToken, expires_in: options.tokenExpiresIn ?? 7200 };
    }
    if (method === 'POST' && path === '/cgi-bin/qrcode/create') {
      const errcode = tokenError(query.access_token);
      if (errcode) return { errcode };
      if (nextQrFailure) {
        const failure = nextQrFailure;
        nextQrFailure = undefined;
        return failure;
      }
      const qr = readQrRequest(body);
      if (!qr) return { errcode: 40053 };
      const issued = {
        ticket: randomBytes(24).toString('base64'),
        url: `http://weixin.qq.com/q/${randomBytes(16).toString('base64url')}`,
        ...qr,
      };
      qrcodes.push(issued);
      return { ticket: issued.ticket, expire_seconds: issued.expireSeconds, url: issued.url };
    }
    if (method === 'GET' && path === '/cgi-bin/user/info') {
      const errcode = tokenError(query.access_token);
      if (errcode) return { errcode };
      const user = users.get(query.openid ?? '');
      if (!user) return { errcode: 40003 };
      return {
        subscribe: 1,
        openid: query.openid,
        language: 'zh_CN',
        ...(user.unionid ? { unionid: user.unionid } : {}),
      };
    }
    return { errcode: 404, errmsg: `fake has no ${method} ${path}` };
  }

  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const query = Object.fromEntries(url.searchParams);
    const method = req.method ?? 'GET';
    const raw = await readBody(req);
    let body: unknown;
    try {
      body = raw ? JSON.parse(raw) : undefined;
    } catch {
      return sendJson(res, { errcode: 47001, errmsg: 'data format error' });
    }
    const result = route(method, url.pathname, query, body);
    const errcode = typeof result.errcode === 'number' ? result.errcode : 0;
    requests.push({ method, path: url.pathname, query, body, errcode });
    sendJson(res, errcode ? { errcode, errmsg: result.errmsg ?? ERRMSG[errcode] ?? 'error' } : result);
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    appId,
    appSecret,
    requests,
    qrcodes,
    get tokenRequests() {
      return tokenRequests;
    },
    expireToken() {
      if (currentToken) expiredTokens.add(currentToken);
    },
    failNextQrcode(errcode, errmsg) {
      nextQrFailure = { errcode, errmsg };
    },
    setUser(openid, user) {
      users.set(openid, user);
    },
    async scan(scan) {
      users.set(scan.openid, { unionid: scan.unionid ?? users.get(scan.openid)?.unionid });
      const ticket =
        qrcodes.findLast((qr) => qr.sceneStr === scan.sceneStr)?.ticket ?? randomBytes(24).toString('base64');
      const xml = eventXml({ ...scan, accountId, ticket });
      const timestamp = String(Math.floor(Date.now() / 1000));
      const nonce = String(randomBytes(4).readUInt32BE());
      const signature = createHash('sha1').update([scan.callbackToken, timestamp, nonce].sort().join('')).digest('hex');
      const target = new URL(scan.callbackUrl);
      for (const [key, value] of Object.entries({ signature, timestamp, nonce, openid: scan.openid })) {
        target.searchParams.set(key, value);
      }
      const response = await fetch(target, { method: 'POST', headers: { 'content-type': 'text/xml' }, body: xml });
      return { status: response.status, body: await response.text() };
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

function readQrRequest(body: unknown): { sceneStr: string; expireSeconds: number } | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const { action_name, action_info, expire_seconds } = body as Record<string, unknown>;
  if (action_name !== 'QR_STR_SCENE' || typeof action_info !== 'object' || action_info === null) return undefined;
  const scene = (action_info as Record<string, unknown>).scene;
  const sceneStr =
    typeof scene === 'object' && scene !== null ? (scene as Record<string, unknown>).scene_str : undefined;
  if (typeof sceneStr !== 'string' || sceneStr.length < 1 || sceneStr.length > 64) return undefined;
  // WeChat defaults to 30 s and caps temporary codes at 30 days.
  const expireSeconds = typeof expire_seconds === 'number' ? Math.min(expire_seconds, 2_592_000) : 30;
  return { sceneStr, expireSeconds };
}

function cdata(value: string): string {
  return `<![CDATA[${value.replaceAll(']]>', ']]]]><![CDATA[>')}]]>`;
}

function eventXml(e: FakeWechatScan & { accountId: string; ticket: string }): string {
  const eventKey = e.event === 'subscribe' ? `qrscene_${e.sceneStr}` : e.sceneStr;
  return [
    '<xml>',
    `<ToUserName>${cdata(e.accountId)}</ToUserName>`,
    `<FromUserName>${cdata(e.openid)}</FromUserName>`,
    `<CreateTime>${Math.floor(Date.now() / 1000)}</CreateTime>`,
    `<MsgType>${cdata('event')}</MsgType>`,
    `<Event>${cdata(e.event)}</Event>`,
    `<EventKey>${cdata(eventKey)}</EventKey>`,
    `<Ticket>${cdata(e.ticket)}</Ticket>`,
    '</xml>',
  ].join('');
}

export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export function sendJson(res: ServerResponse, body: unknown): void {
  res.writeHead(200, { 'content-type': 'application/json; encoding=utf-8' }).end(JSON.stringify(body));
}
