import { teamRoutes } from '@athena/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTeam, type People, signInPeople, type TeamFixture } from '../../testing/fixtures.ts';
import { createTestApp, type TestApp } from '../../testing/test-app.ts';

type Actor = keyof People;
interface Case {
  name: string;
  path: string;
  body: (f: TeamFixture, invite: string) => unknown;
  expected: Record<Actor, number>;
}

const OK = 0;
const FORBIDDEN = 40300;
const CANNOT_MANAGE = 40045;
const SPACE_GONE = 16023;

/**
 * Every team action × creator / admin / member / stranger, each on a fresh team built through
 * the API. The stranger calls with this team's id in the space-id header (→ 16023), as a member of
 * another team would.
 */
const cases: Case[] = [
  {
    name: 'view members',
    path: 'team/member/list',
    body: () => ({}),
    expected: { creator: OK, admin: OK, member: OK, stranger: SPACE_GONE },
  },
  {
    name: 'see permissions',
    path: 'team/permissions',
    body: () => ({}),
    expected: { creator: OK, admin: OK, member: OK, stranger: SPACE_GONE },
  },
  {
    name: 'create invite',
    path: 'team/invite/create',
    body: () => ({}),
    expected: { creator: OK, admin: OK, member: FORBIDDEN, stranger: SPACE_GONE },
  },
  {
    name: 'list invites',
    path: 'team/invite/list',
    body: () => ({}),
    expected: { creator: OK, admin: OK, member: FORBIDDEN, stranger: SPACE_GONE },
  },
  {
    name: 'revoke invite',
    path: 'team/invite/revoke',
    body: (_f, invite) => ({ id: invite }),
    expected: { creator: OK, admin: OK, member: FORBIDDEN, stranger: SPACE_GONE },
  },
  {
    name: 'promote member',
    path: 'team/member/update_role',
    body: (f) => ({ user_id: f.ids.member, role: 2 }),
    expected: { creator: OK, admin: FORBIDDEN, member: FORBIDDEN, stranger: SPACE_GONE },
  },
  {
    name: 'demote admin',
    path: 'team/member/update_role',
    body: (f) => ({ user_id: f.ids.admin, role: 3 }),
    expected: { creator: OK, admin: FORBIDDEN, member: FORBIDDEN, stranger: SPACE_GONE },
  },
  {
    name: 'remove member',
    path: 'team/member/remove',
    body: (f) => ({ user_id: f.ids.member }),
    expected: { creator: OK, admin: OK, member: FORBIDDEN, stranger: SPACE_GONE },
  },
  {
    name: 'remove admin',
    path: 'team/member/remove',
    body: (f) => ({ user_id: f.ids.admin }),
    expected: { creator: OK, admin: 40000, member: FORBIDDEN, stranger: SPACE_GONE },
  },
  {
    name: 'remove creator',
    path: 'team/member/remove',
    body: (f) => ({ user_id: f.ids.creator }),
    expected: { creator: 40000, admin: CANNOT_MANAGE, member: FORBIDDEN, stranger: SPACE_GONE },
  },
  {
    name: 'rename',
    path: 'team/update',
    body: () => ({ name: 'Renamed' }),
    expected: { creator: OK, admin: OK, member: FORBIDDEN, stranger: SPACE_GONE },
  },
  {
    name: 'transfer',
    path: 'team/transfer',
    body: (f) => ({ user_id: f.ids.member }),
    expected: { creator: OK, admin: FORBIDDEN, member: FORBIDDEN, stranger: SPACE_GONE },
  },
  {
    name: 'audit log',
    path: 'team/audit/list',
    body: () => ({}),
    expected: { creator: OK, admin: OK, member: FORBIDDEN, stranger: SPACE_GONE },
  },
  {
    name: 'dissolve',
    path: 'team/dissolve',
    body: () => ({ confirm_name: 'Matrix team' }),
    expected: { creator: OK, admin: FORBIDDEN, member: FORBIDDEN, stranger: SPACE_GONE },
  },
  {
    name: 'leave',
    path: 'team/member/leave',
    body: () => ({}),
    expected: { creator: 40046, admin: OK, member: OK, stranger: SPACE_GONE },
  },
];

describe('permission matrix', () => {
  let t: TestApp;
  let people: People;
  beforeAll(async () => {
    t = await createTestApp();
    people = await signInPeople(t);
  });
  afterAll(() => t.close());

  for (const testCase of cases) {
    for (const actor of ['creator', 'admin', 'member', 'stranger'] as const) {
      it(`${testCase.name} as ${actor} → ${testCase.expected[actor]}`, async () => {
        const fixture = await buildTeam(t, { people, name: 'Matrix team' });
        const invite = await t.call(teamRoutes.inviteCreate, {}, { token: people.creator, 'space-id': fixture.teamId });
        const res = await t.call(`/api/athena/v1/${testCase.path}`, testCase.body(fixture, invite.body.data.id), {
          token: people[actor],
          'space-id': fixture.teamId,
        });
        expect(res.body.code).toBe(testCase.expected[actor]);
      });
    }
  }

  it('treats another team’s ids as missing when called from the caller’s own team', async () => {
    const fixture = await buildTeam(t, { people, name: 'Matrix team' });
    const invite = await t.call(teamRoutes.inviteCreate, {}, { token: people.creator, 'space-id': fixture.teamId });
    const own = { token: people.stranger, 'space-id': fixture.strangerTeamId };
    expect((await t.call('/api/athena/v1/team/invite/revoke', { id: invite.body.data.id }, own)).body.code).toBe(40400);
    expect((await t.call('/api/athena/v1/team/member/remove', { user_id: fixture.ids.member }, own)).body.code).toBe(
      40400,
    );
    expect((await t.call('/api/athena/v1/team/transfer', { user_id: fixture.ids.member }, own)).body.code).toBe(40400);
    const list = await t.call(teamRoutes.memberList, {}, own);
    expect(list.body.data.total).toBe(1);
  });
});
