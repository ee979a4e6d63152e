import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { authRoutes, ERRORS, platformRoutes, spaceRoutes } from '@athena/contract';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type ApiClientDeps, ApiError, createApiClient } from './api-client.ts';
import { STORAGE_KEYS } from './storage-keys.ts';

/** What the fake server answers for a path: status, raw body, optional delay. */
interface Reply {
  status?: number;
  body: string;
  delayMs?: number;
}

const replies = new Map<string, Reply>();
const seen: { path: string; headers: IncomingHttpHeaders; body: string }[] = [];
let server: Server;
let baseUrl: string;

const json = (value: unknown, status = 200): Reply => ({ status, body: JSON.stringify(value) });

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => {
      body += chunk.toString();
    });
    req.on('end', () => {
      const path = req.url ?? '/';
      seen.push({ path, headers: req.headers, body });
      const reply = replies.get(path) ?? json({ code: 40404, msg: 'no such route' }, 404);
      const send = () => {
        if (res.destroyed) return;
        res.writeHead(reply.status ?? 200, { 'content-type': 'application/json' });
        res.end(reply.body);
      };
      if (reply.delayMs) setTimeout(send, reply.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** An in-memory Storage with the methods the client uses. */
function memoryStorage(initial: Record<string, string> = {}) {
  const map = new Map(Object.entries(initial));
  return {
    map,
    getItem: (key: string) => map.get(key) ?? null,
    setItem: (key: string, value: string) => void map.set(key, value),
    removeItem: (key: string) => void map.delete(key),
    clear: () => map.clear(),
  };
}

function setup(overrides: Partial<ApiClientDeps> = {}, initial: Record<string, string> = {}) {
  const storage = memoryStorage(initial);
  const assigned: string[] = [];
  const notices: string[] = [];
  const client = createApiClient({
    fetch,
    storage,
    assignLocation: (url) => assigned.push(url),
    notify: (message) => notices.push(message),
    getLanguage: () => 'en',
    getTimezone: () => 'Asia/Shanghai',
    baseUrl,
    ...overrides,
  });
  return { client, storage, assigned, notices };
}

/** Any contract route with the path swapped: the client only uses `path`. */
const probe = { ...authRoutes.userInfo, path: '/api/test/probe' };

const rejection = async (promise: Promise<unknown>): Promise<ApiError> => {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return error as ApiError;
  }
  throw new Error('expected the call to reject');
};

beforeEach(() => {
  replies.clear();
  seen.length = 0;
});

describe('api client: success rule (success true, code or errcode 0, or no code)', () => {
  it.each([
    ['code 0', { code: 0, msg: 'ok', data: { a: 1 } }, { a: 1 }],
    ['errcode 0', { errcode: 0, errmsg: 'ok', data: { b: 2 } }, { b: 2 }],
    ['success true even with a code', { success: true, code: 7, data: 'yes' }, 'yes'],
    ['no code at all', { hello: 'world' }, { hello: 'world' }],
    ['no code but data', { data: [1, 2] }, [1, 2]],
  ])('%s resolves', async (_name, body, expected) => {
    replies.set(probe.path, json(body));
    const { client } = setup();
    await expect(client.api(probe, {})).resolves.toEqual(expected);
  });

  it('resolves boolean data (check_wechat_url)', async () => {
    replies.set(authRoutes.checkWechatUrl.path, json({ code: 0, msg: 'ok', data: false }));
    const { client } = setup();
    await expect(client.api(authRoutes.checkWechatUrl, { code: 'abc' })).resolves.toBe(false);
  });
});

describe('api client: headers and body', () => {
  it('POSTs JSON with token, space-id, scene-id, language and timezone', async () => {
    replies.set(authRoutes.bySms.path, json({ code: 0, msg: 'ok', data: { login_token: 't' } }));
    const { client } = setup(
      { getLanguage: () => 'zh-TW' },
      { [STORAGE_KEYS.token]: 'tok-1', [STORAGE_KEYS.spaceId]: 'space-9', [STORAGE_KEYS.sceneId]: '19' },
    );
    await client.api(authRoutes.bySms, { phone: '13800000000', code: '246810' });
    const [request] = seen;
    expect(request.path).toBe('/accountv2/login/by_sms');
    expect(JSON.parse(request.body)).toEqual({ phone: '13800000000', code: '246810' });
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers.token).toBe('tok-1');
    expect(request.headers['space-id']).toBe('space-9');
    expect(request.headers['scene-id']).toBe('19');
    expect(request.headers.language).toBe('zh-TW');
    expect(request.headers.timezone).toBe('Asia/Shanghai');
  });

  it('defaults scene-id to 5, omits token and space-id when absent, and sends {} for no body', async () => {
    replies.set(authRoutes.userInfo.path, json({ code: 0, msg: 'ok', data: null }));
    const { client } = setup();
    await client.api(authRoutes.userInfo);
    const [request] = seen;
    expect(request.headers['scene-id']).toBe('5');
    expect(request.headers.token).toBeUndefined();
    expect(request.headers['space-id']).toBeUndefined();
    expect(request.body).toBe('{}');
  });
});

describe('api client: failures', () => {
  it('rejects a business failure with the server msg and code', async () => {
    replies.set(probe.path, json({ code: 40004, msg: 'The verification code is incorrect.' }));
    const { client, assigned, storage } = setup({}, { [STORAGE_KEYS.token]: 't' });
    const error = await rejection(client.api(probe));
    expect(error.message).toBe('The verification code is incorrect.');
    expect(error.code).toBe(40004);
    expect(error.kind).toBe('business');
    expect(assigned).toEqual([]);
    expect(storage.map.get(STORAGE_KEYS.token)).toBe('t');
  });

  it('carries how long to wait when a limit refused the call (the send-code button counts it down)', async () => {
    replies.set(authRoutes.sendSms.path, json({ code: 40011, msg: 'wait', retry_after: 240 }));
    replies.set(probe.path, json({ code: 42900, msg: 'Too many requests.', retry_after: 30 }, 429));
    const { client } = setup();
    const throttled = await rejection(client.api(authRoutes.sendSms, { phone: '13900000001', type: 'login' }));
    expect([throttled.code, throttled.retryAfter]).toEqual([40011, 240]);
    const limited = await rejection(client.api(probe));
    expect([limited.code, limited.kind, limited.retryAfter]).toEqual([42900, 'business', 30]);
    replies.set(probe.path, json({ code: 40004, msg: 'wrong' }));
    expect((await rejection(client.api(probe))).retryAfter).toBeUndefined();
  });

  it('uses errmsg / errcode when that is what the server speaks', async () => {
    replies.set(probe.path, json({ errcode: 45009, errmsg: 'quota' }));
    const error = await rejection(setup().client.api(probe));
    expect([error.code, error.message]).toEqual([45009, 'quota']);
  });

  it("falls back to the localised 'System error' without msg", async () => {
    replies.set(probe.path, json({ code: 50000 }));
    expect((await rejection(setup().client.api(probe))).message).toBe('System error');
    const zh = setup({ getLanguage: () => 'zh-CN' });
    expect((await rejection(zh.client.api(probe))).message).toBe(ERRORS.SYSTEM_ERROR.msg['zh-CN']);
  });

  it('16023 clears the stored space (only) and reloads to /', async () => {
    replies.set(spaceRoutes.get.path, json({ code: 16023, msg: 'gone' }));
    const { client, storage, assigned } = setup({}, { [STORAGE_KEYS.token]: 't', [STORAGE_KEYS.spaceId]: 's1' });
    const error = await rejection(client.api(spaceRoutes.get, { id: 's1' }));
    expect(error.code).toBe(16023);
    expect(error.handled).toBe(true);
    expect(storage.map.has(STORAGE_KEYS.spaceId)).toBe(false);
    expect(storage.map.get(STORAGE_KEYS.token)).toBe('t');
    expect(assigned).toEqual(['/']);
  });

  it.each([10001, -2, -4, 'LoginInvalid'])('%s clears all storage, goes to / and says login expired', async (code) => {
    replies.set(authRoutes.userInfo.path, json({ code, msg: 'whatever the server said' }));
    const initial = { [STORAGE_KEYS.token]: 't', [STORAGE_KEYS.spaceId]: 's', other: 'x' };
    const { client, storage, assigned, notices } = setup({}, initial);
    const error = await rejection(client.api(authRoutes.userInfo));
    expect(storage.map.size).toBe(0);
    expect(assigned).toEqual(['/']);
    expect(notices).toEqual(['Login has expired, please log in again.']);
    expect(error.message).toBe('Login has expired, please log in again.');
    expect(error.handled).toBe(true);
  });

  it('localises the login-expired message', async () => {
    replies.set(authRoutes.userInfo.path, json({ code: 10001, msg: 'x' }));
    const { client, notices } = setup({ getLanguage: () => 'zh-TW' });
    await rejection(client.api(authRoutes.userInfo));
    expect(notices).toEqual([ERRORS.LOGIN_EXPIRED.msg['zh-TW']]);
  });

  it('HTTP 500 without an envelope rejects without a message', async () => {
    replies.set(probe.path, { status: 500, body: '<html>Internal Server Error</html>' });
    const error = await rejection(setup().client.api(probe));
    expect(error.message).toBe('');
    expect(error.kind).toBe('http');
    expect(error.status).toBe(500);
  });

  it('HTTP 404 with an envelope still reports the msg', async () => {
    replies.set(probe.path, json({ code: 40404, msg: 'No such API endpoint.' }, 404));
    const error = await rejection(setup().client.api(probe));
    expect([error.code, error.message]).toEqual([40404, 'No such API endpoint.']);
  });

  it('a network error rejects without a message', async () => {
    const { client } = setup({ baseUrl: 'http://127.0.0.1:1' });
    const error = await rejection(client.api(probe));
    expect([error.kind, error.message]).toEqual(['network', '']);
  });

  it('times out (injected short timeout) and rejects without a message', async () => {
    replies.set(probe.path, { ...json({ code: 0, data: 1 }), delayMs: 1_000 });
    const started = Date.now();
    const error = await rejection(setup({ timeoutMs: 100 }).client.api(probe));
    expect(error.kind).toBe('timeout');
    expect(error.message).toBe('');
    expect(Date.now() - started).toBeLessThan(900);
  });
});

describe('sceneApi (agent API base in the agent scene, else the scene host)', () => {
  const scenes = {
    code: 0,
    msg: 'ok',
    data: {
      default_scene_id: 5,
      items: [
        { label: 'WeCom kf', type: 5, value: 'quntool', quntool_host: '' },
        { label: 'Xhs', type: 19, value: 'xhsQun', quntool_host: 'HOST' },
      ],
    },
  };
  const info = (agentBase: string) => ({
    code: 0,
    msg: 'ok',
    data: {
      version: '0',
      wechat_provider: 'dev',
      sms_provider: 'dev',
      sms_cooldown_seconds: 15,
      wechat_poll_interval_ms: 2000,
      agent_api_base: agentBase,
    },
  });

  const run = async (sceneId: string | undefined, agentBase: string) => {
    replies.set(platformRoutes.sceneList.path, {
      body: JSON.stringify(scenes).replace('HOST', `${baseUrl}/xhs`),
    });
    replies.set(platformRoutes.info.path, json(info(agentBase)));
    for (const path of ['/chat/list', '/agent/chat/list', '/xhs/chat/list']) {
      replies.set(path, json({ code: 0, msg: 'ok', data: path }));
    }
    const initial: Record<string, string> = sceneId ? { [STORAGE_KEYS.sceneId]: sceneId } : {};
    return setup({}, initial).client.sceneApi('/chat/list', { page: 1 });
  };

  it('uses the agent API base for scene 10010', async () => {
    await expect(run('10010', `${baseUrl}/agent/`)).resolves.toBe('/agent/chat/list');
  });
  it("uses the scene's quntool_host otherwise", async () => {
    await expect(run('19', '')).resolves.toBe('/xhs/chat/list');
  });
  it('defaults to scene 5, whose empty host means this server', async () => {
    await expect(run(undefined, `${baseUrl}/agent`)).resolves.toBe('/chat/list');
  });
});
