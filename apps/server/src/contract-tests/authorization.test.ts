import { agentRoutes, type Envelope, ERRORS } from '@athena/contract';
import { type FakeOpenAI, startFakeOpenAI } from '@athena/fake-openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTeam, type TeamFixture } from '../testing/fixtures.ts';
import { createTestApp, type TestApp } from '../testing/test-app.ts';
import { ACCESS, memberRefusal, STRANGER_DEFAULT } from './access-table.ts';
import { type ContractRoute, contractRoutes } from './contract-routes.ts';
import { CAPABILITY, idSlotsOf, NO_OBJECTS_YET, OWN_VALUE, requestSchemasOf, slotKind } from './id-slots.ts';
import { slotFills, uploadBytes, validFields, validValue } from './request-values.ts';
import { SECRET, type SeededTeam, seedTeam } from './seed-team.ts';
import { type Answer, type Attempt, send } from './send.ts';
import { snapshotTeam } from './team-snapshot.ts';

const routes = contractRoutes();
const LOGIN_EXPIRED = ERRORS.LOGIN_EXPIRED.code;
const SPACE_UNAVAILABLE = ERRORS.SPACE_UNAVAILABLE.code;

/** The id slots of a route and how each is treated (id-slots.ts). */
const slotsOf = (route: ContractRoute) =>
  requestSchemasOf(route).flatMap((schema) =>
    idSlotsOf(schema).map((key) => ({ key, kind: slotKind(route.path, key) })),
  );

/** Whether the route names an object of someone else, so a stranger has something to try. */
const takesForeignIds = (route: ContractRoute) => slotsOf(route).some((slot) => slot.kind === 'foreign');

/** The envelope's code, OpenAI's error code on the OpenAI-compatible API, or 0 for a file served. */
function codeOf(answer: Answer): number | string | undefined {
  if (answer.status === 200 && !answer.contentType.startsWith('application/json')) return 0;
  const json = answer.json as (Partial<Envelope> & { error?: { code?: string } }) | undefined;
  return json?.code ?? json?.error?.code;
}

const describeAnswer = (answer: Answer) => `HTTP ${answer.status} ${answer.contentType}: ${answer.text.slice(0, 300)}`;

/**
 * Generated from the contract: every route, tried against team A's objects by people who must not
 * reach them. Signed out (the session is checked), the stranger from their own team with team A's
 * ids (a foreign id answers NOT_FOUND, docs/code-style.md), the stranger naming team A in the
 * `space-id` header (16023), and team A's member on what needs more than a member. Refusals must
 * leak nothing of team A and change nothing of it.
 */
describe('authorization, generated from the contract', () => {
  let fake: FakeOpenAI;
  let t: TestApp;
  let team: TeamFixture;
  let seeded: SeededTeam;
  let strangerKey: string;
  let before: string;

  beforeAll(async () => {
    fake = await startFakeOpenAI({ tokenDelayMs: 0 });
    t = await createTestApp({
      jobs: true,
      env: { ALLOW_PRIVATE_MODEL_ENDPOINTS: 'true', MODEL_TEST_TIMEOUT_MS: '3000', SMS_DAILY_LIMIT_PER_IP: '100000' },
    });
    team = await buildTeam(t, { phonePrefix: '137000000', name: `${SECRET} team` });
    seeded = await seedTeam(t, team, fake);
    // The stranger's own agent and API key, for the OpenAI-compatible API.
    const mine = team.as(team.stranger, team.strangerTeamId);
    const agent = (await t.call(agentRoutes.create, { name: 'Stranger agent' }, mine)).body.data;
    strangerKey = (await t.call(agentRoutes.apiKeyCreate, { agent_id: agent.id, name: 'Mine' }, mine)).body.data.key;
    before = await snapshotTeam(t, team, seeded.objects);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  it('knows every route: a role for each, and a seeded object or a reason for each id slot', () => {
    const problems: string[] = [];
    for (const route of routes) {
      if (!ACCESS[route.path]) problems.push(`${route.path}: no entry in access-table.ts`);
      for (const slot of slotsOf(route)) {
        if (slot.kind === 'unmapped') problems.push(`${route.path}: id slot "${slot.key}" maps to no seeded object`);
      }
    }
    for (const name of [...Object.keys(OWN_VALUE), ...Object.keys(CAPABILITY), ...Object.keys(NO_OBJECTS_YET)]) {
      const [path, key] = name.split(' ');
      const route = routes.find((r) => r.path === path);
      if (!route || !slotsOf(route).some((slot) => slot.key === key)) problems.push(`${name}: no such route and slot`);
    }
    for (const path of Object.keys(ACCESS)) {
      if (!routes.some((route) => route.path === path))
        problems.push(`${path}: in access-table.ts, not in the contract`);
    }
    expect(problems).toEqual([]);
  });

  /** A valid request of this route as `headers`, with team A's objects in every id slot. */
  function attemptFor(route: ContractRoute, headers: Record<string, string>): Attempt {
    const fields = { ...validFields(fake.url), ...slotFills(route, seeded.objects) };
    if (route.kind === 'upload') {
      return {
        headers: {
          ...headers,
          ...(validValue(route.descriptor.headers, fields, route.path) as Record<string, string>),
        },
        query: validValue(route.descriptor.query, fields, route.path) as Record<string, unknown>,
        bytes: uploadBytes(route),
      };
    }
    return { headers, body: validValue(route.body, fields, route.path) ?? {} };
  }

  /** The answer is a refusal with one of these codes and carries nothing of team A. */
  function expectRefusal(route: ContractRoute, who: string, answer: Answer, codes: (number | string)[]) {
    const code = codeOf(answer);
    expect(codes.includes(code as number), `${who} on ${route.path}: ${describeAnswer(answer)}`).toBe(true);
    expect(answer.status, `${who} on ${route.path}`).toBeLessThan(500);
    // A filter that matched nothing of theirs; a file (an export) is still read for team A's data.
    if (code === 0 && answer.contentType.startsWith('application/json')) return;
    const leaked = seeded.secrets.filter((secret) => answer.text.includes(secret));
    expect(leaked, `${who} on ${route.path} saw team A's data: ${describeAnswer(answer)}`).toEqual([]);
  }

  it.each(routes.map((route) => [route.path, route] as const))('%s refuses outsiders', async (_path, route) => {
    const access = ACCESS[route.path];
    expect(access, `${route.path} has no entry in access-table.ts`).toBeDefined();
    const { objects } = seeded;

    // Signed out: a session is needed before anything else (the OpenAI API: an API key).
    if (access.need === 'api_key') {
      const answer = await send(t, route, attemptFor(route, {}));
      expect(answer.status).toBe(401);
      expectRefusal(route, 'no API key', answer, ['invalid_api_key']);
    } else if (route.auth !== false) {
      expectRefusal(route, 'signed out', await send(t, route, attemptFor(route, {})), [LOGIN_EXPIRED]);
      // The stranger naming team A as their space is refused before the route runs.
      const inA = await send(t, route, attemptFor(route, team.as(team.stranger, objects.teamId)));
      expectRefusal(route, 'stranger in team A’s space', inA, [SPACE_UNAVAILABLE]);
    }

    // The stranger, from their own team, with team A's ids.
    if (access.need === 'api_key') {
      const answer = await send(t, route, attemptFor(route, { authorization: `Bearer ${strangerKey}` }));
      expect(answer.status).toBe(404);
      expectRefusal(route, 'stranger’s own key', answer, ['model_not_found']);
    } else if (takesForeignIds(route)) {
      const headers = route.auth === false ? {} : team.as(team.stranger, team.strangerTeamId);
      const answer = await send(t, route, attemptFor(route, headers));
      expectRefusal(route, 'stranger', answer, access.stranger ?? STRANGER_DEFAULT);
    }

    // Team A's member, on what needs more than a member, against the creator's objects.
    const refusal = access.member ?? memberRefusal(access.need);
    if (refusal !== null) {
      const answer = await send(t, route, attemptFor(route, team.as(team.member)));
      const code = codeOf(answer);
      expect(code, `member on ${route.path}: ${describeAnswer(answer)}`).toBe(refusal);
      if (access.need === 'private') {
        const leaked = seeded.secrets.filter((secret) => answer.text.includes(secret));
        expect(leaked, `member on ${route.path}: ${describeAnswer(answer)}`).toEqual([]);
      }
    }

    // A member may call it, but another person's own objects stay out of the answer.
    if (access.privateTo) {
      const answer = await send(t, route, attemptFor(route, team.as(team.member)));
      expect(codeOf(answer), `member on ${route.path}: ${describeAnswer(answer)}`).toBe(0);
      expect(answer.text, `member on ${route.path}`).not.toContain(objects.conversation);
    }

    // Nothing of team A changed.
    const after = await snapshotTeam(t, team, objects);
    if (after !== before) expect(JSON.parse(after), `${route.path} changed team A`).toEqual(JSON.parse(before));
  });
});
