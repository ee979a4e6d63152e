import { randomBytes } from 'node:crypto';
import { type FakeOpenAI, startFakeOpenAI } from '@athena/fake-openai';
import pg from 'pg';
import { expect, inject } from 'vitest';
import { type AthenaProcess, startAthena } from '../testing/athena-process.ts';
import { startFakeS3 } from '../testing/fake-s3.ts';

export const API = '/api/athena/v1';

/**
 * How long another process may still answer from its cache after a write: the time PostgreSQL
 * takes to pass the writer's NOTIFY on (up to ~15 ms measured on the loaded 2-core machine). A
 * second is generous, and far below the caches' 60-s TTL, which is what a lost message would cost.
 */
export const NOTIFY_DELAY = { timeout: 1000, interval: 5 };
export type Headers = Record<string, string>;

export interface TwoProcesses {
  a: AthenaProcess;
  b: AthenaProcess;
  /** The OpenAI-compatible fake both reach (model keys point at it). */
  fake: FakeOpenAI;
  /** Rows of a query on the shared database, for what no API shows (pg-boss's tables, the catalogue). */
  rows<T>(text: string, values?: unknown[]): Promise<T[]>;
  /** A team made on A: creator, admin and member signed in on either process, through the real API. */
  buildTeam(phonePrefix: string, name?: string): Promise<Team>;
  /** Stops both (SIGTERM) and returns their exit codes. */
  stop(): Promise<(number | null)[]>;
}

export interface Team {
  teamId: string;
  creator: string;
  admin: string;
  member: string;
  ids: { admin: string; member: string };
  as(token: string): Headers;
}

/**
 * Two Athena processes sharing a fresh database on the tier's PostgreSQL server (no pgvector), as
 * behind a load balancer: the same DATABASE_URL, ATHENA_MASTER_KEY and object storage (a loopback
 * S3 bucket: two machines share no disk), each with its own port and data directory. Both start
 * at once on the empty database, as a deployment of several processes does.
 */
export async function startTwoProcesses(extraEnv: Record<string, string> = {}): Promise<TwoProcesses> {
  const adminUrl = inject('postgresAdminUrl');
  const name = `athena_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const databaseUrl = adminUrl.replace(/\/postgres$/, `/${name}`);
  const sql = new pg.Client({ connectionString: databaseUrl });
  await sql.connect();

  const fake = await startFakeOpenAI();
  const bucket = { accessKeyId: 'scale-key', secretAccessKey: 'scale-secret', bucket: 'athena' };
  const s3 = await startFakeS3(bucket);
  const env = {
    DATABASE_URL: databaseUrl,
    ATHENA_MASTER_KEY: randomBytes(32).toString('base64'),
    STORAGE_URL: `http://${bucket.accessKeyId}:${bucket.secretAccessKey}@${new URL(s3.url).host}/${bucket.bucket}`,
    ALLOW_PRIVATE_MODEL_ENDPOINTS: 'true',
    SMS_DAILY_LIMIT_PER_IP: '1000',
    ...extraEnv,
  };
  const started = await Promise.allSettled([startAthena('a', env), startAthena('b', env)]);
  const failed = started.find((result) => result.status === 'rejected');
  if (failed) {
    // Leave no server running behind a failed start.
    for (const result of started) if (result.status === 'fulfilled') await result.value.stop();
    await Promise.all([sql.end(), fake.close(), s3.close()]);
    throw failed.reason;
  }
  const [a, b] = started.map((result) => (result as PromiseFulfilledResult<AthenaProcess>).value);

  async function buildTeam(phonePrefix: string, teamName = 'Scale team'): Promise<Team> {
    const creator = await a.signIn(`${phonePrefix}1`);
    const adminToken = await b.signIn(`${phonePrefix}2`);
    const member = await a.signIn(`${phonePrefix}3`);
    const created = await a.call<{ id: string }>(`${API}/team/create`, { name: teamName }, { token: creator });
    const teamId = created.data.id;
    const as = (token: string): Headers => ({ token, 'space-id': teamId });
    const invite = await a.call<{ code: string }>(`${API}/team/invite/create`, { max_uses: 'unlimited' }, as(creator));
    for (const token of [adminToken, member]) {
      expect((await b.call(`${API}/invite/accept`, { code: invite.data.code }, { token })).code).toBe(0);
    }
    const idOf = async (token: string) => (await a.call<{ id: string }>('/accountv2/user/info', {}, { token })).data.id;
    const ids = { admin: await idOf(adminToken), member: await idOf(member) };
    const promoted = await a.call(`${API}/team/member/update_role`, { user_id: ids.admin, role: 2 }, as(creator));
    expect(promoted.code).toBe(0);
    return { teamId, creator, admin: adminToken, member, ids, as };
  }

  return {
    a,
    b,
    fake,
    rows: async (text, values = []) => (await sql.query(text, values)).rows,
    buildTeam,
    async stop() {
      const codes = await Promise.all([a.stop(), b.stop()]);
      await sql.end();
      await fake.close();
      await s3.close();
      return codes;
    },
  };
}
