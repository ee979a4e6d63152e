import type { TestApp } from '../../testing/test-app.ts';

export interface People {
  creator: string;
  admin: string;
  member: string;
  stranger: string;
}

export interface TeamFixture {
  teamId: string;
  ids: Record<keyof People, string>;
  /** The stranger's own team: they are a creator there, never here. */
  strangerTeamId: string;
}

type Call = TestApp['call'];

const ok = async <T>(result: Promise<{ body: { code: number; msg: string; data: T } }>) => {
  const { body } = await result;
  if (body.code !== 0) throw new Error(`fixture call failed: ${body.code} ${body.msg}`);
  return body.data;
};

/** Signs in the four people of the permission matrix (once per test app). */
export async function signInPeople(t: TestApp): Promise<People> {
  return {
    creator: await t.signInBySms('13100000001'),
    admin: await t.signInBySms('13100000002'),
    member: await t.signInBySms('13100000003'),
    stranger: await t.signInBySms('13100000004'),
  };
}

/** A fresh team built through the real API: creator, an admin and a member joined by invite. */
export async function buildTeam(call: Call, people: People, name = 'Matrix team'): Promise<TeamFixture> {
  const as = (token: string, teamId?: string) => ({ token, ...(teamId ? { 'space-id': teamId } : {}) });
  const team = await ok(call<{ id: string }>('/api/athena/v1/team/create', { name }, as(people.creator)));
  const invite = await ok(
    call<{ code: string }>('/api/athena/v1/team/invite/create', { max_uses: 'unlimited' }, as(people.creator, team.id)),
  );
  for (const token of [people.admin, people.member]) {
    await ok(call('/api/athena/v1/invite/accept', { code: invite.code }, as(token)));
  }
  const strangerTeam = await ok(
    call<{ id: string }>('/api/athena/v1/team/create', { name: 'Other' }, as(people.stranger)),
  );
  const idOf = async (token: string) => (await ok(call<{ id: string }>('/accountv2/user/info', {}, as(token)))).id;
  const ids = {
    creator: await idOf(people.creator),
    admin: await idOf(people.admin),
    member: await idOf(people.member),
    stranger: await idOf(people.stranger),
  };
  await ok(
    call('/api/athena/v1/team/member/update_role', { user_id: ids.admin, role: 2 }, as(people.creator, team.id)),
  );
  return { teamId: team.id, ids, strangerTeamId: strangerTeam.id };
}
