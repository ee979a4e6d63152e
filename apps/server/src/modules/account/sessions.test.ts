import { accountRoutes } from '@athena/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/test-app.ts';

const LIST = '/accountv2/user/sessions';
const REVOKE = '/accountv2/user/sessions/revoke';
const REVOKE_OTHERS = '/accountv2/user/sessions/revoke_others';
const INFO = '/accountv2/user/info';

describe('account: sessions', () => {
  let t: TestApp;
  let clock = Date.now();
  const signIn = async (phone: string, userAgent: string) => {
    clock += 20_000;
    return t.signInBySms(phone, { 'user-agent': userAgent });
  };
  const list = async (token: string) => (await t.call(accountRoutes.sessions, {}, { token })).body.data.items;
  const works = async (token: string) => (await t.call(INFO, {}, { token })).body.code;

  beforeAll(async () => {
    t = await createTestApp({ now: () => new Date(clock) });
  });
  afterAll(() => t.close());

  it('lists my live sessions, newest use first, with the current one flagged', async () => {
    const laptop = await signIn('13300000001', 'Laptop Chrome');
    const phone = await signIn('13300000001', 'Phone Safari');
    await signIn('13300000002', 'Someone else');
    const loggedOut = await signIn('13300000001', 'Old tablet');
    await t.call('/accountv2/login/logout', {}, { token: loggedOut });

    const items = await list(laptop);
    expect(items.map((s) => [s.user_agent, s.current])).toEqual([
      ['Phone Safari', false],
      ['Laptop Chrome', true],
    ]);
    expect(items[1]).toMatchObject({ ip: '127.0.0.1', created_at: new Date(items[1].created_at).toISOString() });
    expect(Date.parse(items[1].last_seen_at)).toBeGreaterThanOrEqual(Date.parse(items[1].created_at));
    expect((await list(phone)).find((s) => s.current)?.user_agent).toBe('Phone Safari');
  });

  it('revokes one of my sessions at once, and only once', async () => {
    const keep = await signIn('13300000010', 'Keep');
    const lost = await signIn('13300000010', 'Lost');
    expect(await works(lost)).toBe(0); // cached now; the revocation must still reach it
    const target = (await list(keep)).find((s) => s.user_agent === 'Lost')!;

    expect((await t.call(REVOKE, { id: target.id }, { token: keep })).body).toMatchObject({ code: 0, data: null });
    expect(await works(lost)).toBe(10001);
    expect(await works(keep)).toBe(0);
    expect((await list(keep)).map((s) => s.user_agent)).toEqual(['Keep']);
    expect((await t.call(REVOKE, { id: target.id }, { token: keep })).body.code).toBe(40400);
  });

  it("treats a stranger's session like an unknown one, in every language, and leaves it alive", async () => {
    const mine = await signIn('13300000020', 'Mine');
    const theirs = await signIn('13300000021', 'Theirs');
    const theirId = (await list(theirs))[0].id;
    for (const [language, msg] of [
      ['zh-CN', '内容不存在或已被删除。'],
      ['zh-TW', '內容不存在或已被刪除。'],
      ['en', 'It does not exist or has been deleted.'],
    ]) {
      expect((await t.call(REVOKE, { id: theirId }, { token: mine, language })).body).toMatchObject({
        code: 40400,
        msg,
      });
    }
    for (const id of ['00000000-0000-0000-0000-000000000000', 'not-a-uuid']) {
      expect((await t.call(REVOKE, { id }, { token: mine })).body.code).toBe(40400);
    }
    expect(await works(theirs)).toBe(0);
    expect((await t.call(REVOKE, {}, { token: mine })).body.code).toBe(40000);
  });

  it('signs me out everywhere else and keeps this device signed in', async () => {
    const here = await signIn('13300000030', 'Here');
    const others = [await signIn('13300000030', 'A'), await signIn('13300000030', 'B')];
    const stranger = await signIn('13300000031', 'Stranger');
    for (const token of others) expect(await works(token)).toBe(0);

    const res = await t.call(accountRoutes.revokeOtherSessions, {}, { token: here });
    expect(res.body).toMatchObject({ code: 0, data: { revoked: 2 } });
    expect(await works(here)).toBe(0);
    for (const token of others) expect(await works(token)).toBe(10001);
    expect(await works(stranger)).toBe(0);
    expect((await list(here)).map((s) => [s.user_agent, s.current])).toEqual([['Here', true]]);
    expect((await t.call(REVOKE_OTHERS, {}, { token: here })).body.data).toEqual({ revoked: 0 });
  });

  it('does not list expired sessions', async () => {
    const old = await signIn('13300000040', 'Old');
    clock += 31 * 86_400_000;
    const fresh = await signIn('13300000040', 'Fresh');
    expect(await works(old)).toBe(10001);
    expect((await list(fresh)).map((s) => s.user_agent)).toEqual(['Fresh']);
  });

  it('needs a session', async () => {
    expect((await t.call(LIST)).body.code).toBe(10001);
    expect((await t.call(REVOKE, { id: 'x' })).body.code).toBe(10001);
    expect((await t.call(REVOKE_OTHERS)).body.code).toBe(10001);
  });
});
