import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/test-app.ts';
import { sessions } from './auth.schema.ts';

const INFO = '/accountv2/user/info';

describe('sessions', () => {
  let t: TestApp;
  let clock = Date.now();
  beforeAll(async () => {
    t = await createTestApp({ now: () => new Date(clock) });
  });
  afterAll(() => t.close());

  it('answers 10001 without a token, with a garbage token, and after logout', async () => {
    expect((await t.call(INFO)).body.code).toBe(10001);
    expect((await t.call(INFO, {}, { token: 'garbage' })).body).toMatchObject({
      code: 10001,
      msg: '登录已过期，请重新登录。',
    });
    const token = await t.signInBySms('13500000001');
    expect((await t.call(INFO, {}, { token })).body.code).toBe(0);
    expect((await t.call('/accountv2/login/logout', {}, { token })).body.code).toBe(0);
    expect((await t.call(INFO, {}, { token, language: 'en' })).body).toMatchObject({
      code: 10001,
      msg: 'Login has expired, please log in again.',
    });
  });

  it('stores only a hash of the token', async () => {
    const token = await t.signInBySms('13500000002');
    const rows = await t.database.db.select({ hash: sessions.tokenHash }).from(sessions);
    expect(rows.some((row) => row.hash === token)).toBe(false);
    expect(rows.every((row) => /^[0-9a-f]{64}$/.test(row.hash))).toBe(true);
  });

  it('slides the expiry while the session is used, and ends it after 30 idle days', async () => {
    clock += 20_000;
    const token = await t.signInBySms('13500000003');
    clock += 20 * 86_400_000;
    expect((await t.call(INFO, {}, { token })).body.code).toBe(0);
    clock += 20 * 86_400_000; // 40 days after sign-in, 20 after last use
    expect((await t.call(INFO, {}, { token })).body.code).toBe(0);
    clock += 31 * 86_400_000;
    expect((await t.call(INFO, {}, { token })).body.code).toBe(10001);
  });

  it('keeps other sessions of the same user alive on logout', async () => {
    clock += 20_000;
    const a = await t.signInBySms('13500000004');
    clock += 20_000;
    const b = await t.signInBySms('13500000004');
    await t.call('/accountv2/login/logout', {}, { token: a });
    expect((await t.call(INFO, {}, { token: b })).body.code).toBe(0);
  });

  it('purges dead sessions through the scheduled job handler', async () => {
    clock += 60 * 86_400_000;
    const removed = await t.app.modules.auth.sessions.purge();
    expect(removed).toBeGreaterThan(0);
  });
});
