import { authRoutes, type Envelope, teamRoutes } from '@athena/contract';
import type { TestApp } from './test-app.ts';

const API = '/api/athena/v1';

/** Session tokens of the four people every team test needs. */
export interface People {
  creator: string;
  admin: string;
  member: string;
  stranger: string;
}

/** A team of creator, admin and member, and a stranger who is not in it; tokens at the top level. */
export interface TeamFixture extends People {
  teamId: string;
  ids: Record<keyof People, string>;
  /** The stranger's own team: they are a creator there, never here. */
  strangerTeamId: string;
  /** Headers for a token in this team, or in another space. */
  as(token: string, space?: string): Record<string, string>;
}

export interface TeamOptions {
  /** People already signed in, when one test app builds many teams for the same four. */
  people?: People;
  /** Signs in new people as `${phonePrefix}01` to `${phonePrefix}04` (ignored with `people`). */
  phonePrefix?: string;
  name?: string;
}

const ok = async <T>(result: Promise<{ body: Envelope<T> }>) => {
  const { body } = await result;
  if (body.code !== 0) throw new Error(`fixture call failed: ${body.code} ${body.msg}`);
  return body.data;
};

/** Signs in creator, admin, member and stranger through the real SMS sign-in. */
export async function signInPeople(t: TestApp, phonePrefix = '131000000'): Promise<People> {
  return {
    creator: await t.signInBySms(`${phonePrefix}01`),
    admin: await t.signInBySms(`${phonePrefix}02`),
    member: await t.signInBySms(`${phonePrefix}03`),
    stranger: await t.signInBySms(`${phonePrefix}04`),
  };
}

/**
 * A fresh team built through the real API: the creator makes it, admin and member join by invite
 * and the admin is promoted; the stranger makes a team of their own, so cross-team ids can be
 * tried from a space they really hold.
 */
export async function buildTeam(t: TestApp, options: TeamOptions = {}): Promise<TeamFixture> {
  const people = options.people ?? (await signInPeople(t, options.phonePrefix));
  const headers = (token: string, space?: string) => ({ token, ...(space ? { 'space-id': space } : {}) });
  const team = await ok(t.call(teamRoutes.create, { name: options.name ?? 'Test team' }, headers(people.creator)));
  const invite = await ok(t.call(teamRoutes.inviteCreate, { max_uses: 'unlimited' }, headers(people.creator, team.id)));
  for (const token of [people.admin, people.member]) {
    await ok(t.call(`${API}/invite/accept`, { code: invite.code }, headers(token)));
  }
  const strangerTeam = await ok(t.call(teamRoutes.create, { name: 'Other' }, headers(people.stranger)));
  const idOf = async (token: string) => (await ok(t.call(authRoutes.userInfo, {}, headers(token)))).id;
  const ids = {
    creator: await idOf(people.creator),
    admin: await idOf(people.admin),
    member: await idOf(people.member),
    stranger: await idOf(people.stranger),
  };
  await ok(t.call(`${API}/team/member/update_role`, { user_id: ids.admin, role: 2 }, headers(people.creator, team.id)));
  return {
    ...people,
    teamId: team.id,
    ids,
    strangerTeamId: strangerTeam.id,
    as: (token, space = team.id) => headers(token, space),
  };
}
