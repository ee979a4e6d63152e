import { authRoutes, type RouteData } from '@athena/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSmsInbox, createTestApp, type TestApp } from '../../testing/test-app.ts';
import { users } from '../auth/auth.schema.ts';

const BIND_QR = '/accountv2/user/wechat/bind_qr';
const BIND = '/accountv2/user/wechat/bind';
const UNBIND = '/accountv2/user/wechat/unbind';
const GET_URL = '/accountv2/login/get_wechat_url';
const CHECK = '/accountv2/login/check_wechat_url';
const BY_CODE = '/accountv2/login/by_wechat_code';
const INFO = '/accountv2/user/info';

type Qr = RouteData<typeof authRoutes.getWechatUrl>;
type Info = RouteData<typeof authRoutes.userInfo>;
type Exchange = RouteData<typeof authRoutes.byWechatCode>;

describe('account: linking WeChat', () => {
  let t: TestApp;
  let clock = Date.now();
  const inbox = createSmsInbox();
  const info = async (token: string) => (await t.call<Info>(INFO, {}, { token })).body.data;
  const signIn = async (phone: string) => {
    clock += 20_000;
    return t.signInBySms(phone);
  };
  const bindQr = async (token: string) => (await t.call<Qr>(BIND_QR, {}, { token })).body.data;
  const scan = async (code: string, openid?: string) =>
    (await t.call(authRoutes.devWechatScan, { code, openid })).body.data.openid;
  /** Signs in with WeChat as `openid`; returns the exchange answer. */
  const wechatSignIn = async (openid: string) => {
    const qr = (await t.call<Qr>(GET_URL)).body.data;
    await scan(qr.code, openid);
    return (await t.call<Exchange>(BY_CODE, { code: qr.code })).body;
  };

  beforeAll(async () => {
    t = await createTestApp({ sms: inbox, now: () => new Date(clock), env: { PUBLIC_URL: 'http://athena.test' } });
  });
  afterAll(() => t.close());

  it('links the WeChat user who scans my bind QR, who can then sign in to my account', async () => {
    const token = await signIn('13200000001');
    const me = await info(token);
    expect(me.has_wechat).toBe(false);

    const qr = await bindQr(token);
    expect(qr.url).toBe(`http://athena.test/dev/wechat-scan/${qr.code}`);
    expect(qr.expires_in).toBe(300);
    expect((await t.call(CHECK, { code: qr.code })).body.data).toBe(false);
    expect((await t.call(BIND, { code: qr.code }, { token })).body.code).toBe(40021);

    const openid = await scan(qr.code);
    expect((await t.call(CHECK, { code: qr.code })).body.data).toBe(true);
    expect((await t.call(BIND, { code: qr.code }, { token })).body).toMatchObject({ code: 0, data: null });
    expect((await info(token)).has_wechat).toBe(true);
    expect((await t.call(BIND, { code: qr.code }, { token })).body.code).toBe(40022);

    const signedIn = await wechatSignIn(openid);
    expect(signedIn.data.need_bind_phone).toBe(false);
    expect((await info(signedIn.data.login_token)).id).toBe(me.id);

    // Binding the same WeChat again is harmless.
    const again = await bindQr(token);
    await scan(again.code, openid);
    expect((await t.call(BIND, { code: again.code }, { token })).body.code).toBe(0);
  });

  it('never signs anyone in with a bind code, and leaves the code usable for its owner', async () => {
    const token = await signIn('13200000010');
    const qr = await bindQr(token);
    await scan(qr.code);
    const res = await t.call(BY_CODE, { code: qr.code }, { language: 'en' });
    expect(res.body).toMatchObject({ code: 40020, msg: 'This QR code has expired. Please refresh it and scan again.' });
    expect((await t.call(BIND, { code: qr.code }, { token })).body.code).toBe(0);
  });

  it("refuses a sign-in code or someone else's bind code, without using it up", async () => {
    const mine = await signIn('13200000020');
    const theirs = await signIn('13200000021');

    const login = (await t.call<Qr>(GET_URL)).body.data;
    const loginOpenid = await scan(login.code);
    expect((await t.call(BIND, { code: login.code }, { token: mine })).body.code).toBe(40020);
    expect((await info(mine)).has_wechat).toBe(false);
    // The person who scanned the sign-in QR still gets their sign-in.
    const exchange = await t.call<Exchange>(BY_CODE, { code: login.code });
    expect(exchange.body).toMatchObject({ code: 0, data: { need_bind_phone: true } });
    expect(loginOpenid).toMatch(/^dev_/);

    const theirQr = await bindQr(theirs);
    await scan(theirQr.code);
    expect((await t.call(BIND, { code: theirQr.code }, { token: mine })).body.code).toBe(40020);
    expect((await info(mine)).has_wechat).toBe(false);
    expect((await t.call(BIND, { code: theirQr.code }, { token: theirs })).body.code).toBe(0);
    expect((await t.call(BIND, { code: 'never-issued' }, { token: mine })).body.code).toBe(40020);
  });

  it('refuses a WeChat already linked to another account, in every language, and changes nothing', async () => {
    const owner = await signIn('13200000030');
    const ownerQr = await bindQr(owner);
    const openid = await scan(ownerQr.code);
    await t.call(BIND, { code: ownerQr.code }, { token: owner });

    const other = await signIn('13200000031');
    for (const [language, msg] of [
      ['zh-CN', '该微信已绑定其他账号。'],
      ['zh-TW', '此微信已綁定其他帳號。'],
      ['en', 'This WeChat account is linked to another account.'],
    ]) {
      const qr = await bindQr(other);
      await scan(qr.code, openid);
      expect((await t.call(BIND, { code: qr.code }, { token: other, language })).body).toMatchObject({
        code: 40052,
        msg,
      });
    }
    expect((await info(other)).has_wechat).toBe(false);
    expect((await info((await wechatSignIn(openid)).data.login_token)).id).toBe((await info(owner)).id);
  });

  it('expires bind QR codes', async () => {
    const token = await signIn('13200000040');
    const qr = await bindQr(token);
    await scan(qr.code);
    clock += 301_000;
    expect((await t.call(BIND, { code: qr.code }, { token })).body.code).toBe(40020);
    expect((await info(token)).has_wechat).toBe(false);
    const unscanned = await bindQr(token);
    clock += 301_000;
    expect((await t.call(CHECK, { code: unscanned.code })).body.code).toBe(40020);
  });

  it('unlinks WeChat while a phone remains; that WeChat then starts over as a new user', async () => {
    const token = await signIn('13200000050');
    const qr = await bindQr(token);
    const openid = await scan(qr.code);
    await t.call(BIND, { code: qr.code }, { token });

    expect((await t.call(UNBIND, {}, { token })).body).toMatchObject({ code: 0, data: null });
    expect((await info(token)).has_wechat).toBe(false);
    expect((await wechatSignIn(openid)).data.need_bind_phone).toBe(true);
    // Unlinking when nothing is linked is a no-op.
    expect((await t.call(UNBIND, {}, { token })).body.code).toBe(0);
  });

  it('refuses to unlink the only way to sign in', async () => {
    // A WeChat sign-up always binds a phone; take it away to make a WeChat-only account.
    const openid = `dev_only_${clock}`;
    const first = await wechatSignIn(openid);
    clock += 20_000;
    await t.call('/accountv2/login/send_sms', { phone: '13200000060', type: 'login' });
    const bound = await t.call(authRoutes.bindPhone, {
      phone: '13200000060',
      code: inbox.last('13200000060'),
      login_token: first.data.login_token,
    });
    const token = bound.body.data.login_token;
    const me = await info(token);
    await t.database.db.update(users).set({ phone: null }).where(eq(users.id, me.id));
    await t.app.platform.bus.publish(`user:${me.id}`);
    expect((await info(token)).phone_masked).toBeNull();

    for (const [language, msg] of [
      ['zh-CN', '账号没有绑定手机号，解绑微信后将无法登录。请先绑定手机号。'],
      ['zh-TW', '帳號沒有綁定手機號碼，解除微信綁定後將無法登入。請先綁定手機號碼。'],
      ['en', 'Your account has no phone number, so unlinking WeChat would lock you out. Add a phone first.'],
    ]) {
      expect((await t.call(UNBIND, {}, { token, language })).body).toMatchObject({ code: 40051, msg });
    }
    expect((await info(token)).has_wechat).toBe(true);
    const [row] = await t.database.db.select().from(users).where(eq(users.id, me.id));
    expect(row.wechatOpenid).toBe(openid);
  });

  it('needs a session', async () => {
    expect((await t.call(BIND_QR)).body.code).toBe(10001);
    expect((await t.call(BIND, { code: 'x' })).body.code).toBe(10001);
    expect((await t.call(UNBIND)).body.code).toBe(10001);
  });
});
