import { accountRoutes, authRoutes, type RealName } from '@athena/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decryptSecret } from '../../platform/crypto.ts';
import type { DevRealNameProvider } from '../../platform/realname/dev-realname.ts';
import { createTencentFaceIdProvider } from '../../platform/realname/tencent-faceid.ts';
import { type FakeTencentFaceId, startFakeTencentFaceId } from '../../testing/fake-tencent-faceid.ts';
import { createTestApp, type TestApp } from '../../testing/test-app.ts';
import { realNameVerifications } from './realname.schema.ts';

const GET = '/accountv2/user/realname/get';
const START = '/accountv2/user/realname/start';
const REFRESH = '/accountv2/user/realname/refresh';
const DEV_COMPLETE = '/accountv2/user/realname/dev_complete';
const INFO = '/accountv2/user/info';

// GB 11643's own example number; 440524188001010014 is another valid one.
const PERSON = { name: '张三丰', id_number: '11010519491231002X' };
const MASKED = { name_masked: '张**', id_number_masked: '110***********002X' };

const UNVERIFIED: RealName = {
  state: 'unverified',
  name_masked: null,
  id_number_masked: null,
  failure_reason: null,
  verified_at: null,
};

let phoneSeq = 0;
const nextPhone = () => `1370000${String(++phoneSeq).padStart(4, '0')}`;

const rowsOf = (t: TestApp, userId?: string) =>
  t.database.db
    .select()
    .from(realNameVerifications)
    .where(userId ? eq(realNameVerifications.userId, userId) : undefined);

async function signIn(t: TestApp) {
  const token = await t.signInBySms(nextPhone());
  const info = await t.call(authRoutes.userInfo, {}, { token });
  return { token, userId: info.body.data.id };
}

describe('real-name verification with the dev provider', () => {
  let t: TestApp;
  let dev: DevRealNameProvider;
  beforeAll(async () => {
    t = await createTestApp();
    dev = t.app.modules.realName.realNameProvider as DevRealNameProvider;
  });
  afterAll(() => t.close());

  const tokenOf = (verifyUrl: string) => verifyUrl.split('/dev/faceid/')[1];

  it('needs a session', async () => {
    expect((await t.call(GET)).body.code).toBe(10001);
    expect((await t.call(START, PERSON)).body.code).toBe(10001);
  });

  it('passes: unverified → pending (masked) → verified, and user/info knows at once', async () => {
    const { token } = await signIn(t);
    expect((await t.call(GET, {}, { token })).body).toMatchObject({ code: 0, data: UNVERIFIED });
    expect((await t.call(REFRESH, {}, { token })).body.data).toEqual(UNVERIFIED);
    // Warm the cached user/info answer, which must not outlive the verification.
    expect((await t.call(INFO, {}, { token })).body.data).toMatchObject({ real_name_verified: false });

    const started = await t.call(accountRoutes.realNameStart, PERSON, { token });
    expect(started.body).toMatchObject({ code: 0, data: { state: 'pending' } });
    expect(started.body.data.verify_url).toMatch(/^http:\/\/localhost:3000\/dev\/faceid\/[A-Za-z0-9_-]{20,}$/);
    const pending = { state: 'pending', ...MASKED, failure_reason: null, verified_at: null };
    expect((await t.call(GET, {}, { token })).body.data).toEqual(pending);
    expect((await t.call(REFRESH, {}, { token })).body.data).toEqual(pending);

    const done = await t.call<RealName>(
      DEV_COMPLETE,
      { token: tokenOf(started.body.data.verify_url), outcome: 'pass' },
      { token },
    );
    expect(done.body.data).toMatchObject({ state: 'verified', ...MASKED, failure_reason: null });
    expect(Date.parse(done.body.data.verified_at ?? '')).toBeGreaterThan(Date.now() - 60_000);
    expect((await t.call(GET, {}, { token })).body.data).toEqual(done.body.data);
    expect((await t.call(REFRESH, {}, { token })).body.data).toEqual(done.body.data);
    expect((await t.call(INFO, {}, { token })).body.data).toMatchObject({ real_name_verified: true });
  });

  it('refuses a new start once verified, in the caller’s language', async () => {
    const { token } = await signIn(t);
    const started = await t.call(accountRoutes.realNameStart, PERSON, { token });
    await t.call(DEV_COMPLETE, { token: tokenOf(started.body.data.verify_url), outcome: 'pass' }, { token });
    expect((await t.call(START, PERSON, { token })).body).toMatchObject({ code: 40062, msg: '您已完成实名认证。' });
    expect((await t.call(START, PERSON, { token, language: 'en' })).body).toMatchObject({
      code: 40062,
      msg: 'Your real-name verification is already complete.',
    });
    expect((await t.call(GET, {}, { token })).body.data).toMatchObject({ state: 'verified' });
  });

  it('fails through refresh, then a new start replaces the failed attempt and can pass', async () => {
    const { token, userId } = await signIn(t);
    const first = await t.call(accountRoutes.realNameStart, PERSON, { token });
    dev.complete(tokenOf(first.body.data.verify_url), 'fail');
    const failed = await t.call<RealName>(REFRESH, {}, { token });
    expect(failed.body.data).toEqual({
      state: 'failed',
      ...MASKED,
      failure_reason: 'The simulated face check was declined.',
      verified_at: null,
    });
    expect((await t.call(INFO, {}, { token })).body.data).toMatchObject({ real_name_verified: false });

    const second = await t.call(
      accountRoutes.realNameStart,
      { name: 'Li Na', id_number: '440524188001010014' },
      { token },
    );
    expect((await t.call(GET, {}, { token })).body.data).toEqual({
      state: 'pending',
      name_masked: 'L****',
      id_number_masked: '440***********0014',
      failure_reason: null,
      verified_at: null,
    });
    expect(await rowsOf(t, userId)).toHaveLength(1);
    const passed = await t.call(
      DEV_COMPLETE,
      { token: tokenOf(second.body.data.verify_url), outcome: 'pass' },
      { token },
    );
    expect(passed.body.data).toMatchObject({ state: 'verified' });
  });

  it('fails through dev_complete with a short reason', async () => {
    const { token } = await signIn(t);
    const started = await t.call(accountRoutes.realNameStart, PERSON, { token });
    const failed = await t.call(
      DEV_COMPLETE,
      { token: tokenOf(started.body.data.verify_url), outcome: 'fail' },
      { token },
    );
    expect(failed.body.data).toMatchObject({
      state: 'failed',
      failure_reason: 'The simulated face check was declined.',
    });
  });

  it('replaces a pending attempt with a new start', async () => {
    const { token, userId } = await signIn(t);
    const first = await t.call(accountRoutes.realNameStart, PERSON, { token });
    const second = await t.call(accountRoutes.realNameStart, PERSON, { token });
    expect(second.body.data.verify_url).not.toBe(first.body.data.verify_url);
    const rows = await rowsOf(t, userId);
    expect(rows).toHaveLength(1);
    expect(rows[0].providerToken).toBe(tokenOf(second.body.data.verify_url));
    // The replaced check can no longer be completed.
    const stale = await t.call(
      DEV_COMPLETE,
      { token: tokenOf(first.body.data.verify_url), outcome: 'pass' },
      { token },
    );
    expect(stale.body.code).toBe(40400);
  });

  it('lets dev_complete finish only the caller’s own pending attempt', async () => {
    const owner = await signIn(t);
    const other = await signIn(t);
    const started = await t.call(accountRoutes.realNameStart, PERSON, { token: owner.token });
    const checkToken = tokenOf(started.body.data.verify_url);

    const foreign = await t.call(DEV_COMPLETE, { token: checkToken, outcome: 'pass' }, { token: other.token });
    expect(foreign.body).toMatchObject({ code: 40400 });
    expect((await t.call(GET, {}, { token: other.token })).body.data).toEqual(UNVERIFIED);
    expect((await t.call(GET, {}, { token: owner.token })).body.data).toMatchObject({ state: 'pending' });
    expect((await t.call(REFRESH, {}, { token: owner.token })).body.data).toMatchObject({ state: 'pending' });

    const unknown = await t.call(DEV_COMPLETE, { token: 'no-such-check', outcome: 'pass' }, { token: owner.token });
    expect(unknown.body.code).toBe(40400);

    await t.call(DEV_COMPLETE, { token: checkToken, outcome: 'fail' }, { token: owner.token });
    // A finished check cannot be flipped afterwards.
    const again = await t.call(DEV_COMPLETE, { token: checkToken, outcome: 'pass' }, { token: owner.token });
    expect(again.body.code).toBe(40400);
    expect((await t.call(GET, {}, { token: owner.token })).body.data).toMatchObject({ state: 'failed' });
  });

  it('rejects bad ID numbers and empty names with localised messages, storing nothing', async () => {
    const { token, userId } = await signIn(t);
    const idMessages = {
      'zh-CN': '请输入有效的 18 位居民身份证号码。',
      'zh-TW': '請輸入有效的 18 位居民身分證號碼。',
      en: 'Please enter a valid 18-character mainland resident ID number.',
    };
    const badIds = ['110105194912310021', '11010519491231002', '1101051949123100X2', 'ABCDEFGHIJKLMNOPQR', '', 'x'];
    for (const id_number of badIds) {
      for (const [language, msg] of Object.entries(idMessages)) {
        const answer = await t.call(START, { name: '张三', id_number }, { token, language });
        expect(answer.body, `${id_number} in ${language}`).toMatchObject({ code: 40060, msg });
      }
    }
    expect((await t.call(START, { name: '张三' }, { token, language: 'en' })).body.code).toBe(40060);

    for (const name of ['', '   ']) {
      expect((await t.call(START, { name, id_number: PERSON.id_number }, { token })).body).toMatchObject({
        code: 40061,
        msg: '请输入真实姓名。',
      });
      expect(
        (await t.call(START, { name, id_number: PERSON.id_number }, { token, language: 'en' })).body,
      ).toMatchObject({
        code: 40061,
        msg: 'Please enter your legal name.',
      });
    }
    expect(await rowsOf(t, userId)).toHaveLength(0);
    expect((await t.call(GET, {}, { token })).body.data).toEqual(UNVERIFIED);
  });

  it('accepts a lowercase check character and trims the name', async () => {
    const { token } = await signIn(t);
    const started = await t.call(START, { name: '  王五 ', id_number: '11010519491231002x' }, { token });
    expect(started.body.code).toBe(0);
    expect((await t.call(GET, {}, { token })).body.data).toMatchObject({
      name_masked: '王*',
      id_number_masked: '110***********002X',
    });
  });

  it('never stores the name or ID number in the clear', async () => {
    const { token, userId } = await signIn(t);
    const person = { name: '欧阳修远', id_number: '440524188001010014' };
    await t.call(START, person, { token });
    const [row] = await rowsOf(t, userId);
    const everything = JSON.stringify(await rowsOf(t));
    for (const secret of [person.name, person.id_number, '188001010', '欧阳', '修远']) {
      expect(everything).not.toContain(secret);
    }
    expect(row.nameEncrypted).toMatch(/^v1\.[A-Za-z0-9_-]+$/);
    expect(decryptSecret(t.masterKey, row.nameEncrypted)).toBe(person.name);
    expect(decryptSecret(t.masterKey, row.idNumberEncrypted)).toBe(person.id_number);
    expect(row).toMatchObject({ nameMasked: '欧***', idNumberMasked: '440***********0014', provider: 'dev' });
  });
});

describe('real-name verification with Tencent FaceID (local fake)', () => {
  let fake: FakeTencentFaceId;
  let t: TestApp;
  beforeAll(async () => {
    fake = await startFakeTencentFaceId({ ruleId: '3' });
    t = await createTestApp({
      realName: createTencentFaceIdProvider({
        endpoint: fake.url,
        secretId: fake.secretId,
        secretKey: fake.secretKey,
        ruleId: '3',
      }),
    });
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  it('opens a signed check, stays pending, then passes and flips user/info', async () => {
    const { token, userId } = await signIn(t);
    expect((await t.call(INFO, {}, { token })).body.data).toMatchObject({ real_name_verified: false });
    const started = await t.call(accountRoutes.realNameStart, PERSON, { token });
    expect(started.body).toMatchObject({ code: 0, data: { state: 'pending' } });
    const check = fake.lastCheck()!;
    expect(started.body.data.verify_url).toBe(`${fake.url}/h5/${check.bizToken}`);
    expect(check).toMatchObject({
      name: PERSON.name,
      idCard: PERSON.id_number,
      redirectUrl: 'http://localhost:3000/account/faceid',
    });
    const [row] = await rowsOf(t, userId);
    expect(row).toMatchObject({ provider: 'tencent', providerToken: check.bizToken, id: check.extra });

    expect((await t.call(REFRESH, {}, { token })).body.data).toMatchObject({ state: 'pending', ...MASKED });
    fake.decide(check.bizToken, { result: 'pass' });
    expect((await t.call(REFRESH, {}, { token })).body.data).toMatchObject({ state: 'verified', ...MASKED });
    expect((await t.call(INFO, {}, { token })).body.data).toMatchObject({ real_name_verified: true });
    expect(fake.requests.every((request) => request.answer === 'OK')).toBe(true);
  });

  it('records a failed check with Tencent’s message', async () => {
    const { token } = await signIn(t);
    await t.call(START, PERSON, { token });
    fake.decide(fake.lastCheck()!.bizToken, { result: 'fail', errCode: 1005, message: '姓名和身份证号不一致' });
    expect((await t.call(REFRESH, {}, { token })).body.data).toMatchObject({
      state: 'failed',
      failure_reason: '姓名和身份证号不一致',
      verified_at: null,
    });
  });

  it('answers REAL_NAME_PROVIDER_FAILED on API errors and changes nothing', async () => {
    const { token, userId } = await signIn(t);
    fake.failNext('UnauthorizedOperation.Arrears', 'The account is in arrears.');
    expect((await t.call(START, PERSON, { token })).body).toMatchObject({
      code: 40064,
      msg: '实名认证服务暂不可用，请稍后重试。',
    });
    expect(await rowsOf(t, userId)).toHaveLength(0);

    await t.call(START, PERSON, { token });
    fake.failNext('FailedOperation.UnKnown', 'Internal error.');
    expect((await t.call(REFRESH, {}, { token, language: 'en' })).body).toMatchObject({
      code: 40064,
      msg: 'The verification service is unavailable right now. Please try again later.',
    });
    expect((await t.call(GET, {}, { token })).body.data).toMatchObject({ state: 'pending' });
  });

  it('has no dev_complete route', async () => {
    const { token } = await signIn(t);
    const answer = await t.call(DEV_COMPLETE, { token: 'x', outcome: 'pass' }, { token });
    expect(answer).toMatchObject({ status: 404, body: { code: 40404 } });
  });

  it('answers REAL_NAME_PROVIDER_FAILED when its key is wrong', async () => {
    const wrong = await createTestApp({
      realName: createTencentFaceIdProvider({
        endpoint: fake.url,
        secretId: fake.secretId,
        secretKey: 'not-the-secret-key',
        ruleId: '3',
      }),
    });
    try {
      const token = await wrong.signInBySms(nextPhone());
      const before = fake.requests.length;
      expect((await wrong.call(START, PERSON, { token })).body.code).toBe(40064);
      expect(fake.requests.slice(before)).toMatchObject([
        { action: 'DetectAuth', answer: 'AuthFailure.SignatureFailure' },
      ]);
    } finally {
      await wrong.close();
    }
  });
});
