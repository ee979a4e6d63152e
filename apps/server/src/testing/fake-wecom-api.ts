import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { KfSyncedMessage } from '../platform/wecom/kf-api.ts';
import { readBody, sendJson } from './fake-wechat-api.ts';

/**
 * A local stand-in for WeCom customer service's API (qyapi.weixin.qq.com): `gettoken`,
 * `kf/sync_msg` paging through what `receive()` queued, `kf/send_msg`, `kf/customer/batchget` and
 * `kf/account/list`, with WeCom's error codes. Cursors are opaque strings, as WeCom's are.
 *
 * Like WeCom it keeps each session's service state (one per account and customer, `serviceState`):
 * a customer writing starts a session (0, new), a servicer taking it (a `session_status_change`
 * event queued with `receive()`, or `kf/service_state/trans`) or ending it changes it, and
 * `kf/send_msg` is refused with 95018 unless the session is new (0) or with the smart assistant
 * (1). So a test refuses a send the way WeCom does, for its own customer only.
 */

/**
 * Where the test-control endpoints live (for tests in another process than the fake):
 * - `POST /__control/receive` with a JSON array of `KfSyncedMessage`: as `receive(...)`;
 * - `POST /__control/customer` with `{ external_userid, nickname, avatar? }`: as `setCustomer()`;
 * - `POST /__control/account` with `{ open_kfid, name }`: as `setAccount()`;
 * - `POST /__control/media` with `{ media_id, base64, content_type }`: as `addMedia()`;
 * - `GET /__control/sent`: `{ sent }`, as the `sent` list.
 * No control switches failures on for every caller: the fake is shared by a whole browser suite,
 * and a spec that stopped halfway would leave it on for the next. A spec refuses its own sends
 * through its own customer's session (a servicer takes it), as WeCom does.
 */
export const CONTROL_PREFIX = '/__control/';

export interface FakeWecomApi {
  url: string;
  corpId: string;
  secret: string;
  requests: { path: string; body: unknown; errcode: number }[];
  /** What `kf/send_msg` and `kf/send_msg_on_event` accepted, oldest first. */
  sent: Record<string, unknown>[];
  /** `kf/service_state/trans` calls, oldest first. */
  transfers: Record<string, unknown>[];
  /**
   * A session's service state: 0 new, 1 the smart assistant, 2 waiting for a servicer, 3 a
   * servicer has it, 4 ended (or never started: a customer who has not written).
   */
  serviceState(openKfId: string, externalUserId: string): ServiceState;
  /** Media `media/get` answers, by media_id (WeCom keeps a message's media three days). */
  addMedia(mediaId: string, media: { bytes: Buffer; contentType: string; fileName?: string }): void;
  /** The next `kf/send_msg` answers this errcode (e.g. 95018, the session state forbids it). */
  failNextSend(errcode: number): void;
  /** Failure mode: the next `times` sends (every send when omitted) answer `errcode`; null switches it off. */
  failSends(errcode: number | null, times?: number): void;
  /** The next `kf/send_msg_on_event` answers this errcode (e.g. 95007, the code expired or was used). */
  failNextEventSend(errcode: number): void;
  readonly tokenRequests: number;
  /** Queues messages for `sync_msg`, as if customers had just written them. */
  receive(...messages: KfSyncedMessage[]): void;
  /** `sync_msg` pages hold at most this many (WeCom: 1000). */
  setPageSize(size: number): void;
  /** The next `sync_msg` calls answer an empty page that still says has_more, as WeCom may. */
  emptyPagesFirst(count: number): void;
  /** The current token answers 42001 (access_token expired). */
  expireToken(): void;
  setCustomer(customer: { external_userid: string; nickname: string; avatar?: string }): void;
  /** An account `kf/account/list` lists (the corp's customer-service accounts and their names). */
  setAccount(account: { open_kfid: string; name: string }): void;
  close(): Promise<void>;
}

/** WeCom's service states (kf/service_state/get): 0 new, 1 smart assistant, 2 queued, 3 a servicer, 4 ended. */
export type ServiceState = 0 | 1 | 2 | 3 | 4;

/** `kf/send_msg` is allowed only while nobody serves the customer: a new session or the smart assistant's. */
const SENDABLE: ReadonlySet<ServiceState> = new Set([0, 1]);

/**
 * Where `kf/service_state/trans` may move a session from each state: once queued or served it never
 * goes back to the assistant, and an ended one is started again only by the customer writing.
 */
const TRANSITIONS: Record<ServiceState, readonly ServiceState[]> = {
  0: [1, 2, 3, 4],
  1: [1, 2, 3, 4],
  2: [2, 3, 4],
  3: [3, 4],
  4: [],
};

/** What a `session_status_change` event's change_type makes of the session (WeCom's documentation). */
const AFTER_CHANGE: Record<number, ServiceState> = {
  /** A servicer took it from the queue. */
  1: 3,
  /** Passed to another servicer. */
  2: 3,
  /** Ended. */
  3: 4,
  /** A servicer took up an ended session again. */
  4: 3,
};

const ERRMSG: Record<number, string> = {
  40001: 'invalid secret',
  40013: 'invalid corpid',
  40007: 'invalid media_id',
  40014: 'invalid access_token',
  41001: 'access_token missing',
  42001: 'access_token expired',
  44004: 'empty content',
  95000: 'invalid open_kfid',
  95007: 'invalid msg token',
  95009: 'invalid cursor',
  95016: 'invalid service state transition',
  95018: 'send msg not allowed in current session state',
  45009: 'api freq out of limit',
  [-1]: 'system busy',
};

export async function startFakeWecomApi(options: { corpId?: string; secret?: string } = {}): Promise<FakeWecomApi> {
  const corpId = options.corpId ?? 'wwfake0000000000';
  const secret = options.secret ?? 'fake-kf-secret';
  const requests: FakeWecomApi['requests'] = [];
  const sent: Record<string, unknown>[] = [];
  const transfers: Record<string, unknown>[] = [];
  const media = new Map<string, { bytes: Buffer; contentType: string; fileName?: string }>();
  let failSend: number | null = null;
  let failMode: { errcode: number; left: number } | null = null;
  let failEventSend: number | null = null;
  const log: KfSyncedMessage[] = [];
  const customers = new Map<string, { external_userid: string; nickname: string; avatar?: string }>();
  const accounts = new Map<string, { open_kfid: string; name: string }>();
  const sessions = new Map<string, ServiceState>();
  const sessionKey = (openKfId: string, externalUserId: string) => `${openKfId}\n${externalUserId}`;
  const serviceState = (openKfId: string, externalUserId: string): ServiceState =>
    sessions.get(sessionKey(openKfId, externalUserId)) ?? 4;
  /** What a message or event WeCom reports does to its session, as it happens in WeCom. */
  function follow(message: KfSyncedMessage) {
    if (message.msgtype === 'event') {
      const event = (message as { event?: Record<string, unknown> }).event ?? {};
      const openKfId = typeof event.open_kfid === 'string' ? event.open_kfid : message.open_kfid;
      const customer = typeof event.external_userid === 'string' ? event.external_userid : message.external_userid;
      const next = event.event_type === 'session_status_change' ? AFTER_CHANGE[Number(event.change_type)] : undefined;
      if (customer && next !== undefined) sessions.set(sessionKey(openKfId, customer), next);
      return;
    }
    // A customer writing starts a new session unless one is going on.
    if (
      message.origin === 3 &&
      message.external_userid &&
      serviceState(message.open_kfid, message.external_userid) === 4
    ) {
      sessions.set(sessionKey(message.open_kfid, message.external_userid), 0);
    }
  }
  const liveTokens = new Set<string>();
  const expired = new Set<string>();
  let current: string | undefined;
  let tokenRequests = 0;
  let pageSize = 1000;
  let emptyPages = 0;

  const cursorAt = (index: number) => Buffer.from(`c:${index}`).toString('base64url');
  const indexOf = (cursor: string) => {
    const match = /^c:(\d+)$/.exec(Buffer.from(cursor, 'base64url').toString());
    return match ? Number(match[1]) : null;
  };
  const tokenError = (token: string | undefined) =>
    !token ? 41001 : expired.has(token) ? 42001 : liveTokens.has(token) ? 0 : 40014;

  function route(path: string, query: Record<string, string>, body: Record<string, unknown>): Record<string, unknown> {
    if (path === '/cgi-bin/gettoken') {
      tokenRequests += 1;
      if (query.corpid !== corpId) return { errcode: 40013 };
      if (query.corpsecret !== secret) return { errcode: 40001 };
      current = randomBytes(32).toString('base64url');
      liveTokens.add(current);
      return { errcode: 0, errmsg: 'ok', access_token: current, expires_in: 7200 };
    }
    const denied = tokenError(query.access_token);
    if (denied) return { errcode: denied };
    if (path === '/cgi-bin/kf/sync_msg') {
      const from = typeof body.cursor === 'string' ? indexOf(body.cursor) : 0;
      if (from === null) return { errcode: 95009 };
      if (emptyPages > 0) {
        emptyPages -= 1;
        return { errcode: 0, errmsg: 'ok', next_cursor: cursorAt(from), has_more: 1, msg_list: [] };
      }
      const limit = Math.min(typeof body.limit === 'number' ? body.limit : 1000, pageSize);
      const mine = log.filter((message) => !body.open_kfid || message.open_kfid === body.open_kfid);
      const page = mine.slice(from, from + limit);
      const next = from + page.length;
      return {
        errcode: 0,
        errmsg: 'ok',
        next_cursor: cursorAt(next),
        has_more: next < mine.length ? 1 : 0,
        msg_list: page,
      };
    }
    if (path === '/cgi-bin/kf/send_msg') {
      if (failSend !== null) {
        const errcode = failSend;
        failSend = null;
        return { errcode };
      }
      if (failMode && failMode.left > 0) {
        failMode.left -= 1;
        return { errcode: failMode.errcode };
      }
      if (typeof body.open_kfid !== 'string' || !body.open_kfid) return { errcode: 95000 };
      const content = (body.text as { content?: unknown } | undefined)?.content;
      if (body.msgtype === 'text' && (typeof content !== 'string' || !content)) return { errcode: 44004 };
      if (!SENDABLE.has(serviceState(body.open_kfid, String(body.touser ?? '')))) return { errcode: 95018 };
      sent.push(body);
      return {
        errcode: 0,
        errmsg: 'ok',
        msgid: typeof body.msgid === 'string' ? body.msgid : randomBytes(8).toString('hex'),
      };
    }
    if (path === '/cgi-bin/kf/send_msg_on_event') {
      if (typeof body.code !== 'string' || !body.code) return { errcode: 95007 };
      if (failEventSend !== null) {
        const errcode = failEventSend;
        failEventSend = null;
        return { errcode };
      }
      // msgmenu: a list of 1 to 10 items of type click, view or miniprogram (WeCom's limits).
      const menu = body.msgtype === 'msgmenu' ? (body.msgmenu as { list?: unknown } | undefined) : undefined;
      if (body.msgtype === 'msgmenu' && !(Array.isArray(menu?.list) && menu.list.length >= 1 && menu.list.length <= 10))
        return { errcode: 40058, errmsg: 'invalid msgmenu list' };
      sent.push(body);
      return {
        errcode: 0,
        errmsg: 'ok',
        msgid: typeof body.msgid === 'string' ? body.msgid : randomBytes(8).toString('hex'),
      };
    }
    if (path === '/cgi-bin/kf/service_state/trans') {
      if (typeof body.open_kfid !== 'string' || typeof body.external_userid !== 'string') return { errcode: 95000 };
      const from = serviceState(body.open_kfid, body.external_userid);
      const to = Number(body.service_state);
      if (!TRANSITIONS[from].includes(to as ServiceState)) return { errcode: 95016 };
      if (to === 3 && typeof body.servicer_userid !== 'string') return { errcode: 95016 };
      transfers.push(body);
      sessions.set(sessionKey(body.open_kfid, body.external_userid), to as ServiceState);
      // Leaving the assistant for the queue, a servicer or the end gives a code for one message (send_msg_on_event).
      const msgCode = (from === 0 || from === 1) && to >= 2 ? randomBytes(12).toString('hex') : '';
      return { errcode: 0, errmsg: 'ok', msg_code: msgCode };
    }
    if (path === '/cgi-bin/kf/customer/batchget') {
      const ids = Array.isArray(body.external_userid_list) ? (body.external_userid_list as string[]) : [];
      if (ids.length === 0 || ids.length > 100) return { errcode: 40058, errmsg: 'invalid external_userid_list' };
      return {
        errcode: 0,
        errmsg: 'ok',
        customer_list: ids.flatMap((id) => {
          const customer = customers.get(id);
          return customer ? [{ avatar: '', gender: 0, unionid: '', ...customer }] : [];
        }),
        invalid_external_userid: ids.filter((id) => !customers.has(id)),
      };
    }
    if (path === '/cgi-bin/kf/account/list') {
      const offset = Number(body.offset ?? 0);
      const limit = Number(body.limit ?? 100);
      if (!(limit >= 1 && limit <= 100)) return { errcode: 40058, errmsg: 'invalid limit' };
      const page = [...accounts.values()].slice(offset, offset + limit);
      return { errcode: 0, errmsg: 'ok', account_list: page.map((account) => ({ avatar: '', ...account })) };
    }
    return { errcode: 404, errmsg: `fake has no ${path}` };
  }

  const receive: FakeWecomApi['receive'] = (...messages) => {
    log.push(...messages);
    for (const message of messages) follow(message);
  };
  const setCustomer: FakeWecomApi['setCustomer'] = (customer) => void customers.set(customer.external_userid, customer);
  const setAccount: FakeWecomApi['setAccount'] = (account) => void accounts.set(account.open_kfid, account);

  /**
   * Test control over HTTP, for tests in another process than the fake (the browser tests, whose
   * product is started by their global setup): the same as `receive()`, `setCustomer()`,
   * `setAccount()`, `addMedia()` and `sent`. Not WeCom's API, so not recorded in `requests`.
   */
  async function control(path: string, req: IncomingMessage, res: ServerResponse) {
    if (req.method === 'GET' && path === `${CONTROL_PREFIX}sent`) return sendJson(res, { sent });
    if (req.method !== 'POST') return sendJson(res, { errcode: 404, errmsg: `fake has no ${req.method} ${path}` });
    let body: unknown;
    try {
      body = JSON.parse(await readBody(req));
    } catch {
      return sendJson(res, { errcode: 47001, errmsg: 'data format error' });
    }
    if (path === `${CONTROL_PREFIX}receive` && Array.isArray(body)) {
      receive(...(body as KfSyncedMessage[]));
      return sendJson(res, { errcode: 0, errmsg: 'ok' });
    }
    if (path === `${CONTROL_PREFIX}customer` && typeof body === 'object' && body !== null) {
      setCustomer(body as Parameters<FakeWecomApi['setCustomer']>[0]);
      return sendJson(res, { errcode: 0, errmsg: 'ok' });
    }
    if (path === `${CONTROL_PREFIX}media` && typeof body === 'object' && body !== null) {
      const { media_id, base64, content_type } = body as Record<string, string>;
      media.set(media_id, { bytes: Buffer.from(base64, 'base64'), contentType: content_type });
      return sendJson(res, { errcode: 0, errmsg: 'ok' });
    }
    if (path === `${CONTROL_PREFIX}account` && typeof body === 'object' && body !== null) {
      setAccount(body as Parameters<FakeWecomApi['setAccount']>[0]);
      return sendJson(res, { errcode: 0, errmsg: 'ok' });
    }
    return sendJson(res, { errcode: 404, errmsg: `fake has no ${path}` });
  }

  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    if (url.pathname.startsWith(CONTROL_PREFIX)) return control(url.pathname, req, res);
    if (url.pathname === '/cgi-bin/media/get') {
      const denied = tokenError(url.searchParams.get('access_token') ?? undefined);
      const found = media.get(url.searchParams.get('media_id') ?? '');
      const errcode = denied || (found ? 0 : 40007);
      requests.push({ path: url.pathname, body: {}, errcode });
      if (!found || errcode) return sendJson(res, { errcode, errmsg: ERRMSG[errcode] ?? 'error' });
      res.writeHead(200, {
        'content-type': found.contentType,
        'content-length': String(found.bytes.length),
        ...(found.fileName ? { 'content-disposition': `attachment; filename="${found.fileName}"` } : {}),
      });
      return res.end(found.bytes);
    }
    const raw = await readBody(req);
    let body: Record<string, unknown> = {};
    try {
      body = raw ? JSON.parse(raw) : {};
    } catch {
      return sendJson(res, { errcode: 47001, errmsg: 'data format error' });
    }
    const result = route(url.pathname, Object.fromEntries(url.searchParams), body);
    const errcode = typeof result.errcode === 'number' ? result.errcode : 0;
    requests.push({ path: url.pathname, body, errcode });
    sendJson(res, errcode ? { errcode, errmsg: result.errmsg ?? ERRMSG[errcode] ?? 'error' } : result);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    corpId,
    secret,
    requests,
    sent,
    transfers,
    serviceState,
    addMedia(mediaId, entry) {
      media.set(mediaId, entry);
    },
    failNextSend(errcode) {
      failSend = errcode;
    },
    failSends(errcode, times) {
      failMode = errcode === null ? null : { errcode, left: times ?? Number.POSITIVE_INFINITY };
    },
    failNextEventSend(errcode) {
      failEventSend = errcode;
    },
    get tokenRequests() {
      return tokenRequests;
    },
    receive,
    setPageSize(size) {
      pageSize = size;
    },
    emptyPagesFirst(count) {
      emptyPages = count;
    },
    expireToken() {
      if (current) expired.add(current);
    },
    setCustomer,
    setAccount,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
