import { ERRORS, MCP_PATH, MEDIA_FILE_PATH, MEDIA_THUMB_PATH, MEDIA_UPLOAD_PATH } from '@athena/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAT_MEDIA_PATH } from '../modules/chat-history/media-url.ts';
import { FILES_PATH } from '../platform/storage.ts';
import { createTestApp, type TestApp } from '../testing/test-app.ts';
import { contractRoutes } from './contract-routes.ts';

const LOGIN_EXPIRED = ERRORS.LOGIN_EXPIRED.code;
/** Registered only with the official WeChat provider, which the test app does not use. */
const WECHAT_CALLBACK = '/accountv2/wechat/callback';

/** Calls the contract says need no session: sign-in, share pages, the APIs opened by their own keys. */
const PUBLIC_IN_THE_CONTRACT = new Set(
  contractRoutes()
    .filter((route) => route.auth !== true)
    .map((route) => route.path),
);

/**
 * Routes outside the contract that are public by design, and why. A route is matched by its
 * registered URL, or by a prefix ending in `/`.
 */
const PUBLIC_OUTSIDE_THE_CONTRACT: Record<string, string> = {
  '/hooks/': 'payment notices, chat ingest, WeCom callbacks and workflow webhooks: signed by their senders',
  '/v1/': 'the OpenAI-compatible and workflow APIs: their own API keys',
  [`${MCP_PATH}`]: 'the MCP endpoint: its own tokens',
  [`${MCP_PATH}/`]: 'the MCP endpoint: its own tokens',
  [WECHAT_CALLBACK]: "WeChat's own server, with its signature",
  '/api/openapi.json': 'the API description',
  [FILES_PATH]: 'stored files by signed URL',
  [MEDIA_FILE_PATH]: 'media files by signed URL',
  [MEDIA_THUMB_PATH]: 'media thumbnails by signed URL',
  [CHAT_MEDIA_PATH]: 'chat media by signed URL',
};

const isPublic = (method: string, url: string) =>
  PUBLIC_IN_THE_CONTRACT.has(url) ||
  Object.keys(PUBLIC_OUTSIDE_THE_CONTRACT).some((key) => (key.endsWith('/') ? url.startsWith(key) : url === key)) ||
  // The tus protocol's capability question, asked before any upload (docs/media.md).
  (method === 'OPTIONS' && url.startsWith(MEDIA_UPLOAD_PATH));

/** Bodies no route accepts: the wrong shape, broken JSON, a value for every common field name. */
const GARBAGE: { name: string; contentType?: string; payload?: string }[] = [
  { name: 'a JSON array', contentType: 'application/json', payload: '[1,"x",null]' },
  {
    name: 'wrong field types',
    contentType: 'application/json',
    payload: JSON.stringify({ id: 1, ids: 'x', amount: 150.5, name: null, phone: 5, code: [], page: -1 }),
  },
  { name: 'broken JSON', contentType: 'application/json', payload: '{"id": ' },
  { name: 'no body' },
  { name: 'text', contentType: 'text/plain', payload: 'garbage' },
];

describe('the session is checked first', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  it('knows the route table and the public routes in it', () => {
    const urls = t.app.routeTable.map((route) => route.url);
    // The walk below is only as good as the table it walks: it must hold the hidden routes too.
    expect(urls).toContain('/v1/workflows/run');
    expect(urls).toContain('/accountv2/user/info');
    for (const key of Object.keys(PUBLIC_OUTSIDE_THE_CONTRACT).filter((key) => key !== WECHAT_CALLBACK)) {
      expect(
        urls.some((url) => (key.endsWith('/') ? url.startsWith(key) : url === key)),
        `${key} is listed as public but no route has it`,
      ).toBe(true);
    }
  });

  it('answers every route that needs a session, whatever the body, with not-signed-in when signed out', async () => {
    // One line per route: the first answer that was not the not-signed-in error.
    const wrong = new Map<string, string>();
    let tried = 0;
    for (const route of t.app.routeTable) {
      for (const method of route.methods) {
        if (method === 'HEAD' || isPublic(method, route.url)) continue;
        const url = route.url.replace(/:\w+/g, 'x').replace(/\*$/, 'x');
        for (const token of [undefined, 'not-a-session']) {
          for (const body of GARBAGE) {
            if (method === 'GET' && body.payload !== undefined) continue;
            tried++;
            const res = await t.app.inject({
              method: method as 'POST',
              url,
              headers: {
                ...(body.contentType ? { 'content-type': body.contentType } : {}),
                ...(token ? { token } : {}),
                'space-id': '00000000-0000-4000-8000-000000000000',
              },
              payload: body.payload,
            });
            let code: unknown;
            try {
              code = (res.json() as { code?: unknown }).code;
            } catch {
              code = undefined;
            }
            const name = `${method} ${route.url}`;
            if (code !== LOGIN_EXPIRED && !wrong.has(name)) {
              wrong.set(name, `${body.name}, token ${token ?? 'none'}: ${res.statusCode} ${res.body.slice(0, 100)}`);
            }
          }
        }
      }
    }
    expect(tried).toBeGreaterThan(500);
    expect(Object.fromEntries(wrong)).toEqual({});
  }, 120_000);
});
