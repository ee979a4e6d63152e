import { authRoutes, ROLE, type RouteData, spaceRoutes } from '@athena/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AuthContext, authorize } from '../../platform/auth-guard.ts';
import type { AppError } from '../../platform/http/app-error.ts';
import { createTestApp, type TestApp } from '../../testing/test-app.ts';
import { spaceMembers, spaces } from './space.schema.ts';

const GET = '/api/athena/v1/space/get';
const SELECT = '/api/athena/v1/space/select';
const LIST = '/api/athena/v1/space/list';
const INFO = '/accountv2/user/info';

type Space = Pick<RouteData<typeof spaceRoutes.get>, 'id' | 'role' | 'balance' | 'name'>;

describe('spaces', () => {
  let t: TestApp;
  let alice: string;
  let bob: string;
  let alicePersonal: Space;
  let bobPersonal: Space;
  let team: Space;

  beforeAll(async () => {
    t = await createTestApp();
    alice = await t.signInBySms('13400000001');
    bob = await t.signInBySms('13400000002');
    alicePersonal = (await t.call(spaceRoutes.list, {}, { token: alice })).body.data.items[0];
    bobPersonal = (await t.call(spaceRoutes.list, {}, { token: bob })).body.data.items[0];
    // A team space Alice created with Bob as a member (the teams feature will create these).
    const aliceId = (await t.call(authRoutes.userInfo, {}, { token: alice })).body.data.id;
    const bobId = (await t.call(authRoutes.userInfo, {}, { token: bob })).body.data.id;
    const [row] = await t.database.db
      .insert(spaces)
      .values({ name: 'Team', creatorId: aliceId, balance: 12_345 })
      .returning();
    await t.database.db.insert(spaceMembers).values([
      { spaceId: row.id, userId: aliceId, role: ROLE.creator },
      { spaceId: row.id, userId: bobId, role: ROLE.member },
    ]);
    team = { id: row.id, role: 1, balance: 12_345, name: 'Team' };
  });
  afterAll(() => t.close());

  it('lists my spaces with my role in each', async () => {
    const list = await t.call(spaceRoutes.list, {}, { token: bob });
    expect(list.body.data.items.map((s) => [s.name, s.role])).toEqual([
      [bobPersonal.name, 1],
      ['Team', 3],
    ]);
  });

  it('gets a space I belong to, with its balance in fen', async () => {
    const res = await t.call<Space>(GET, { id: team.id }, { token: bob });
    expect(res.body.data).toMatchObject({ id: team.id, balance: 12_345, role: 3, member_count: 2 });
  });

  it('answers 16023 for a foreign, missing or malformed space id — all alike', async () => {
    for (const id of [alicePersonal.id, '00000000-0000-0000-0000-000000000000', 'not-a-uuid']) {
      const res = await t.call(GET, { id }, { token: bob, language: 'en' });
      expect(res.body).toMatchObject({ code: 16023 });
      expect((await t.call(SELECT, { selected_space_id: id }, { token: bob })).body.code).toBe(16023);
    }
  });

  it('answers 16023 to any call whose space-id header I cannot use', async () => {
    expect((await t.call(INFO, {}, { token: bob, 'space-id': alicePersonal.id })).body.code).toBe(16023);
    expect((await t.call(LIST, {}, { token: bob, 'space-id': 'garbage' })).body.code).toBe(16023);
    const ok = await t.call<{ space: Space }>(INFO, {}, { token: bob, 'space-id': team.id });
    expect(ok.body.data.space).toMatchObject({ id: team.id, role: 3 });
  });

  it('remembers the selected space for the next sign-in', async () => {
    expect((await t.call(SELECT, { selected_space_id: team.id }, { token: bob })).body.code).toBe(0);
    const info = await t.call<{ space: Space }>(INFO, {}, { token: bob });
    expect(info.body.data.space.id).toBe(team.id);
    await t.call(SELECT, { selected_space_id: bobPersonal.id }, { token: bob });
    expect((await t.call<{ space: Space }>(INFO, {}, { token: bob })).body.data.space.id).toBe(bobPersonal.id);
  });

  it('needs a session', async () => {
    expect((await t.call(LIST)).body.code).toBe(10001);
    expect((await t.call(GET, { id: team.id })).body.code).toBe(10001);
  });

  it('validates bodies', async () => {
    expect((await t.call(GET, {}, { token: bob })).body.code).toBe(40000);
    expect((await t.call(SELECT, { id: team.id }, { token: bob })).body.code).toBe(40000);
  });
});

describe('permission guard', () => {
  const ctxWith = (role: 1 | 2 | 3 | null) => ({ space: role ? { id: 's', role } : null }) as AuthContext;
  const denied = (fn: () => unknown) => {
    try {
      fn();
      return null;
    } catch (error) {
      return (error as AppError).key;
    }
  };

  it('follows the permission table', () => {
    expect(denied(() => authorize(ctxWith(1), 'team.dissolve'))).toBeNull();
    expect(denied(() => authorize(ctxWith(2), 'team.dissolve'))).toBe('FORBIDDEN');
    expect(denied(() => authorize(ctxWith(2), 'member.invite'))).toBeNull();
    expect(denied(() => authorize(ctxWith(3), 'member.invite'))).toBe('FORBIDDEN');
  });

  it('limits lower grants to lower roles and own grants to owners', () => {
    expect(denied(() => authorize(ctxWith(2), 'member.remove', { targetRole: 3 }))).toBeNull();
    expect(denied(() => authorize(ctxWith(2), 'member.remove', { targetRole: 2 }))).toBe('CANNOT_MANAGE_MEMBER');
    expect(denied(() => authorize(ctxWith(2), 'member.remove', { targetRole: 1 }))).toBe('CANNOT_MANAGE_MEMBER');
    expect(denied(() => authorize(ctxWith(3), 'knowledge.delete', { isOwner: true }))).toBeNull();
    expect(denied(() => authorize(ctxWith(3), 'knowledge.delete', { isOwner: false }))).toBe('FORBIDDEN');
  });

  it('needs a space', () => {
    expect(denied(() => authorize(ctxWith(null), 'member.view'))).toBe('SPACE_UNAVAILABLE');
  });
});
