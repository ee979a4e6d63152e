import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAliyunSmsProvider } from '../../platform/sms/aliyun-sms.ts';
import { type FakeAliyunSms, startFakeAliyunSms } from '../../testing/fake-aliyun-sms.ts';
import { createTestApp, type TestApp } from '../../testing/test-app.ts';

/** Sign-in with the real Aliyun client, talking to a local fake of the SendSms API. */
describe('SMS sign-in through Aliyun SendSms', () => {
  let fake: FakeAliyunSms;
  let t: TestApp;

  beforeAll(async () => {
    fake = await startFakeAliyunSms();
    t = await createTestApp({
      sms: createAliyunSmsProvider({
        endpoint: fake.url,
        accessKeyId: fake.accessKeyId,
        accessKeySecret: fake.accessKeySecret,
        signName: '雅典娜',
        templateCode: 'SMS_000001',
      }),
    });
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  it('delivers a signed request whose code signs the person in', async () => {
    expect((await t.call('/accountv2/login/send_sms', { phone: '13300000001' })).body.code).toBe(0);
    const code = fake.lastCode('13300000001');
    expect(code).toMatch(/^\d{6}$/);
    const login = await t.call('/accountv2/login/by_sms', { phone: '13300000001', code });
    expect(login.body.code).toBe(0);
  });

  it('reports a vendor refusal as a send failure the person can retry at once', async () => {
    fake.failNextSend('isv.BUSINESS_LIMIT_CONTROL');
    const refused = await t.call('/accountv2/login/send_sms', { phone: '13300000002' }, { language: 'en' });
    expect(refused.body).toMatchObject({
      code: 40010,
      msg: 'The text message could not be sent. Please try again later.',
    });
    expect((await t.call('/accountv2/login/send_sms', { phone: '13300000002' })).body.code).toBe(0);
  });
});
