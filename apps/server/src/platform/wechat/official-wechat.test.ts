import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeWechatApi, startFakeWechatApi } from '../../testing/fake-wechat-api.ts';
import { createOfficialWechatProvider, type OfficialWechatOptions } from './official-wechat.ts';
import { WechatApiError } from './wechat-provider.ts';

describe('createOfficialWechatProvider against the fake WeChat API', () => {
  let fake: FakeWechatApi;
  beforeEach(async () => {
    fake = await startFakeWechatApi();
  });
  afterEach(async () => {
    await fake.close();
  });

  const provider = (overrides: Partial<OfficialWechatOptions> = {}) =>
    createOfficialWechatProvider({ apiBase: fake.url, appId: fake.appId, appSecret: fake.appSecret, ...overrides });

  it('creates a temporary string-scene QR and returns its url', async () => {
    const wechat = provider();
    expect(wechat.name).toBe('official');
    const qr = await wechat.createQr('login_abc', 300);
    expect(qr).toEqual({ url: fake.qrcodes[0].url });
    expect(qr.url).toMatch(/^http:\/\/weixin\.qq\.com\/q\//);
    const create = fake.requests.find((r) => r.path === '/cgi-bin/qrcode/create');
    expect(create?.body).toEqual({
      expire_seconds: 300,
      action_name: 'QR_STR_SCENE',
      action_info: { scene: { scene_str: 'login_abc' } },
    });
  });

  it('caches the access token across calls', async () => {
    const wechat = provider();
    await wechat.createQr('a', 300);
    await wechat.createQr('b', 300);
    await wechat.fetchUser('o1').catch(() => undefined);
    expect(fake.tokenRequests).toBe(1);
  });

  it('refreshes the token five minutes before it expires', async () => {
    let clock = 1_000_000;
    const wechat = provider({ now: () => clock });
    await wechat.createQr('a', 300);
    clock += (7200 - 300) * 1000 - 1;
    await wechat.createQr('b', 300);
    expect(fake.tokenRequests).toBe(1);
    clock += 1;
    await wechat.createQr('c', 300);
    expect(fake.tokenRequests).toBe(2);
  });

  it('shares one token request among parallel callers', async () => {
    const wechat = provider();
    const results = await Promise.all(['a', 'b', 'c', 'd', 'e'].map((scene) => wechat.createQr(scene, 300)));
    expect(new Set(results.map((r) => r.url)).size).toBe(5);
    expect(fake.tokenRequests).toBe(1);
  });

  it('drops an expired token (42001) and retries once with a fresh one', async () => {
    const wechat = provider();
    await wechat.createQr('a', 300);
    fake.expireToken();
    const qr = await wechat.createQr('b', 300);
    expect(qr.url).toBe(fake.qrcodes[1].url);
    expect(fake.tokenRequests).toBe(2);
    expect(fake.requests.map((r) => r.errcode)).toEqual([0, 0, 42001, 0, 0]);
  });

  it('retries a stale token only once', async () => {
    let tokenCalls = 0;
    let qrCalls = 0;
    const stale: typeof fetch = async (input) => {
      const isToken = String(input).includes('/cgi-bin/token');
      if (isToken) tokenCalls += 1;
      else qrCalls += 1;
      const body = isToken
        ? { access_token: `t${tokenCalls}`, expires_in: 7200 }
        : { errcode: 40001, errmsg: 'invalid credential' };
      return Response.json(body);
    };
    await expect(provider({ fetch: stale }).createQr('a', 300)).rejects.toMatchObject({ errcode: 40001 });
    expect({ tokenCalls, qrCalls }).toEqual({ tokenCalls: 2, qrCalls: 2 });
  });

  it('raises qrcode/create errors as WechatApiError without retrying', async () => {
    const wechat = provider();
    fake.failNextQrcode(45009, 'reach max api daily quota limit');
    const error = await wechat.createQr('a', 300).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WechatApiError);
    expect(error).toMatchObject({ errcode: 45009, message: 'reach max api daily quota limit' });
    expect(fake.requests.filter((r) => r.path === '/cgi-bin/qrcode/create')).toHaveLength(1);
  });

  it('reports wrong app credentials with WeChat codes', async () => {
    await expect(provider({ appSecret: 'wrong' }).createQr('a', 300)).rejects.toMatchObject({ errcode: 40125 });
    await expect(provider({ appId: 'wxwrong' }).createQr('a', 300)).rejects.toMatchObject({ errcode: 40013 });
  });

  it('does not cache a failed token request', async () => {
    const wechat = provider({ appSecret: 'wrong' });
    await expect(wechat.createQr('a', 300)).rejects.toBeInstanceOf(WechatApiError);
    await expect(wechat.createQr('a', 300)).rejects.toBeInstanceOf(WechatApiError);
    expect(fake.tokenRequests).toBe(2);
  });

  it('fetches the unionid of a user when WeChat has one', async () => {
    fake.setUser('o-with', { unionid: 'u-123' });
    fake.setUser('o-without', {});
    const wechat = provider();
    await expect(wechat.fetchUser('o-with')).resolves.toEqual({ unionid: 'u-123' });
    await expect(wechat.fetchUser('o-without')).resolves.toEqual({});
    await expect(wechat.fetchUser('o-unknown')).rejects.toMatchObject({ errcode: 40003 });
    const info = fake.requests.find((r) => r.path === '/cgi-bin/user/info');
    expect(info?.query).toMatchObject({ openid: 'o-with', lang: 'zh_CN' });
  });

  it('times out a silent API and keeps secrets out of the error', async () => {
    const silent: typeof fetch = (_input, init) =>
      new Promise((_resolve, reject) => {
        init?.signal?.addEventListener('abort', () => reject(init.signal?.reason));
      });
    const error = await provider({ fetch: silent, timeoutMs: 100 })
      .createQr('a', 300)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WechatApiError);
    expect((error as Error).message).toMatch(/did not answer within 100 ms/);
    expect((error as Error).message).not.toContain(fake.appSecret);
  });

  it('reports an unreachable API', async () => {
    const gone = await startFakeWechatApi();
    await gone.close();
    const error = await provider({ apiBase: gone.url })
      .createQr('a', 300)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WechatApiError);
    expect((error as Error).message).toMatch(/unreachable/);
  });
});
