import { authRoutes } from '@athena/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSmsInbox, createTestApp, type TestApp } from '../../testing/test-app.ts';

const SEND = '/accountv2/login/send_sms';
const BY_SMS = '/accountv2/login/by_sms';
const INFO = '/accountv2/user/info';

describe('SMS sign-in', () => {
  let t: TestApp;
  let clock = Date.now();
  const inbox = createSmsInbox();
  const later = (seconds: number) => {
    clock += seconds * 1000;
  };

  beforeAll(async () => {
    t = await createTestApp({
      sms: inbox,
      now: () => new Date(clock),
      env: { SMS_TEST_NUMBERS: '13800000000:246810' },
    });
  });
  afterAll(() => t.close());

  it('signs up on the first sign-in: a user, a personal space where they are creator, balance 0', async () => {
    const send = await t.call(SEND, { phone: '13900000001', type: 'login' });
    expect(send.body).toMatchObject({ code: 0, data: { cooldown_seconds: 15, expires_in: 300 } });
    const code = inbox.last('13900000001');
    expect(code).toMatch(/^\d{6}$/);

    const login = await t.call(authRoutes.bySms, { phone: '13900000001', code });
    expect(login.body.code).toBe(0);
    const token = login.body.data.login_token;
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);

    const info = await t.call<{ nickname: string; phone_masked: string; space: { role: number; balance: number } }>(
      INFO,
      {},
      { token },
    );
    expect(info.body.data).toMatchObject({
      // The number's last four digits and two characters derived from the whole number.
      nickname: expect.stringMatching(/^用户0001[A-HJ-NP-Z2-9]{2}$/),
      phone_masked: '139****0001',
      space: { role: 1, balance: 0, personal: true, member_count: 1 },
    });
  });

  it('names two new people whose numbers end alike differently', async () => {
    later(20);
    const first = await t.call(authRoutes.userInfo, {}, { token: await t.signInBySms('13600000000') });
    later(20);
    const second = await t.call(authRoutes.userInfo, {}, { token: await t.signInBySms('13900000000') });
    expect(first.body.data.nickname).toMatch(/^用户0000/);
    expect(second.body.data.nickname).toMatch(/^用户0000/);
    expect(second.body.data.nickname).not.toBe(first.body.data.nickname);
  });

  it('signs the same person in again without a second account', async () => {
    later(20);
    const first = await t.call(authRoutes.userInfo, {}, { token: await t.signInBySms('13900000002') });
    later(20);
    const second = await t.call(authRoutes.userInfo, {}, { token: await t.signInBySms('13900000002') });
    expect(second.body.data.id).toBe(first.body.data.id);
  });

  it.each([
    [{}, 40001, '请输入手机号。'],
    [{ phone: '' }, 40001, '请输入手机号。'],
    [{ phone: '12345678901' }, 40002, '请输入正确的 11 位中国大陆手机号。'],
    [{ phone: '139000000011' }, 40002, '请输入正确的 11 位中国大陆手机号。'],
    [{ phone: 13900000001 }, 40001, '请输入手机号。'],
  ])('rejects send_sms %j with %i', async (body, code, msg) => {
    const res = await t.call(SEND, body);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ code, msg });
  });

  it('rejects an unknown type', async () => {
    const res = await t.call(SEND, { phone: '13900000009', type: 'marketing' });
    expect(res.body.code).toBe(40000);
  });

  it.each([
    [{ phone: '13900000001' }, 40003, 'Please enter the verification code.'],
    [{ phone: '13900000001', code: '' }, 40003, 'Please enter the verification code.'],
    [{ phone: '13900000001', code: '1234567' }, 40004, 'The verification code is incorrect.'],
    [{ code: '123456' }, 40001, 'Please enter your phone number.'],
  ])('rejects by_sms %j with %i in English', async (body, code, msg) => {
    const res = await t.call(BY_SMS, body, { language: 'en' });
    expect(res.body).toMatchObject({ code, msg });
  });

  it('localises messages by the language header, zh-CN by default', async () => {
    const tw = await t.call(SEND, { phone: '1' }, { language: 'zh-TW' });
    expect(tw.body.msg).toBe('請輸入正確的 11 位中國大陸手機號碼。');
    const unknown = await t.call(SEND, { phone: '1' }, { language: 'fr' });
    expect(unknown.body.msg).toBe('请输入正确的 11 位中国大陆手机号。');
  });

  it('enforces the 15-second resend cooldown on the server', async () => {
    later(60);
    expect((await t.call(SEND, { phone: '13900000003' })).body.code).toBe(0);
    later(5);
    const again = await t.call(SEND, { phone: '13900000003' }, { language: 'en' });
    expect(again.body).toMatchObject({ code: 40007, msg: 'Please wait 10 seconds before requesting another code.' });
    later(10);
    expect((await t.call(SEND, { phone: '13900000003' })).body.code).toBe(0);
  });

  it('keeps a code single-use and lets a newer code replace an older one', async () => {
    later(60);
    await t.call(SEND, { phone: '13900000004' });
    const old = inbox.last('13900000004');
    later(16);
    await t.call(SEND, { phone: '13900000004' });
    const fresh = inbox.last('13900000004');
    if (old !== fresh) expect((await t.call(BY_SMS, { phone: '13900000004', code: old })).body.code).toBe(40004);
    expect((await t.call(BY_SMS, { phone: '13900000004', code: fresh })).body.code).toBe(0);
    expect((await t.call(BY_SMS, { phone: '13900000004', code: fresh })).body.code).toBe(40005);
  });

  it('expires a code after 5 minutes', async () => {
    later(60);
    await t.call(SEND, { phone: '13900000005' });
    later(301);
    const res = await t.call(BY_SMS, { phone: '13900000005', code: inbox.last('13900000005') });
    expect(res.body.code).toBe(40005);
  });

  it('burns a code after 5 wrong attempts', async () => {
    later(60);
    await t.call(SEND, { phone: '13900000006' });
    const right = inbox.last('13900000006')!;
    const wrong = right === '000000' ? '111111' : '000000';
    for (let i = 0; i < 4; i++) {
      expect((await t.call(BY_SMS, { phone: '13900000006', code: wrong })).body.code).toBe(40004);
    }
    expect((await t.call(BY_SMS, { phone: '13900000006', code: wrong })).body.code).toBe(40006);
    expect((await t.call(BY_SMS, { phone: '13900000006', code: right })).body.code).toBe(40005);
  });

  it('answers one of two simultaneous uses of the same code', async () => {
    later(60);
    await t.call(SEND, { phone: '13900000007' });
    const code = inbox.last('13900000007');
    const results = await Promise.all([
      t.call(BY_SMS, { phone: '13900000007', code }),
      t.call(BY_SMS, { phone: '13900000007', code }),
    ]);
    expect(results.map((r) => r.body.code).sort()).toEqual([0, 40005]);
  });

  it('slows a number down instead of shutting it out: four codes 15 s apart, then each wait doubles, up to 15 minutes', async () => {
    later(3600);
    const waits: [number, number | undefined][] = [];
    for (let i = 0; i < 12; i++) {
      expect((await t.call(SEND, { phone: '13900000008' })).body.code).toBe(0);
      const early = await t.call(SEND, { phone: '13900000008' }, { language: 'en' });
      waits.push([early.body.code, early.body.retry_after]);
      later(early.body.retry_after ?? 0);
    }
    expect(waits).toEqual([
      [40007, 15],
      [40007, 15],
      [40007, 15],
      [40011, 30],
      [40011, 60],
      [40011, 120],
      [40011, 240],
      [40011, 480],
      [40011, 900],
      [40011, 900],
      [40011, 900],
      [40011, 900],
    ]);
    later(-300);
    const told = await t.call(SEND, { phone: '13900000008' }, { language: 'en' });
    expect(told.body).toMatchObject({
      code: 40011,
      retry_after: 300,
      msg: 'Several codes were sent to this number recently. The latest code still works for 5 minutes after it arrived; for a new one, wait 300 seconds.',
    });
    // A day without codes and the number starts afresh.
    later(86_400);
    expect((await t.call(SEND, { phone: '13900000008' })).body.code).toBe(0);
    expect((await t.call(SEND, { phone: '13900000008' })).body).toMatchObject({ code: 40007, retry_after: 15 });
  });

  it('gives designated test numbers their fixed code without sending anything', async () => {
    const sentBefore = inbox.sent;
    expect((await t.call(SEND, { phone: '13800000000' })).body.code).toBe(0);
    expect((await t.call(SEND, { phone: '13800000000' })).body.code).toBe(0);
    expect(inbox.sent).toBe(sentBefore);
    expect((await t.call(BY_SMS, { phone: '13800000000', code: '111111' })).body.code).toBe(40004);
    expect((await t.call(BY_SMS, { phone: '13800000000', code: '246810' })).body.code).toBe(0);
  });
});

describe('SMS limits and provider failures', () => {
  it('caps codes per IP per day', async () => {
    const t = await createTestApp({ env: { SMS_DAILY_LIMIT_PER_IP: '2' } });
    try {
      expect((await t.call(SEND, { phone: '13700000001' })).body.code).toBe(0);
      expect((await t.call(SEND, { phone: '13700000002' })).body.code).toBe(0);
      expect((await t.call(SEND, { phone: '13700000003' })).body.code).toBe(40009);
    } finally {
      await t.close();
    }
  });

  it('reports a provider failure and does not start the cooldown', async () => {
    let fail = true;
    const t = await createTestApp({
      sms: {
        name: 'dev',
        async sendCode() {
          if (fail) throw new Error('gateway down');
        },
      },
    });
    try {
      expect((await t.call(SEND, { phone: '13700000004' })).body.code).toBe(40010);
      fail = false;
      expect((await t.call(SEND, { phone: '13700000004' })).body.code).toBe(0);
    } finally {
      await t.close();
    }
  });
});
