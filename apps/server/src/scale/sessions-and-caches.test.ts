import { readFileSync } from 'node:fs';
import type { Agent, agentRoutes, RouteData } from '@athena/contract';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { MIGRATIONS_DIR } from '../config.ts';
import { API, NOTIFY_DELAY, startTwoProcesses, type TwoProcesses } from './two-processes.ts';

/** Two processes on one PostgreSQL server: what one writes, the other sees at once (docs/postgres.md). */
describe('two processes on one PostgreSQL server: start, sessions and caches', () => {
  let two: TwoProcesses;
  beforeAll(async () => {
    two = await startTwoProcesses();
  });
  afterAll(async () => {
    // A clean stop: HTTP closed, workers handed their work back, pg-boss and the pool ended.
    if (two) expect(await two.stop()).toEqual([0, 0]);
  });

  it('migrates a fresh database once while both start, and says that pgvector is missing', async () => {
    const journal = JSON.parse(readFileSync(`${MIGRATIONS_DIR}/meta/_journal.json`, 'utf8')) as { entries: unknown[] };
    const [{ n }] = await two.rows<{ n: number }>('SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations');
    expect(n).toBe(journal.entries.length);
    const [state] = await two.rows<{ vector: boolean; vectors_table: string | null }>(
      `SELECT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'vector') AS vector,
              to_regclass('knowledge_vectors')::text AS vectors_table`,
    );
    expect(state).toEqual({ vector: false, vectors_table: null });
    for (const server of [two.a, two.b]) expect(server.output()).toContain('pgvector is not installed');
  });

  describe('sessions and caches', () => {
    it('signs in on A and uses the session on B; a sign-out on A is refused on B as soon as its NOTIFY arrives', async () => {
      const token = await two.a.signIn('13900000001');
      const onB = await two.b.call<{ id: string }>('/accountv2/user/info', {}, { token });
      expect(onB.code).toBe(0);
      expect((await two.a.call('/accountv2/user/info', {}, { token })).data).toEqual(onB.data);
      expect((await two.a.call('/accountv2/login/logout', {}, { token })).code).toBe(0);
      await expect
        .poll(async () => (await two.b.call('/accountv2/user/info', {}, { token })).code, NOTIFY_DELAY)
        .toBe(10001);
    });

    it("sees a member's role changed or removed on A on B as soon as the NOTIFY arrives", async () => {
      const team = await two.buildTeam('1390000001');
      const roleOnB = async (token: string) =>
        (await two.b.call<{ role: number }>(`${API}/team/permissions`, {}, team.as(token))).data?.role;
      // B reads (and caches) the memberships first.
      expect(await roleOnB(team.admin)).toBe(2);
      expect(await roleOnB(team.member)).toBe(3);

      const demoted = await two.a.call(
        `${API}/team/member/update_role`,
        { user_id: team.ids.admin, role: 3 },
        team.as(team.creator),
      );
      expect(demoted.code).toBe(0);
      await expect.poll(() => roleOnB(team.admin), NOTIFY_DELAY).toBe(3);
      expect((await two.b.call(`${API}/team/invite/create`, { max_uses: 'unlimited' }, team.as(team.admin))).code).toBe(
        40300,
      );

      const removed = await two.a.call(
        `${API}/team/member/remove`,
        { user_id: team.ids.member },
        team.as(team.creator),
      );
      expect(removed.code).toBe(0);
      await expect
        .poll(async () => (await two.b.call(`${API}/team/permissions`, {}, team.as(team.member))).code, NOTIFY_DELAY)
        .toBe(16023);
    });

    it("stops a team's share link and agent API key on B once the team is dissolved on A", async () => {
      const team = await two.buildTeam('1390000002', 'Doomed');
      const inTeam = team.as(team.creator);
      const key = await two.a.call(
        `${API}/model_key/create`,
        { model_name: 'Chat', version: 'fake-chat', base_url: two.fake.url, api_key: two.fake.apiKey },
        inTeam,
      );
      expect(key.code).toBe(0);
      const agent = (await two.a.call<Agent>(`${API}/agent/create`, { name: 'Helper' }, inTeam)).data;
      const shared = await two.a.call<RouteData<typeof agentRoutes.share>>(
        `${API}/agent/share`,
        { id: agent.id, enabled: true },
        inTeam,
      );
      const shareCode = shared.data.url?.split('/').pop() ?? '';
      const apiKey = (
        await two.a.call<RouteData<typeof agentRoutes.apiKeyCreate>>(
          `${API}/agent/api_key/create`,
          { agent_id: agent.id, name: 'crm' },
          inTeam,
        )
      ).data.key;
      const shareInfoOnB = async () => (await two.b.call(`${API}/share/info`, { code: shareCode })).code;
      const askB = () =>
        fetch(`${two.b.url}/v1/chat/completions`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` },
          body: JSON.stringify({ model: agent.public_id, messages: [{ role: 'user', content: 'hi' }] }),
        });
      expect(await shareInfoOnB()).toBe(0);
      const answer = await askB();
      expect(answer.status).toBe(200);
      expect(
        ((await answer.json()) as { choices: { message: { content: string } }[] }).choices[0].message.content,
      ).toBe('Echo: hi');

      expect((await two.a.call(`${API}/team/dissolve`, { confirm_name: 'Doomed' }, inTeam)).code).toBe(0);
      expect(await shareInfoOnB()).toBe(40096);
      expect((await askB()).status).toBe(401);
    });
  });

  describe('when PostgreSQL drops every connection and refuses new ones for a while', () => {
    it('both keep serving, and listen again so a sign-out on A is refused on B as soon as its NOTIFY arrives', async () => {
      const listening = async () =>
        (
          await two.rows<{ pid: number }>(
            // One connection per process listens on both channels (cache keys, then events).
            `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN athena_%'`,
          )
        ).map((row) => row.pid);
      const before = await listening();
      expect(before).toHaveLength(2);
      // Every connection cut, and none let in for a while: a first try to listen again fails.
      const [{ name }] = await two.rows<{ name: string }>('SELECT current_database() AS name');
      const admin = new pg.Client({ connectionString: inject('postgresAdminUrl') });
      await admin.connect();
      await admin.query(`ALTER DATABASE ${name} WITH ALLOW_CONNECTIONS false`);
      await two.rows(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
         WHERE datname = current_database() AND pid <> pg_backend_pid()`,
      );
      await new Promise((resolve) => setTimeout(resolve, 1500));
      await admin.query(`ALTER DATABASE ${name} WITH ALLOW_CONNECTIONS true`);
      await admin.end();
      // Each process listens again on a new connection.
      await expect
        .poll(async () => (await listening()).filter((pid) => !before.includes(pid)).length, {
          timeout: 15_000,
          interval: 100,
        })
        .toBe(2);
      const token = await two.a.signIn('13900000041');
      expect((await two.b.call('/accountv2/user/info', {}, { token })).code).toBe(0);
      expect((await two.a.call('/accountv2/login/logout', {}, { token })).code).toBe(0);
      await expect
        .poll(async () => (await two.b.call('/accountv2/user/info', {}, { token })).code, NOTIFY_DELAY)
        .toBe(10001);
    });
  });
});
