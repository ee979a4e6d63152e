import { authRoutes, type RouteData, type teamRoutes } from '@athena/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/test-app.ts';
import { spaces } from '../space/space.schema.ts';

const API = '/api/athena/v1';
type Space = RouteData<typeof teamRoutes.create>;
type Invite = RouteData<typeof teamRoutes.inviteCreate>;

describe('teams, invites and members', () => {
  let t: TestApp;
  let clock = Date.now();
  let phone = 13200000000;
  const newUser = async () => t.signInBySms(String(++phone));
  const as = (token: string, spaceId?: string) => ({ token, ...(spaceId ? { 'space-id': spaceId } : {}) });
  const data = async <T>(path: string, body: unknown, headers: Record<string, string>) => {
    const res = await t.call<T>(`${API}/${path}`, body, headers);
    if (res.body.code !== 0) throw new Error(`${path}: ${res.body.code} ${res.body.msg}`);
    return res.body.data;
  };
  const code = async (path: string, body: unknown, headers: Record<string, string>) =>
    (await t.call(`${API}/${path}`, body, headers)).body;

  beforeAll(async () => {
    t = await createTestApp({
      now: () => new Date(clock),
      env: { SMS_DAILY_LIMIT_PER_IP: '100000', PUBLIC_URL: 'https://athena.example' },
    });
  });
  afterAll(() => t.close());

  describe('creating and renaming', () => {
    it('creates a team with a trimmed name; the creator has role 1', async () => {
      const me = await newUser();
      const team = await data<Space>('team/create', { name: '  研发部  ' }, as(me));
      expect(team).toMatchObject({ name: '研发部', role: 1, personal: false, member_count: 1, balance: 0 });
      const list = await data<{ items: Space[] }>('space/list', {}, as(me));
      expect(list.items.map((s) => s.name)).toContain('研发部');
    });

    it.each([
      ['zh-CN', { name: '' }, 40030, '团队名称不能为空。'],
      ['zh-TW', { name: '   ' }, 40030, '團隊名稱不能為空。'],
      ['en', {}, 40030, 'Team name cannot be empty.'],
      ['en', { name: 'x'.repeat(51) }, 40031, 'Team name can be at most 50 characters.'],
    ])('validates the name in %s', async (language, body, expected, msg) => {
      const me = await newUser();
      expect(await code('team/create', body, { ...as(me), language })).toMatchObject({ code: expected, msg });
    });

    it('renames, and everyone sees the new name', async () => {
      const me = await newUser();
      const team = await data<Space>('team/create', { name: 'Old' }, as(me));
      await data('team/update', { name: 'New' }, as(me, team.id));
      expect((await data<Space>('space/get', { id: team.id }, as(me))).name).toBe('New');
    });
  });

  describe('invite links', () => {
    let owner: string;
    let team: Space;
    beforeAll(async () => {
      owner = await newUser();
      team = await data<Space>('team/create', { name: 'Invited' }, as(owner));
    });

    it('shows who invites to which team, signed out or in', async () => {
      const invite = await data<Invite>('team/invite/create', {}, as(owner, team.id));
      expect(invite.url).toBe(`https://athena.example/invite/${invite.code}`);
      const signedOut = await data<Record<string, unknown>>('invite/get', { code: invite.code }, {});
      expect(signedOut).toMatchObject({
        team_name: 'Invited',
        status: 'active',
        already_member: null,
        member_count: 1,
      });
      expect(
        (await data<{ already_member: boolean }>('invite/get', { code: invite.code }, as(owner))).already_member,
      ).toBe(true);
    });

    it('joins once; joining again duplicates nothing', async () => {
      const invite = await data<Invite>('team/invite/create', { max_uses: 'unlimited' }, as(owner, team.id));
      const guest = await newUser();
      const joined = await data<{ space: Space; already_member: boolean }>(
        'invite/accept',
        { code: invite.code },
        as(guest),
      );
      expect(joined).toMatchObject({ already_member: false, space: { id: team.id, role: 3 } });
      const again = await data<{ already_member: boolean }>('invite/accept', { code: invite.code }, as(guest));
      expect(again.already_member).toBe(true);
      const [listed] = (await data<{ items: Invite[] }>('team/invite/list', {}, as(owner, team.id))).items.filter(
        (i) => i.id === invite.id,
      );
      expect(listed.use_count).toBe(1);
    });

    it('says when a single-use link is used up', async () => {
      const invite = await data<Invite>('team/invite/create', { max_uses: 'once' }, as(owner, team.id));
      await data('invite/accept', { code: invite.code }, as(await newUser()));
      const late = await newUser();
      expect(await code('invite/accept', { code: invite.code }, { ...as(late), language: 'en' })).toMatchObject({
        code: 40043,
        msg: 'This invite link has already been used.',
      });
      expect((await data<{ status: string }>('invite/get', { code: invite.code }, {})).status).toBe('exhausted');
    });

    it('says when a link expired or was revoked, or never existed', async () => {
      const daily = await data<Invite>('team/invite/create', { expires_in: '1d' }, as(owner, team.id));
      const forever = await data<Invite>('team/invite/create', { expires_in: 'never' }, as(owner, team.id));
      const revoked = await data<Invite>('team/invite/create', {}, as(owner, team.id));
      await data('team/invite/revoke', { id: revoked.id }, as(owner, team.id));
      clock += 86_401_000;
      const guest = await newUser();
      expect((await code('invite/accept', { code: daily.code }, as(guest))).code).toBe(40041);
      expect((await data<{ status: string }>('invite/get', { code: daily.code }, {})).status).toBe('expired');
      expect((await code('invite/accept', { code: revoked.code }, as(guest))).code).toBe(40042);
      expect((await code('invite/accept', { code: 'no-such-code' }, as(guest))).code).toBe(40040);
      expect((await code('invite/get', { code: 'no-such-code' }, {})).code).toBe(40040);
      expect(
        (await data<{ already_member: boolean }>('invite/accept', { code: forever.code }, as(guest))).already_member,
      ).toBe(false);
    });

    it('keeps personal spaces private', async () => {
      const me = await newUser();
      const personal = (await data<{ items: Space[] }>('space/list', {}, as(me))).items[0];
      expect((await code('team/invite/create', {}, as(me, personal.id))).code).toBe(40047);
      expect((await code('team/member/leave', {}, as(me, personal.id))).code).toBe(40047);
    });
  });

  describe('members', () => {
    it('removes someone at once while keeping what they created', async () => {
      const owner = await newUser();
      const team = await data<Space>('team/create', { name: 'Removal' }, as(owner));
      const invite = await data<Invite>('team/invite/create', {}, as(owner, team.id));
      const admin = await newUser();
      await data('invite/accept', { code: invite.code }, as(admin));
      const adminId = (await t.call(authRoutes.userInfo, {}, as(admin))).body.data.id;
      await data('team/member/update_role', { user_id: adminId, role: 2 }, as(owner, team.id));
      const theirs = await data<Invite>('team/invite/create', {}, as(admin, team.id));
      // Their session has the membership cached now.
      expect((await t.call('/accountv2/user/info', {}, as(admin, team.id))).body.code).toBe(0);

      await data('team/member/remove', { user_id: adminId }, as(owner, team.id));
      expect((await t.call('/accountv2/user/info', {}, as(admin, team.id))).body.code).toBe(16023);
      expect((await data<{ items: Space[] }>('space/list', {}, as(admin))).items.map((s) => s.id)).not.toContain(
        team.id,
      );
      const invites = (await data<{ items: Invite[] }>('team/invite/list', {}, as(owner, team.id))).items;
      expect(invites.find((i) => i.id === theirs.id)?.created_by.nickname).toMatch(/^用户/);
    });

    it('transfers ownership: the new owner is creator, the old one an admin', async () => {
      const owner = await newUser();
      const team = await data<Space>('team/create', { name: 'Transfer' }, as(owner));
      const invite = await data<Invite>('team/invite/create', {}, as(owner, team.id));
      const heir = await newUser();
      await data('invite/accept', { code: invite.code }, as(heir));
      const heirId = (await t.call(authRoutes.userInfo, {}, as(heir))).body.data.id;
      await data('team/transfer', { user_id: heirId }, as(owner, team.id));
      expect((await data<Space>('space/get', { id: team.id }, as(heir))).role).toBe(1);
      expect((await data<Space>('space/get', { id: team.id }, as(owner))).role).toBe(2);
      expect((await code('team/dissolve', { confirm_name: 'Transfer' }, as(owner, team.id))).code).toBe(40300);
      const [row] = await t.database.db.select().from(spaces).where(eq(spaces.id, team.id));
      expect(row.creatorId).toBe(heirId);
      expect((await code('team/member/leave', {}, as(owner, team.id))).code).toBe(0);
    });

    it('searches and pages through members, masking phones', async () => {
      const owner = await newUser();
      const team = await data<Space>('team/create', { name: 'Big' }, as(owner));
      const invite = await data<Invite>('team/invite/create', {}, as(owner, team.id));
      const firstPhone = phone + 1;
      for (let i = 0; i < 24; i++) await data('invite/accept', { code: invite.code }, as(await newUser()));
      const page2 = await data<{ items: { phone_masked: string }[]; total: number }>(
        'team/member/list',
        { page: 2, page_size: 20 },
        as(owner, team.id),
      );
      expect(page2.total).toBe(25);
      expect(page2.items).toHaveLength(5);
      expect(page2.items[0].phone_masked).toMatch(/^132\*\*\*\*\d{4}$/);
      const byPhone = await data<{ total: number }>(
        'team/member/list',
        { keyword: String(firstPhone) },
        as(owner, team.id),
      );
      expect(byPhone.total).toBe(1);
      const literal = await data<{ total: number }>('team/member/list', { keyword: '%' }, as(owner, team.id));
      expect(literal.total).toBe(0);
      const byName = await data<{ total: number }>('team/member/list', { keyword: '用户' }, as(owner, team.id));
      expect(byName.total).toBe(25);
    });
  });

  describe('dissolving', () => {
    it('asks for the exact name and for giving up a positive balance', async () => {
      const owner = await newUser();
      const team = await data<Space>('team/create', { name: 'Dissolve me' }, as(owner));
      const invite = await data<Invite>('team/invite/create', {}, as(owner, team.id));
      const member = await newUser();
      await data('invite/accept', { code: invite.code }, as(member));

      expect((await code('team/dissolve', { confirm_name: 'dissolve me' }, as(owner, team.id))).code).toBe(40049);
      await t.app.modules.billing.ledger.post({
        spaceId: team.id,
        kind: 'recharge',
        amount: 1234,
        idempotencyKey: `recharge:${team.id}`,
      });
      expect(
        await code('team/dissolve', { confirm_name: 'Dissolve me' }, { ...as(owner, team.id), language: 'en' }),
      ).toMatchObject({
        code: 40048,
        msg: 'This team still has a balance of ¥12.34. Confirm that you give it up to dissolve the team.',
      });
      await data('team/dissolve', { confirm_name: 'Dissolve me', forfeit_balance: true }, as(owner, team.id));

      for (const token of [owner, member]) {
        expect((await t.call('/accountv2/user/info', {}, as(token, team.id))).body.code).toBe(16023);
      }
      expect((await data<{ status: string }>('invite/get', { code: invite.code }, {})).status).toBe('revoked');
      expect((await code('invite/accept', { code: invite.code }, as(await newUser()))).code).toBe(40042);
    });
  });

  describe('audit log', () => {
    it('records who did what, filterable by action and time', async () => {
      const owner = await newUser();
      const team = await data<Space>('team/create', { name: 'Audited' }, as(owner));
      const invite = await data<Invite>('team/invite/create', {}, as(owner, team.id));
      const guest = await newUser();
      await data('invite/accept', { code: invite.code }, as(guest));
      const guestId = (await t.call(authRoutes.userInfo, {}, as(guest))).body.data.id;
      await data('team/member/update_role', { user_id: guestId, role: 2 }, as(owner, team.id));
      await data('team/update', { name: 'Audited 2' }, as(owner, team.id));

      type Entries = RouteData<typeof teamRoutes.auditList>;
      const all = await data<Entries>('team/audit/list', {}, as(owner, team.id));
      expect(all.items.map((e) => e.action)).toEqual([
        'team.rename',
        'member.role_change',
        'member.join',
        'invite.create',
        'team.create',
      ]);
      const roles = await data<Entries>('team/audit/list', { action: 'member.role_change' }, as(owner, team.id));
      expect(roles.items[0]).toMatchObject({ details: { from: 3, to: 2 }, target: { id: guestId } });
      const future = new Date(clock + 3_600_000).toISOString();
      expect((await data<Entries>('team/audit/list', { from: future }, as(owner, team.id))).total).toBe(0);
      expect((await code('team/audit/list', { from: 'yesterday' }, as(owner, team.id))).code).toBe(40000);
    });
  });
});
