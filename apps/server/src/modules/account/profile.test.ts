import { type authRoutes, ROLE, type RouteData, type Settings } from '@athena/contract';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSmsInbox, createTestApp, type TestApp } from '../../testing/test-app.ts';
import { spaceMembers, spaces } from '../space/space.schema.ts';

const UPDATE = '/accountv2/user/update';
const CHANGE_PHONE = '/accountv2/user/change_phone';
const SETTINGS_GET = '/accountv2/user/settings/get';
const SETTINGS_UPDATE = '/accountv2/user/settings/update';
const SEND = '/accountv2/login/send_sms';
const BY_SMS = '/accountv2/login/by_sms';
const INFO = '/accountv2/user/info';

type UserInfo = RouteData<typeof authRoutes.userInfo>;
/** Once signed in, one always has a space. */
type Info = UserInfo & { space: NonNullable<UserInfo['space']> };

describe('account: nickname, phone and settings', () => {
  let t: TestApp;
  let clock = Date.now();
  const inbox = createSmsInbox();
  const info = async (token: string) => (await t.call<Info>(INFO, {}, { token })).body.data;
  /** Sends a code of the given purpose to `phone` and returns what the phone received. */
  const codeFor = async (phone: string, type: 'login' | 'change_phone') => {
    clock += 20_000;
    expect((await t.call(SEND, { phone, type })).body.code).toBe(0);
    return inbox.last(phone)!;
  };
  const signIn = async (phone: string) => {
    clock += 20_000;
    return t.signInBySms(phone);
  };

  beforeAll(async () => {
    t = await createTestApp({ sms: inbox, now: () => new Date(clock) });
  });
  afterAll(() => t.close());

  describe('nickname', () => {
    it('is trimmed, saved and shown by user/info at once', async () => {
      const token = await signIn('13700000001');
      expect((await info(token)).nickname).toMatch(/^用户0001[A-HJ-NP-Z2-9]{2}$/);
      expect((await t.call(UPDATE, { nickname: '  小明  ' }, { token })).body).toMatchObject({ code: 0, data: null });
      expect((await info(token)).nickname).toBe('小明');
      const thirty = '长'.repeat(30);
      expect((await t.call(UPDATE, { nickname: thirty }, { token })).body.code).toBe(0);
      expect((await info(token)).nickname).toBe(thirty);
    });

    it.each([
      ['zh-CN', { nickname: '   ' }, 40032, '昵称不能为空。'],
      ['zh-TW', { nickname: '' }, 40032, '暱稱不能為空。'],
      ['en', {}, 40032, 'Nickname cannot be empty.'],
      ['zh-CN', { nickname: 'x'.repeat(31) }, 40033, '昵称最多 30 个字符。'],
      ['zh-TW', { nickname: '長'.repeat(31) }, 40033, '暱稱最多 30 個字元。'],
      ['en', { nickname: ` ${'y'.repeat(31)} ` }, 40033, 'Nickname can be at most 30 characters.'],
    ])('refuses a bad nickname in %s: %j', async (language, body, code, msg) => {
      // Each case signs the same number in again: past four codes its SMS wait grows (docs/auth.md).
      clock += 15 * 60_000;
      const token = await signIn('13700000002');
      const before = (await info(token)).nickname;
      expect((await t.call(UPDATE, body, { token, language })).body).toMatchObject({ code, msg });
      expect((await info(token)).nickname).toBe(before);
    });

    it('needs a session', async () => {
      expect((await t.call(UPDATE, { nickname: 'x' })).body.code).toBe(10001);
    });
  });

  describe('change phone', () => {
    it('moves the account to a new phone with a change_phone code', async () => {
      const token = await signIn('13700000010');
      const me = await info(token);
      const code = await codeFor('13700000011', 'change_phone');
      const res = await t.call(CHANGE_PHONE, { phone: '13700000011', code }, { token });
      expect(res.body).toMatchObject({ code: 0, data: { phone_masked: '137****0011' } });
      expect((await info(token)).phone_masked).toBe('137****0011');

      // The new phone signs in to the same account; the old one is free and makes a new account.
      expect((await info(await signIn('13700000011'))).id).toBe(me.id);
      expect((await info(await signIn('13700000010'))).id).not.toBe(me.id);
    });

    it('accepts only codes sent for change_phone, and they do not sign anyone in', async () => {
      const token = await signIn('13700000020');
      const loginCode = await codeFor('13700000021', 'login');
      const withLoginCode = await t.call(CHANGE_PHONE, { phone: '13700000021', code: loginCode }, { token });
      expect(withLoginCode.body.code).toBe(40005);

      const changeCode = await codeFor('13700000021', 'change_phone');
      // The login code sent above is still open; the change_phone code is not that code.
      expect((await t.call(BY_SMS, { phone: '13700000021', code: changeCode })).body.code).toBe(40004);
      const wrong = changeCode === '000000' ? '111111' : '000000';
      expect((await t.call(CHANGE_PHONE, { phone: '13700000021', code: wrong }, { token })).body.code).toBe(40004);
      expect((await info(token)).phone_masked).toBe('137****0020');
    });

    it('says so when the phone is already mine, in every language', async () => {
      const token = await signIn('13700000030');
      for (const [language, msg] of [
        ['zh-CN', '这已经是您的手机号。'],
        ['zh-TW', '這已經是您的手機號碼。'],
        ['en', 'This is already your phone number.'],
      ]) {
        const res = await t.call(CHANGE_PHONE, { phone: '13700000030', code: '123456' }, { token, language });
        expect(res.body).toMatchObject({ code: 40055, msg });
      }
    });

    it('refuses a phone that belongs to another account and changes nothing', async () => {
      const mine = await signIn('13700000040');
      const theirs = await signIn('13700000041');
      const code = await codeFor('13700000041', 'change_phone');
      const res = await t.call(CHANGE_PHONE, { phone: '13700000041', code }, { token: mine, language: 'en' });
      expect(res.body).toMatchObject({ code: 40024 });
      expect(res.body.msg).toContain('another account');
      expect((await info(mine)).phone_masked).toBe('137****0040');
      expect((await info(theirs)).phone_masked).toBe('137****0041');
    });

    it('checks the code before saying whether a number is taken', async () => {
      const token = await signIn('13700000050');
      await signIn('13700000051');
      // No code was sent to 13700000051 for change_phone: the answer must not reveal it is registered.
      const res = await t.call(CHANGE_PHONE, { phone: '13700000051', code: '123456' }, { token });
      expect(res.body.code).toBe(40005);
    });

    it('validates the body', async () => {
      const token = await signIn('13700000060');
      const bad = await t.call(CHANGE_PHONE, { phone: '12345', code: '123456' }, { token, language: 'en' });
      expect(bad.body).toMatchObject({ code: 40002 });
      expect((await t.call(CHANGE_PHONE, { phone: '13700000061' }, { token })).body.code).toBe(40003);
    });
  });

  describe('settings', () => {
    let token: string;
    let me: Info;
    let teamId: string;
    let foreignId: string;

    beforeAll(async () => {
      token = await signIn('13700000070');
      me = await info(token);
      const other = await info(await signIn('13700000071'));
      foreignId = other.space.id;
      const [team] = await t.database.db.insert(spaces).values({ name: 'Team', creatorId: other.id }).returning();
      await t.database.db.insert(spaceMembers).values([
        { spaceId: team.id, userId: other.id, role: ROLE.creator },
        { spaceId: team.id, userId: me.id, role: ROLE.member },
      ]);
      teamId = team.id;
    });

    it('start with the device deciding', async () => {
      expect((await t.call(SETTINGS_GET, {}, { token })).body.data).toEqual({
        language: null,
        timezone: null,
        theme: 'system',
        default_space_id: null,
      });
    });

    it('change only the fields sent, and follow me to a second device', async () => {
      const first = await t.call<Settings>(SETTINGS_UPDATE, { language: 'en', theme: 'dark' }, { token });
      expect(first.body.data).toEqual({ language: 'en', timezone: null, theme: 'dark', default_space_id: null });
      const second = await t.call<Settings>(SETTINGS_UPDATE, { timezone: 'asia/shanghai' }, { token });
      // Stored in the canonical IANA spelling.
      expect(second.body.data).toEqual({
        language: 'en',
        timezone: 'Asia/Shanghai',
        theme: 'dark',
        default_space_id: null,
      });
      expect((await t.call(SETTINGS_UPDATE, {}, { token })).body.data).toEqual(second.body.data);

      const otherDevice = await signIn('13700000070');
      expect(otherDevice).not.toBe(token);
      expect((await t.call(SETTINGS_GET, {}, { token: otherDevice })).body.data).toEqual(second.body.data);
      expect((await info(otherDevice)).settings).toEqual(second.body.data);

      const reset = await t.call<Settings>(SETTINGS_UPDATE, { language: null, timezone: null }, { token: otherDevice });
      expect(reset.body.data).toMatchObject({ language: null, timezone: null, theme: 'dark' });
      expect((await info(token)).settings).toMatchObject({ language: null, timezone: null });
    });

    it.each([
      ['zh-CN', '时区无效。'],
      ['zh-TW', '時區無效。'],
      ['en', 'Unknown time zone.'],
    ])('refuses an unknown time zone (%s) and changes nothing', async (language, msg) => {
      await t.call(SETTINGS_UPDATE, { timezone: 'Europe/Paris' }, { token });
      for (const timezone of ['Mars/Olympus_Mons', '', '+08:00', 'x'.repeat(65)]) {
        const res = await t.call(SETTINGS_UPDATE, { timezone, theme: 'light' }, { token, language });
        expect(res.body, timezone).toMatchObject({ code: 40056, msg });
      }
      expect((await t.call(SETTINGS_GET, {}, { token })).body.data).toMatchObject({
        timezone: 'Europe/Paris',
        theme: 'dark',
      });
    });

    it('refuses values outside the contract', async () => {
      expect((await t.call(SETTINGS_UPDATE, { theme: 'pink' }, { token })).body.code).toBe(40000);
      expect((await t.call(SETTINGS_UPDATE, { language: 'fr' }, { token })).body.code).toBe(40000);
    });

    it('takes a default space only among mine, and lands there after sign-in', async () => {
      for (const id of [foreignId, '00000000-0000-0000-0000-000000000000', 'not-a-uuid']) {
        const res = await t.call(SETTINGS_UPDATE, { default_space_id: id }, { token, language: 'en' });
        expect(res.body.code).toBe(16023);
      }
      const set = await t.call<Settings>(SETTINGS_UPDATE, { default_space_id: teamId }, { token });
      expect(set.body.data.default_space_id).toBe(teamId);

      // My last space is my personal one (the only one I ever used), but the default wins.
      expect(me.space.id).not.toBe(teamId);
      const fresh = await signIn('13700000070');
      expect((await info(fresh)).space.id).toBe(teamId);
      // A space the client names still wins over the default.
      const named = await t.call<Info>(INFO, {}, { token: fresh, 'space-id': me.space.id });
      expect(named.body.data.space.id).toBe(me.space.id);

      // Once I am no longer a member, the default is ignored and I land in my last space.
      await t.database.db
        .delete(spaceMembers)
        .where(and(eq(spaceMembers.spaceId, teamId), eq(spaceMembers.userId, me.id)));
      await t.app.platform.bus.publish(`space:${teamId}`);
      expect((await info(fresh)).space.id).toBe(me.space.id);

      const cleared = await t.call<Settings>(SETTINGS_UPDATE, { default_space_id: null }, { token });
      expect(cleared.body.data.default_space_id).toBeNull();
    });

    it('needs a session', async () => {
      expect((await t.call(SETTINGS_GET)).body.code).toBe(10001);
      expect((await t.call(SETTINGS_UPDATE, { theme: 'dark' })).body.code).toBe(10001);
    });
  });
});
