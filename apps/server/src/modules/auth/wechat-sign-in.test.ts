import { authRoutes, type RouteData } from '@athena/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSmsInbox, createTestApp, type TestApp } from '../../testing/test-app.ts';

const GET_URL = '/accountv2/login/get_wechat_url';
const CHECK = '/accountv2/login/check_wechat_url';
const BY_CODE = '/accountv2/login/by_wechat_code';
const BIND = '/accountv2/login/bind_phone';
const DEV_SCAN = '/accountv2/login/dev_wechat_scan';
const INFO = '/accountv2/user/info';

type Qr = RouteData<typeof authRoutes.getWechatUrl>;
type Exchange = RouteData<typeof authRoutes.byWechatCode>;

describe('WeChat QR sign-in (dev provider)', () => {
  let t: TestApp;
  let clock = Date.now();
  const inbox = createSmsInbox();

  const newQr = async () => (await t.call<Qr>(GET_URL)).body.data;
  const smsCode = async (phone: string) => {
    clock += 20_000;
    await t.call('/accountv2/login/send_sms', { phone, type: 'login' });
    return inbox.last(phone)!;
  };

  beforeAll(async () => {
    t = await createTestApp({ sms: inbox, now: () => new Date(clock), env: { PUBLIC_URL: 'http://athena.test' } });
  });
  afterAll(() => t.close());

  it('walks a first-time WeChat user through bind-phone into a new account', async () => {
    const qr = await newQr();
    expect(qr.url).toBe(`http://athena.test/dev/wechat-scan/${qr.code}`);
    expect(qr.expires_in).toBe(300);
    expect((await t.call(CHECK, { code: qr.code })).body).toMatchObject({ code: 0, data: false });
    expect((await t.call(BY_CODE, { code: qr.code })).body.code).toBe(40021);

    const scan = await t.call(authRoutes.devWechatScan, { code: qr.code, nickname: '微信小明' });
    expect((await t.call(CHECK, { code: qr.code })).body.data).toBe(true);

    const exchange = await t.call<Exchange>(BY_CODE, { code: qr.code });
    expect(exchange.body.data.need_bind_phone).toBe(true);
    // The bind token is not a session.
    expect((await t.call(INFO, {}, { token: exchange.body.data.login_token })).body.code).toBe(10001);
    // Single use.
    expect((await t.call(BY_CODE, { code: qr.code })).body.code).toBe(40022);

    const bound = await t.call(authRoutes.bindPhone, {
      phone: '13600000001',
      code: await smsCode('13600000001'),
      login_token: exchange.body.data.login_token,
    });
    expect(bound.body.code).toBe(0);
    const info = await t.call(authRoutes.userInfo, {}, { token: bound.body.data.login_token });
    expect(info.body.data).toMatchObject({ nickname: '微信小明', has_wechat: true, phone_masked: '136****0001' });

    // Coming back: the same WeChat user signs straight in, into the same account.
    const again = await newQr();
    await t.call(DEV_SCAN, { code: again.code, openid: scan.body.data.openid });
    const returning = await t.call<Exchange>(BY_CODE, { code: again.code });
    expect(returning.body.data.need_bind_phone).toBe(false);
    const sameUser = await t.call(authRoutes.userInfo, {}, { token: returning.body.data.login_token });
    expect(sameUser.body.data.id).toBe(info.body.data.id);
  });

  it('refuses to bind a phone that belongs to another account, and merges nothing', async () => {
    const ownerToken = await t.signInBySms('13600000002');
    clock += 20_000;
    const qr = await newQr();
    await t.call(DEV_SCAN, { code: qr.code });
    const exchange = await t.call<Exchange>(BY_CODE, { code: qr.code });

    const res = await t.call(
      BIND,
      { phone: '13600000002', code: await smsCode('13600000002'), login_token: exchange.body.data.login_token },
      { language: 'en' },
    );
    expect(res.body.code).toBe(40024);
    expect(res.body.msg).toContain('nothing was merged');
    const owner = await t.call(INFO, {}, { token: ownerToken });
    expect(owner.body.data).toMatchObject({ has_wechat: false });

    // The bind token survives the refusal: the person can bind a different phone.
    const other = await t.call(BIND, {
      phone: '13600000003',
      code: await smsCode('13600000003'),
      login_token: exchange.body.data.login_token,
    });
    expect(other.body.code).toBe(0);
    // …but only once.
    const reuse = await t.call(BIND, {
      phone: '13600000004',
      code: await smsCode('13600000004'),
      login_token: exchange.body.data.login_token,
    });
    expect(reuse.body.code).toBe(40023);
  });

  it('rejects a wrong SMS code or an unknown bind token', async () => {
    const qr = await newQr();
    await t.call(DEV_SCAN, { code: qr.code });
    const exchange = await t.call<Exchange>(BY_CODE, { code: qr.code });
    await smsCode('13600000005');
    const wrong = await t.call(BIND, {
      phone: '13600000005',
      code: '000000x',
      login_token: exchange.body.data.login_token,
    });
    expect(wrong.body.code).toBe(40004);
    const unknown = await t.call(BIND, { phone: '13600000005', code: '123456', login_token: 'nope' });
    expect(unknown.body.code).toBe(40023);
    expect((await t.call(BIND, { phone: '13600000005', code: '123456' })).body.code).toBe(40000);
  });

  it('expires bind tokens after 10 minutes', async () => {
    const qr = await newQr();
    await t.call(DEV_SCAN, { code: qr.code });
    const exchange = await t.call<Exchange>(BY_CODE, { code: qr.code });
    clock += 601_000;
    const res = await t.call(BIND, {
      phone: '13600000006',
      code: await smsCode('13600000006'),
      login_token: exchange.body.data.login_token,
    });
    expect(res.body.code).toBe(40023);
  });

  it('expires QR codes: check, scan and exchange all say so', async () => {
    const qr = await newQr();
    clock += 301_000;
    expect((await t.call(CHECK, { code: qr.code })).body.code).toBe(40020);
    expect((await t.call(DEV_SCAN, { code: qr.code })).body.code).toBe(40020);
    expect((await t.call(BY_CODE, { code: qr.code })).body.code).toBe(40020);
    expect((await t.call(CHECK, { code: 'never-issued' })).body.code).toBe(40020);
  });

  it('does not let a scanned code be exchanged after the QR expired', async () => {
    const qr = await newQr();
    await t.call(DEV_SCAN, { code: qr.code });
    clock += 301_000;
    expect((await t.call(BY_CODE, { code: qr.code })).body.code).toBe(40020);
  });

  it('validates bodies', async () => {
    expect((await t.call(CHECK, {})).body.code).toBe(40000);
    expect((await t.call(BY_CODE, { code: 'x'.repeat(65) })).body.code).toBe(40000);
  });
});
