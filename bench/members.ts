// Team member list (search + pagination) for a team of 5,000 members on the embedded database.
// Run: npx tsx bench/members.ts
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig, MIGRATIONS_DIR } from '../apps/server/src/config.ts';
import { openDatabase } from '../apps/server/src/platform/db/database.ts';
import { createDevWechatProvider } from '../apps/server/src/platform/wechat/dev-wechat.ts';
import { tempDataDir } from './support.ts';

const MEMBERS = Number(process.env.BENCH_MEMBERS ?? 5000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 400);

const dataDir = tempDataDir();
const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', SMS_TEST_NUMBERS: '13800000000:246810' });
const database = await openDatabase({ dataDir, migrationsFolder: MIGRATIONS_DIR });
await database.migrate();
const app = await buildApp({
  config,
  database,
  sms: { name: 'dev', sendCode: async () => {} },
  wechat: createDevWechatProvider(config.PUBLIC_URL),
  masterKey: randomBytes(32),
  logger: false,
});
const base = await app.listen({ port: 0, host: '127.0.0.1' });

const post = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return (await res.json()) as { code: number; data: Record<string, unknown> };
};

const token = (await post('/accountv2/login/by_sms', { phone: '13800000000', code: '246810' })).data
  .login_token as string;
const team = (await post('/api/athena/v1/team/create', { name: 'Big team' }, { token })).data.id as string;

// Seed members in bulk with SQL: the benchmark measures reading, not 5,000 sign-ups.
const started = performance.now();
await database.executeSql(
  `insert into users (nickname, phone)
     select (array['张','李','王','赵','陈'])[1 + i % 5] || '同学' || i, '139' || lpad(i::text, 8, '0')
     from generate_series(1, ${MEMBERS}) as i`,
);
await database.executeSql(
  `insert into space_members (space_id, user_id, role, joined_at)
     select '${team}', id, 3, now() - (random() * interval '300 days') from users where phone like '139%'`,
);
await database.executeSql('analyze');
console.log(`seeded ${MEMBERS} members in ${((performance.now() - started) / 1000).toFixed(1)} s`);

const headers = { token, 'space-id': team };
const queries = [
  (i: number) => ({ page: 1 + (i % 250), page_size: 20 }),
  (i: number) => ({ keyword: `同学${i % 1000}`, page: 1, page_size: 20 }),
  (i: number) => ({ keyword: '王', page: 1 + (i % 50), page_size: 20 }),
  (i: number) => ({ keyword: `139000${String(i % 100).padStart(2, '0')}`, page: 1, page_size: 20 }),
];
const names = ['pages', 'nickname search', 'broad search + pages', 'phone search'];

for (let i = 0; i < 20; i++) await post('/api/athena/v1/team/member/list', queries[i % 4](i), headers);
for (const [index, query] of queries.entries()) {
  const times: number[] = [];
  for (let i = 0; i < REQUESTS / queries.length; i++) {
    const t0 = performance.now();
    const res = await post('/api/athena/v1/team/member/list', query(i), headers);
    times.push(performance.now() - t0);
    if (res.code !== 0) throw new Error(`failed: ${JSON.stringify(res)}`);
  }
  times.sort((a, b) => a - b);
  const pct = (p: number) => times[Math.min(times.length - 1, Math.floor(times.length * p))].toFixed(1);
  console.log(
    `${names[index].padEnd(22)} n=${times.length}  p50 ${pct(0.5)} ms  p95 ${pct(0.95)} ms  max ${pct(1)} ms`,
  );
}

await app.close();
await database.close();
rmSync(dataDir, { recursive: true, force: true });
