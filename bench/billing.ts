// The billing ledger under contention and payment notifications under duplication (docs/billing.md),
// through the product's real HTTP API on real product processes (scripts/start.mjs, as `npm start`):
// 1. concurrent debits on one team: BENCH_DEBITS (1 000) operator adjustments of −1 fen
//    (`billingUsageRoutes.operatorAdjust`), BENCH_IN_FLIGHT (200) at a time, on a team recharged
//    through the dev cashier with BENCH_START_FEN (2 000) fen, then again on a team holding only
//    BENCH_SHORT_FEN (900) fen, where the rest must be refused with BALANCE_INSUFFICIENT (40600);
//    debits/s and latency p50/p99. Each of the BENCH_IN_FLIGHT clients has its own keep-alive
//    connection to each process, opened before the clock starts (BENCH_FRESH_CONNECTIONS=1: plain
//    `fetch`, which opens connections as the debits go out); a warm-up team takes 200 debits first;
// 2. one WeChat Pay order's paid notification, the same signed bytes BENCH_NOTICES (100) times:
//    first spread over one second (a tenth every 100 ms), then, for a second order, all at once;
//    each POST's latency p50/p99 and exactly one credit.
// Embedded (PGlite): one process. With BENCH_DATABASE_URL: two processes sharing that PostgreSQL
// database, as behind a load balancer; debits and notices alternate between them.
// Then it checks on the database itself (PostgreSQL: while the processes run; PGlite: after the
// process stopped, by opening its data directory): `spaces.balance` = sum of the team's
// `ledger_entries.amount` = start − successful debits, one ledger entry and one audit line per
// successful debit, no `balance_after` below 0, each entry's `balance_after` = the one before +
// its amount (in id order, which is lock order), one `recharge:<order>` entry per order.
// The WeChat Pay API is the local fake (apps/server/src/testing/fake-wechat-pay.ts) in this process.
//
// Run: npx tsx bench/billing.ts                                                      (embedded)
//      BENCH_DATABASE_URL=postgres://athena@127.0.0.1:5497/athena_billing npx tsx bench/billing.ts
// A throw-away PostgreSQL server for that (Debian's postgresql-15, as the user postgres; each run
// makes new teams, so the database may be reused):
//      su postgres -c '/usr/lib/postgresql/15/bin/initdb -D /tmp/pgbilling -U athena --auth=trust'
//      su postgres -c "/usr/lib/postgresql/15/bin/pg_ctl -D /tmp/pgbilling -l /tmp/pgbilling/log \
//        -o '-p 5497 -c listen_addresses=127.0.0.1 -c unix_socket_directories=/tmp' start"
//      su postgres -c '/usr/lib/postgresql/15/bin/createdb -h 127.0.0.1 -p 5497 -U athena athena_billing'
//      … and afterwards: su postgres -c '/usr/lib/postgresql/15/bin/pg_ctl -D /tmp/pgbilling stop'
// Settings: BENCH_DEBITS (1000), BENCH_IN_FLIGHT (200), BENCH_START_FEN (2000), BENCH_SHORT_FEN (900),
// BENCH_NOTICES (100), BENCH_NOTICE_AMOUNT (1000 fen),
// BENCH_FRESH_CONNECTIONS (0).
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  authRoutes,
  billingRoutes,
  billingUsageRoutes,
  type Envelope,
  type RechargeOrder,
  teamRoutes,
} from '@athena/contract';
import pg from 'pg';
import { Client } from 'undici';
import { MIGRATIONS_DIR } from '../apps/server/src/config.ts';
import { openDatabase } from '../apps/server/src/platform/db/database.ts';
import { type AthenaProcess, startAthena } from '../apps/server/src/testing/athena-process.ts';
import { startFakeWechatPay } from '../apps/server/src/testing/fake-wechat-pay.ts';
import { beijing, digits } from '../apps/server/src/testing/fake-wechat-pay-orders.ts';

const DATABASE_URL = process.env.BENCH_DATABASE_URL;
const DEBITS = Number(process.env.BENCH_DEBITS ?? 1000);
const IN_FLIGHT = Number(process.env.BENCH_IN_FLIGHT ?? 200);
const START_FEN = Number(process.env.BENCH_START_FEN ?? 2000);
const SHORT_FEN = Number(process.env.BENCH_SHORT_FEN ?? 900);
const NOTICES = Number(process.env.BENCH_NOTICES ?? 100);
const NOTICE_AMOUNT = Number(process.env.BENCH_NOTICE_AMOUNT ?? 1000);
const OPERATOR = '13599999999';
const CREATOR = '13500000001';
const CODE = '246810';
const BALANCE_INSUFFICIENT = 40600;

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};
const ms = (value: number) => `${value.toFixed(1)} ms`;
const spread = (values: number[]) =>
  `p50 ${ms(percentile(values, 50))}, p99 ${ms(percentile(values, 99))}, max ${ms(Math.max(0, ...values))}`;
const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));
const load = () =>
  os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');
const failures: string[] = [];
const check = (what: string, ok: boolean, detail = '') => {
  console.log(`  ${ok ? 'ok  ' : 'FAIL'} ${what}${detail ? ` (${detail})` : ''}`);
  if (!ok) failures.push(what);
};

console.log(
  `billing bench: ${DATABASE_URL ? 'PostgreSQL, two processes' : 'embedded PGlite, one process'}; ` +
    `${os.cpus().length} cores, Node ${process.version}, load ${load()}`,
);

// The fake WeChat Pay, and the product process(es) pointed at it.
const fake = await startFakeWechatPay();
const embeddedDir = DATABASE_URL ? null : mkdtempSync(path.join(os.tmpdir(), 'athena-bench-billing-'));
const env: Record<string, string> = {
  LOG_LEVEL: 'warn',
  DATABASE_URL: DATABASE_URL ?? '',
  // Processes sharing a database must share the key that seals secrets in it.
  ATHENA_MASTER_KEY: randomBytes(32).toString('base64'),
  SMS_TEST_NUMBERS: `${OPERATOR}:${CODE},${CREATOR}:${CODE}`,
  OPERATOR_PHONES: OPERATOR,
  PAYMENT_CHANNELS: 'wechat,dev',
  WECHAT_PAY_API_BASE: fake.url,
  WECHAT_PAY_MCH_ID: fake.mchId,
  WECHAT_PAY_APP_ID: fake.appId,
  WECHAT_PAY_SERIAL_NO: fake.merchantSerialNo,
  WECHAT_PAY_PRIVATE_KEY: fake.merchantPrivateKeyPem,
  WECHAT_PAY_API_V3_KEY: fake.apiV3Key,
  WECHAT_PAY_PUBLIC_KEY_ID: fake.platformKeys.publicKeyId,
  WECHAT_PAY_PUBLIC_KEY: fake.platformKeys.publicKeyPem,
};
// Whatever happens, no product process outlives the bench (stop() signals synchronously).
const running: AthenaProcess[] = [];
process.on('exit', () => {
  for (const p of running) void p.stop();
  if (embeddedDir) rmSync(embeddedDir, { recursive: true, force: true });
});
const start = async (name: string, options: { dataDir?: string } = {}) => {
  const started = await startAthena(name, env, options);
  running.push(started);
  return started;
};
const startedAt = performance.now();
const processes: AthenaProcess[] = DATABASE_URL
  ? await Promise.all([start('a'), start('b')])
  : [await start('embedded', { dataDir: embeddedDir as string })];
console.log(`${processes.length} process(es) up in ${((performance.now() - startedAt) / 1000).toFixed(1)} s`);
const [a] = processes;

async function ok<T>(answer: Promise<Envelope<T>>, what: string): Promise<T> {
  const body = await answer;
  if (body.code !== 0) throw new Error(`${what}: ${body.code} ${body.msg}`);
  return body.data;
}
const signIn = async (phone: string) =>
  (await ok(a.call<{ login_token: string }>(authRoutes.bySms.path, { phone, code: CODE }), `sign-in ${phone}`))
    .login_token;
const operator = await signIn(OPERATOR);
const creator = await signIn(CREATOR);
const newTeam = async (name: string) =>
  (await ok(a.call<{ id: string }>(teamRoutes.create.path, { name }, { token: creator }), 'team/create')).id;
const asCreator = (team: string) => ({ token: creator, 'space-id': team });

/** Recharges through the dev cashier, as an offline installation's payer would. */
async function recharge(team: string, amount: number) {
  const order = await ok(
    a.call<RechargeOrder>(billingRoutes.rechargeCreate.path, { amount, channel: 'dev' }, asCreator(team)),
    'recharge/create',
  );
  await ok(a.call(billingRoutes.devCashierPay.path, { order_no: order.order_no }), 'dev-cashier/pay');
  return order.order_no;
}

interface Debit {
  /** When it was sent, ms after the run's first. */
  at: number;
  ms: number;
  code: number;
  balance?: number;
  process: number;
}

/**
 * The debiting clients: IN_FLIGHT of them, each with one keep-alive connection to each process,
 * opened before any clock starts (BENCH_FRESH_CONNECTIONS=1: `fetch` instead, whose connections
 * are opened as the first debits go out; see docs/benchmarks.md for what that costs embedded).
 */
const FRESH = process.env.BENCH_FRESH_CONNECTIONS === '1';
const clients = FRESH ? [] : Array.from({ length: IN_FLIGHT }, () => processes.map((p) => new Client(p.url)));
await Promise.all(
  clients.flat().map(async (client) => {
    const answer = await client.request({ path: '/api/athena/v1/platform/info', method: 'POST' });
    await answer.body.text();
  }),
);

async function adjust(slot: number, target: number, body: unknown): Promise<Envelope<{ balance: number }>> {
  const headers = { 'content-type': 'application/json', token: operator };
  const path = billingUsageRoutes.operatorAdjust.path;
  if (FRESH) return processes[target].call(path, body, { token: operator });
  const answer = await clients[slot][target].request({ path, method: 'POST', headers, body: JSON.stringify(body) });
  return (await answer.body.json()) as Envelope<{ balance: number }>;
}

/** `count` debits of 1 fen from `inFlight` clients at a time, alternating between the processes. */
async function debit(team: string, count: number, inFlight: number, label: string) {
  const results: Debit[] = [];
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: Math.min(inFlight, count) }, async (_, slot) => {
      while (next < count) {
        const i = next++;
        const target = i % processes.length;
        const sent = performance.now();
        let answer: Envelope<{ balance: number }>;
        try {
          answer = await adjust(slot, target, {
            space_id: team,
            amount: -1,
            reason: `${label} ${i}`,
            request_id: randomUUID(),
          });
        } catch (error) {
          answer = { code: -1, msg: String(error), data: { balance: Number.NaN } };
        }
        results.push({
          at: sent - t0,
          ms: performance.now() - sent,
          code: answer.code,
          balance: answer.code === 0 ? answer.data.balance : undefined,
          process: target,
        });
      }
    }),
  );
  return { results, seconds: (performance.now() - t0) / 1000 };
}

/** The product's own view: the summary's balance and the ledger's count. */
async function productView(team: string) {
  const summary = await ok(a.call<{ balance: number }>(billingRoutes.summary.path, {}, asCreator(team)), 'summary');
  const ledger = await ok(
    a.call<{ total: number; items: unknown[] }>(billingRoutes.ledgerList.path, { page_size: 1 }, asCreator(team)),
    'ledger/list',
  );
  return { balance: summary.balance, entries: ledger.total };
}

interface DebitRun {
  label: string;
  team: string;
  start: number;
  results: Debit[];
  seconds: number;
  view: { balance: number; entries: number };
}

function reportDebits(run: DebitRun) {
  const { results, seconds } = run;
  const succeeded = results.filter((r) => r.code === 0);
  const refused = results.filter((r) => r.code === BALANCE_INSUFFICIENT);
  const other = results.filter((r) => r.code !== 0 && r.code !== BALANCE_INSUFFICIENT);
  const otherCodes = [...new Set(other.map((r) => r.code))].join(', ');
  console.log(
    `\n${run.label}: ${results.length} debits of 1 fen from ${run.start} fen, ${Math.min(IN_FLIGHT, DEBITS)} in flight ` +
      `(${FRESH ? 'fetch, new connections' : 'pre-connected clients'}) over ` +
      `${processes.length} process(es): ${succeeded.length} succeeded, ${refused.length} refused with 40600, ` +
      `${other.length} other errors${other.length ? ` (codes ${otherCodes})` : ''}`,
  );
  console.log(
    `  ${seconds.toFixed(2)} s: ${(results.length / seconds).toFixed(0)} answered/s, ` +
      `${(succeeded.length / seconds).toFixed(0)} debits/s; latency all ${spread(results.map((r) => r.ms))}`,
  );
  if (succeeded.length && refused.length) {
    console.log(`  succeeded ${spread(succeeded.map((r) => r.ms))}; refused ${spread(refused.map((r) => r.ms))}`);
  }
  // Where the slowest 1 % sat in the run: the first ones sent, or late ones waiting behind others.
  const slowest = [...results].sort((x, y) => y.ms - x.ms).slice(0, Math.max(1, Math.floor(results.length / 100)));
  console.log(
    `  slowest 1 %: sent ${ms(Math.min(...slowest.map((r) => r.at)))}–${ms(Math.max(...slowest.map((r) => r.at)))} ` +
      `after the start, ${slowest.filter((r) => r.code === 0).length} of them succeeded`,
  );
  if (processes.length > 1) {
    for (const [index, p] of processes.entries()) {
      const mine = results.filter((r) => r.process === index);
      console.log(
        `  process ${p.name}: ${mine.filter((r) => r.code === 0).length} succeeded, ${spread(mine.map((r) => r.ms))}`,
      );
    }
  }
  const expected = Math.min(run.start, results.length);
  check(`${expected} debits succeed`, succeeded.length === expected, `${succeeded.length}`);
  check(
    `${results.length - expected} refused with BALANCE_INSUFFICIENT and nothing else`,
    refused.length === results.length - expected && other.length === 0,
    `${refused.length} refused, ${other.length} other`,
  );
  const balances = new Set(succeeded.map((r) => r.balance));
  check(
    'every successful debit answered a different balance, none negative',
    balances.size === succeeded.length && succeeded.every((r) => (r.balance ?? -1) >= 0),
    `${balances.size} distinct, lowest ${Math.min(...succeeded.map((r) => r.balance ?? -1))}`,
  );
  check(
    'the summary shows start − successful debits',
    run.view.balance === run.start - succeeded.length,
    `${run.view.balance}`,
  );
}

// A warm-up on a team of its own, not measured: both processes load their code paths and caches.
const warmTeam = await newTeam('Warm-up');
await recharge(warmTeam, 200);
await debit(warmTeam, 200, FRESH ? Math.min(50, IN_FLIGHT) : IN_FLIGHT, 'warm-up debit');

// 1. Debits.
const runs: DebitRun[] = [];
for (const [label, start] of [
  ['enough balance', START_FEN],
  ['short balance', SHORT_FEN],
] as const) {
  const team = await newTeam(`Debits, ${label}`);
  await recharge(team, start);
  const { results, seconds } = await debit(team, DEBITS, IN_FLIGHT, `bench debit (${label})`);
  const run = { label, team, start, results, seconds, view: await productView(team) };
  runs.push(run);
  reportDebits(run);
}

// 2. One paid order's notification, the same bytes many times.
interface Storm {
  label: string;
  team: string;
  orderNo: string;
  orderId: string;
  latencies: number[];
  statuses: number[];
  seconds: number;
}
const storms: Storm[] = [];
for (const mode of ['spread', 'burst'] as const) {
  const team = await newTeam(`Notices, ${mode}`);
  const order = await ok(
    a.call<RechargeOrder>(
      billingRoutes.rechargeCreate.path,
      { amount: NOTICE_AMOUNT, channel: 'wechat' },
      asCreator(team),
    ),
    'recharge/create wechat',
  );
  // The payer pays, as the fake's own `pay` marks it, but the notice is sent only by this bench.
  const booked = fake.orders.get(order.order_no);
  if (!booked) throw new Error(`the fake has no order ${order.order_no}`);
  booked.tradeState = 'SUCCESS';
  booked.transactionId = `42000${digits(23)}`;
  booked.successTime = beijing(new Date());
  const notice = fake.buildNotice(order.order_no);
  const latencies: number[] = [];
  const statuses: number[] = [];
  const send = async (i: number) => {
    const target = processes[i % processes.length];
    const sent = performance.now();
    const status = await fake.deliver(notice, `${target.url}/hooks/pay/wechat`).catch(() => -1);
    latencies.push(performance.now() - sent);
    statuses.push(status);
  };
  const t0 = performance.now();
  const sending: Promise<void>[] = [];
  if (mode === 'burst') for (let i = 0; i < NOTICES; i++) sending.push(send(i));
  else {
    const perTick = Math.ceil(NOTICES / 10);
    for (let tick = 0; tick * perTick < NOTICES; tick++) {
      for (let i = tick * perTick; i < Math.min(NOTICES, (tick + 1) * perTick); i++) sending.push(send(i));
      if ((tick + 1) * perTick < NOTICES) await sleep(100);
    }
  }
  await Promise.all(sending);
  const seconds = (performance.now() - t0) / 1000;
  storms.push({
    label: mode === 'burst' ? 'all at once' : `${Math.ceil(NOTICES / 10)} every 100 ms`,
    team,
    orderNo: order.order_no,
    orderId: order.id,
    latencies,
    statuses,
    seconds,
  });
}
for (const storm of storms) {
  const view = await productView(storm.team);
  const order = await ok(
    a.call<RechargeOrder>(billingRoutes.rechargeGet.path, { id: storm.orderId }, asCreator(storm.team)),
    'recharge/get',
  );
  const codes = [...new Set(storm.statuses)].sort().join(', ');
  console.log(
    `\n${NOTICES} copies of one paid notice, ${storm.label}, over ${processes.length} process(es), ` +
      `sent in ${storm.seconds.toFixed(2)} s: HTTP ${codes}; latency ${spread(storm.latencies)}`,
  );
  check(
    'every copy answered 200',
    storm.statuses.every((status) => status === 200),
  );
  check(
    'the order is paid, the balance credited once',
    order.status === 'paid' && view.balance === NOTICE_AMOUNT && view.entries === 1,
    `${order.status}, balance ${view.balance}, ${view.entries} ledger entr${view.entries === 1 ? 'y' : 'ies'}`,
  );
}

// 3. The database itself.
let query: (text: string, values?: unknown[]) => Promise<Record<string, unknown>[]>;
let closeDatabase: () => Promise<void>;
if (DATABASE_URL) {
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  query = async (text, values) => (await client.query(text, values)).rows;
  closeDatabase = () => client.end();
} else {
  // PGlite has one opener at a time: the product stops first.
  for (const p of processes) await p.stop();
  const database = await openDatabase({ dataDir: embeddedDir as string, migrationsFolder: MIGRATIONS_DIR });
  query = async (text, values) => (await database.executeSql(text, values)).rows as Record<string, unknown>[];
  closeDatabase = () => database.close();
}
console.log('\non the database:');
for (const run of runs) {
  const [row] = await query(
    `select s.balance::bigint as balance,
       (select coalesce(sum(amount), 0) from ledger_entries where space_id = s.id)::bigint as ledger_sum,
       (select count(*) from ledger_entries where space_id = s.id and kind = 'adjustment' and amount = -1)::int as debits,
       (select count(*) from ledger_entries where space_id = s.id and balance_after < 0)::int as negative,
       (select min(balance_after) from ledger_entries where space_id = s.id)::bigint as lowest,
       (select count(*) from audit_logs where space_id = s.id and action = 'billing.adjust')::int as audits,
       (select count(*) from (
          select balance_after, amount, lag(balance_after) over (order by id) as before
          from ledger_entries where space_id = s.id) chain
        where balance_after <> coalesce(before, 0) + amount)::int as breaks
     from spaces s where s.id = $1`,
    [run.team],
  );
  const succeeded = run.results.filter((r) => r.code === 0).length;
  const [balance, sum, debits] = [Number(row.balance), Number(row.ledger_sum), Number(row.debits)];
  console.log(
    ` ${run.label}: spaces.balance ${balance}, sum of entries ${sum}, ${debits} debit entries, ` +
      `${row.audits} audit lines, lowest balance_after ${row.lowest}`,
  );
  check(
    'spaces.balance = sum of ledger_entries.amount = start − successful debits (no lost update)',
    balance === sum && sum === run.start - succeeded,
    `${balance} = ${sum} = ${run.start} − ${succeeded}`,
  );
  check(
    'one debit entry and one audit line per successful debit',
    debits === succeeded && Number(row.audits) === succeeded,
  );
  check('no balance_after below 0', Number(row.negative) === 0);
  check(
    "each entry's balance_after = the previous one's + its amount",
    Number(row.breaks) === 0,
    `${row.breaks} breaks`,
  );
}
for (const storm of storms) {
  const [row] = await query(
    `select (select count(*) from ledger_entries where idempotency_key = $2)::int as credits,
       (select balance::bigint from spaces where id = $1) as balance,
       (select count(*) from audit_logs where space_id = $1 and action = 'billing.recharge')::int as audits`,
    [storm.team, `recharge:${storm.orderNo}`],
  );
  console.log(
    ` notices ${storm.label}: ${row.credits} recharge:<order> entries, balance ${row.balance}, ${row.audits} audit lines`,
  );
  check(
    'exactly one credit',
    Number(row.credits) === 1 && Number(row.balance) === NOTICE_AMOUNT && Number(row.audits) === 1,
  );
}
await closeDatabase();

await Promise.all(clients.flat().map((client) => client.close()));
for (const p of processes) await p.stop();
await fake.close();
console.log(
  `\nload at the end ${load()}; ${failures.length ? `FAILED: ${failures.join('; ')}` : 'every check passed'}`,
);
process.exit(failures.length ? 1 : 0);
