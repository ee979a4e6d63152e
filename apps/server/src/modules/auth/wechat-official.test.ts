import { authRoutes } from '@athena/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOfficialWechatProvider } from '../../platform/wechat/official-wechat.ts';
import { type FakeWechatApi, startFakeWechatApi } from '../../testing/fake-wechat-api.ts';
import { createTestApp, type TestApp } from '../../testing/test-app.ts';
import { WECHAT_CALLBACK_PATH } from './wechat-callback.routes.ts';

const CALLBACK_TOKEN = 'callback-token-for-tests';

/** The official provider end to end: our server ↔ a local fake of WeChat's API and event push. */
describe('WeChat sign-in with the official provider', () => {
  let fake: FakeWechatApi;
  let t: TestApp;
  let base: string;

  beforeAll(async () => {
    fake = await startFakeWechatApi();
    const official = createOfficialWechatProvider({ apiBase: fake.url, appId: fake.appId, appSecret: fake.appSecret });
    t = await createTestApp({
      wechat: official,
      wechatUser: official.fetchUser,
      env: {
        WECHAT_PROVIDER: 'official',
        WECHAT_APP_ID: fake.appId,
        WECHAT_APP_SECRET: fake.appSecret,
        WECHAT_CALLBACK_TOKEN: CALLBACK_TOKEN,
      },
    });
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  it('turns a pushed SCAN event into a sign-in, caching the access token', async () => {
    const first = (await t.call(authRoutes.getWechatUrl)).body.data;
    const second = (await t.call(authRoutes.getWechatUrl)).body.data;
    expect(first.url).toMatch(/^http:\/\/weixin\.qq\.com\/q\//);
    expect(fake.tokenRequests).toBe(1);
    expect(second.code).not.toBe(first.code);

    // The dev simulation does not exist with the official provider.
    expect((await t.call('/accountv2/login/dev_wechat_scan', { code: first.code })).status).toBe(404);

    fake.setUser('openid-1', { unionid: 'union-1' });
    const pushed = await fake.scan({
      callbackUrl: `${base}${WECHAT_CALLBACK_PATH}`,
      callbackToken: CALLBACK_TOKEN,
      sceneStr: first.code,
      openid: 'openid-1',
      event: 'subscribe',
    });
    expect(pushed).toMatchObject({ status: 200, body: 'success' });
    expect((await t.call('/accountv2/login/check_wechat_url', { code: first.code })).body.data).toBe(true);
    const exchange = await t.call(authRoutes.byWechatCode, {
      code: first.code,
    });
    expect(exchange.body.data.need_bind_phone).toBe(true);
  });

  it('ignores pushes with a bad signature', async () => {
    const qr = (await t.call(authRoutes.getWechatUrl)).body.data;
    const pushed = await fake.scan({
      callbackUrl: `${base}${WECHAT_CALLBACK_PATH}`,
      callbackToken: 'wrong-token',
      sceneStr: qr.code,
      openid: 'openid-2',
      event: 'SCAN',
    });
    expect(pushed.status).toBe(403);
    expect((await t.call('/accountv2/login/check_wechat_url', { code: qr.code })).body.data).toBe(false);
  });

  it('answers the URL verification handshake only when signed', async () => {
    const bad = await fetch(`${base}${WECHAT_CALLBACK_PATH}?signature=x&timestamp=1&nonce=2&echostr=hello`);
    expect(bad.status).toBe(403);
  });

  it('refuses a replayed push', async () => {
    const qr = (await t.call(authRoutes.getWechatUrl)).body.data;
    const stale = Math.floor(Date.now() / 1000) - 3600;
    const { createHash } = await import('node:crypto');
    const nonce = 'n1';
    const signature = createHash('sha1')
      .update([CALLBACK_TOKEN, String(stale), nonce].sort().join(''))
      .digest('hex');
    const xml = `<xml><FromUserName><![CDATA[o3]]></FromUserName><MsgType><![CDATA[event]]></MsgType><Event><![CDATA[SCAN]]></Event><EventKey><![CDATA[${qr.code}]]></EventKey></xml>`;
    const res = await fetch(`${base}${WECHAT_CALLBACK_PATH}?signature=${signature}&timestamp=${stale}&nonce=${nonce}`, {
      method: 'POST',
      headers: { 'content-type': 'text/xml' },
      body: xml,
    });
    expect(res.status).toBe(403);
    expect((await t.call('/accountv2/login/check_wechat_url', { code: qr.code })).body.data).toBe(false);
  });
});
