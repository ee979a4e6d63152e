// The customer search of user profiles (profile/customer/list) at scale, on the product started as
// the README does (`npm start`), through HTTP: docs/benchmarks.md, "User profiles: customer search".
// 1. The product makes a team and the scene's fields (through the API), and stops.
// 2. The customers are written straight into the database with generate_series (BENCH_CUSTOMERS,
//    1 000 000): names (70 % Chinese, 30 % latin), one conversation for 95 % of them over 180 days
//    (a second, older one for 30 %), about five field values each (city, level, channel: select;
//    budget: number; order date: date; note: text in Chinese and English), a satisfaction rating for
//    20 %. Each customer's last activity is their newest conversation's last message (every
//    conversation here ends with the customer writing), set the way the message store raises it. The
//    keyword terms, search documents and latest ratings are the database's own (generated columns and
//    triggers), as in the product; the bulk load is then vacuumed.
// 3. The product starts again and the list is called for a set of filter combinations, page 1 and
//    page 5 (20 a page), BENCH_REPEAT times each: p50/p95/max per filter and overall.
// Run: npx tsx bench/customer-search.ts                                   (embedded, 200 000 customers)
//      DATABASE_URL=postgres://… BENCH_CUSTOMERS=1000000 npx tsx bench/customer-search.ts
// A throw-away PostgreSQL 15 server for that (Debian's, as the user postgres):
//      initdb -D /tmp/pgsearch -U athena --auth=trust -E UTF8 --locale=C.UTF-8
//      pg_ctl -D /tmp/pgsearch -o '-p 5496 -c listen_addresses=127.0.0.1 -c unix_socket_directories=/tmp -c shared_buffers=1GB -c max_wal_size=4GB' start
//      createdb -h 127.0.0.1 -p 5496 -U athena athena_search  → DATABASE_URL=postgres://athena@127.0.0.1:5496/athena_search
// Settings: BENCH_PORT (3356), BENCH_CUSTOMERS (200 000 embedded, else 1 000 000), BENCH_REPEAT (10),
// BENCH_DATA_DIR (keep the embedded database there), BENCH_PHASE: all (default) or read (measure what an
// earlier run with the same BENCH_DATA_DIR or DATABASE_URL stored).
import { mkdirSync } from 'node:fs';
import { MIGRATIONS_DIR } from '../apps/server/src/config.ts';
import { openDatabase } from '../apps/server/src/platform/db/database.ts';
import { post, signIn, startProduct, stop, tempDataDir, waitUntil } from './support.ts';

const PORT = Number(process.env.BENCH_PORT ?? 3356);
const DATABASE_URL = process.env.DATABASE_URL;
const CUSTOMERS = Number(process.env.BENCH_CUSTOMERS ?? (DATABASE_URL ? 1_000_000 : 200_000));
const REPEAT = Number(process.env.BENCH_REPEAT ?? 10);
const READ_ONLY = process.env.BENCH_PHASE === 'read';
const dataDir = process.env.BENCH_DATA_DIR ?? tempDataDir();
mkdirSync(dataDir, { recursive: true });
const base = `http://127.0.0.1:${PORT}`;

async function startUp() {
  const product = startProduct({ port: PORT, dataDir, logLevel: 'warn' });
  await waitUntil(async () => (await fetch(`${base}/api/athena/v1/platform/info`, { method: 'POST' })).ok, 900_000);
  const token = await signIn(base);
  const info = await post<{ space: { id: string } }>(`${base}/accountv2/user/info`, {}, { token });
  const headers = { token, 'space-id': info.space.id, 'scene-id': '5' };
  const api = <T>(path: string, body: unknown) => post<T>(`${base}/api/athena/v1/${path}`, body, headers);
  return { product, spaceId: info.space.id, api };
}

const CITIES = ['上海', '北京', '杭州', '广州', '深圳', '成都', '武汉', '南京', '西安', '苏州'];
const FIELDS = [
  { key: 'city', body: { name: '城市', type: 'select', options: CITIES } },
  { key: 'level', body: { name: '等级', type: 'select', options: ['普通', '银卡', '金卡', 'VIP'] } },
  { key: 'channel', body: { name: '渠道', type: 'select', options: ['抖音', '小程序', '官网', '门店'] } },
  { key: 'budget', body: { name: '预算', type: 'number' } },
  { key: 'ordered', body: { name: '下单日期', type: 'date' } },
  { key: 'note', body: { name: '备注', type: 'text' } },
] as const;
type FieldKey = (typeof FIELDS)[number]['key'];

let { product, spaceId, api } = await startUp();
let fields = Object.fromEntries(
  ((await api<{ items: { id: string; name: string }[] }>('profile/field/list', {})).items ?? []).map((f) => [
    FIELDS.find((d) => d.body.name === f.name)?.key,
    f.id,
  ]),
) as Record<FieldKey, string>;

if (!READ_ONLY) {
  for (const field of FIELDS) {
    if (!fields[field.key]) fields[field.key] = (await api<{ id: string }>('profile/field/create', field.body)).id;
  }
  await stop(product);
  const started = Date.now();
  const database = await openDatabase({
    databaseUrl: DATABASE_URL,
    dataDir,
    migrationsFolder: MIGRATIONS_DIR,
    sharedBuffers: '256MB',
  });
  const run = async (label: string, text: string) => {
    const at = Date.now();
    await database.executeSql(text, []);
    console.log(`  ${label}: ${((Date.now() - at) / 1000).toFixed(1)} s`);
  };
  const space = `'${spaceId}'::uuid`;
  // A hash of the customer's number and a salt: independent draws, no pattern shared by two columns.
  const draw = (salt: string, n = 'b.k') => `abs(hashtext('${salt}' || ${n}))`;
  const pickOf = (items: readonly string[], salt: string, n = 'b.k') =>
    `(array[${items.map((item) => `'${item}'`).join(',')}])[1 + ${draw(salt, n)} % ${items.length}]`;
  const surnames = [...'王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗'];
  const given = [...'伟芳娜敏静丽强磊军洋勇艳杰娟涛明超秀霞平刚桂英华玉兰萍红鹏飞'];
  const first = ['Anna', 'Ben', 'Chris', 'David', 'Emma', 'Frank', 'Grace', 'Henry', 'Iris', 'Jack'];
  const last = ['Smith', 'Lee', 'Wong', 'Chan', 'Garcia', 'Miller', 'Davis', 'Lopez', 'Wilson', 'Taylor'];
  const wants = ['想要加急配送', '咨询退款申请', '询问发票抬头', '希望升级套餐', '关注优惠活动', '投诉物流太慢'];
  const words = [
    'express shipping',
    'refund request',
    'invoice title',
    'plan upgrade',
    'discount coupon',
    'late delivery',
  ];
  console.log(`writing ${CUSTOMERS} customers into ${DATABASE_URL ? 'PostgreSQL' : 'the embedded database'}:`);
  await run(
    'customers',
    `insert into chat_customers (space_id, scene_id, source_id, name, created_at)
     select ${space}, 5, 'bench-' || g,
       case when ${draw('script', 'g')} % 10 < 7
         then ${pickOf(surnames, 'surname', 'g')} || ${pickOf(given, 'given', 'g')} ||
           case when g % 3 = 0 then ${pickOf(given, 'given2', 'g')} else '' end
         else ${pickOf(first, 'first', 'g')} || ' ' || ${pickOf(last, 'last', 'g')} end,
       now() - (${draw('created', 'g')} % 365) * interval '1 day'
     from generate_series(1, ${CUSTOMERS}) g`,
  );
  const benchCustomers = `(select id, substr(source_id, 7)::bigint as k from chat_customers
    where space_id = ${space} and scene_id = 5 and source_id like 'bench-%')`;
  await run(
    'conversations',
    `insert into chat_conversations (space_id, scene_id, source_id, chat_type, title, customer_id,
       first_message_at, last_message_at, message_count, send_types)
     select ${space}, 5, 'conv-' || b.k, 'private', '', b.id, x.at - interval '1 hour', x.at, 1 + b.k % 40, 1
     from ${benchCustomers} b cross join lateral (
       select now() - (${draw('active')} % (180 * 86400)) * interval '1 second' as at) x
     where b.k % 20 <> 0
     union all
     select ${space}, 5, 'conv2-' || b.k, 'private', '', b.id, x.at - interval '1 hour', x.at, 1 + b.k % 7, 1
     from ${benchCustomers} b cross join lateral (
       select now() - (${draw('active')} % (180 * 86400)) * interval '1 second' - (1 + b.k % 30) * interval '1 day' as at) x
     where b.k % 20 <> 0 and b.k % 10 < 3`,
  );
  await run(
    'activity',
    `update chat_customers cu set last_active_at = a.at
     from (select customer_id, max(last_message_at) as at from chat_conversations
       where space_id = ${space} and scene_id = 5 group by customer_id) a
     where cu.id = a.customer_id`,
  );
  const value = (field: FieldKey, fill: string, text: string, number = 'null', date = 'null') =>
    `select b.id, '${fields[field]}'::uuid, ${text}, (${number})::numeric, (${date})::date, 'channel', 'bench'
     from ${benchCustomers} b where ${fill}`;
  await run(
    'values',
    `insert into profile_values (customer_id, field_id, value, value_number, value_date, source, updated_by_label)
     ${value('city', `${draw('has city')} % 20 <> 0`, pickOf(CITIES, 'city'))}
     union all ${value('level', `${draw('has level')} % 10 <> 0`, `case when ${draw('level')} % 100 < 3 then 'VIP' when ${draw('level')} % 100 < 20 then '金卡' when ${draw('level')} % 100 < 50 then '银卡' else '普通' end`)}
     union all ${value('channel', 'true', pickOf(['抖音', '小程序', '官网', '门店'], 'channel'))}
     union all ${value('budget', `${draw('has budget')} % 5 <> 0`, `(${draw('budget')} % 100000)::text`, `${draw('budget')} % 100000`)}
     union all ${value('ordered', `${draw('has date')} % 10 < 7`, `to_char(date '2024-01-01' + (${draw('date')} % 700)::int, 'YYYY-MM-DD')`, 'null', `date '2024-01-01' + (${draw('date')} % 700)::int`)}
     union all ${value('note', `${draw('has note')} % 10 < 6`, `${pickOf(wants, 'want')} || '，' || ${pickOf(words, 'words')} || ' #' || (b.k % 1000)`)}`,
  );
  await run(
    'satisfaction ratings',
    `insert into satisfaction_surveys (space_id, scene_id, conversation_id, customer_id, state, score, rated_at, requested_at)
     select ${space}, 5, c.id, c.customer_id, 'rated', 1 + ${draw('score')} % 5, c.last_message_at, c.last_message_at
     from ${benchCustomers} b join chat_conversations c on c.customer_id = b.id and c.source_id = 'conv-' || b.k
     where ${draw('rated')} % 5 = 0`,
  );
  // Writing the values rewrote every customer once (their search document, kept by triggers): a
  // bulk load leaves half the table dead, which a product database filled by small writes does not.
  await run('vacuum', DATABASE_URL ? 'vacuum (full, analyze) chat_customers' : 'vacuum analyze chat_customers');
  await run('analyze', 'vacuum analyze');
  await database.close();
  console.log(`written in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  ({ product, spaceId, api } = await startUp());
  fields = Object.fromEntries(
    (await api<{ items: { id: string; name: string }[] }>('profile/field/list', {})).items.map((f) => [
      FIELDS.find((d) => d.body.name === f.name)?.key,
      f.id,
    ]),
  ) as Record<FieldKey, string>;
}

const cond = (field: FieldKey, op: string, value?: string) => ({ field_id: fields[field], op, value });
const DAY = 86_400_000;
const FILTERS: [string, Record<string, unknown>][] = [
  ['no filter', {}],
  ['keyword CJK name 王伟', { keyword: '王伟' }],
  ['keyword CJK value 上海', { keyword: '上海' }],
  ['keyword CJK value 加急配送', { keyword: '加急配送' }],
  ['keyword latin anna', { keyword: 'anna' }],
  ['keyword latin prefix expr', { keyword: 'expr' }],
  ['keyword channel id', { keyword: 'bench-123457' }],
  ['select eq level VIP', { conditions: [cond('level', 'eq', 'VIP')] }],
  ['select eq city 杭州', { conditions: [cond('city', 'eq', '杭州')] }],
  ['number budget ≥ 99 500', { conditions: [cond('budget', 'gte', '99500')] }],
  ['number budget 40 000–60 000', { conditions: [cond('budget', 'gte', '40000'), cond('budget', 'lte', '60000')] }],
  ['date ordered ≥ 2025-11-01', { conditions: [cond('ordered', 'gte', '2025-11-01')] }],
  [
    'date ordered in March 2024',
    { conditions: [cond('ordered', 'gte', '2024-03-01'), cond('ordered', 'lte', '2024-03-31')] },
  ],
  ['note empty', { conditions: [cond('note', 'empty')] }],
  ['level not_empty', { conditions: [cond('level', 'not_empty')] }],
  ['last active 1h', { last_active: '1h' }],
  ['last active 24h', { last_active: '24h' }],
  ['last active 7d', { last_active: '7d' }],
  ['last active 30d', { last_active: '30d' }],
  [
    'last active custom 60–30 days ago',
    { last_active: 'custom', start_time: Date.now() - 60 * DAY, end_time: Date.now() - 30 * DAY },
  ],
  ['7d + level VIP', { last_active: '7d', conditions: [cond('level', 'eq', 'VIP')] }],
  ['keyword 王 + city 上海', { keyword: '王', conditions: [cond('city', 'eq', '上海')] }],
  [
    'VIP + budget ≥ 50 000 + 30d',
    { last_active: '30d', conditions: [cond('level', 'eq', 'VIP'), cond('budget', 'gte', '50000')] },
  ],
  ['keyword expr + 90d + city 北京', { keyword: 'expr', last_active: '90d', conditions: [cond('city', 'eq', '北京')] }],
  ['satisfaction satisfied', { satisfaction: 'satisfied' }],
  ['satisfaction unsatisfied + 7d', { satisfaction: 'unsatisfied', last_active: '7d' }],
  ['satisfaction unrated + level 金卡', { satisfaction: 'unrated', conditions: [cond('level', 'eq', '金卡')] }],
];

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};
const ms = (value: number) => `${value.toFixed(0)}`;
const all: number[] = [];
console.log(`\ncustomer list, ${DATABASE_URL ? 'PostgreSQL' : 'embedded'}, ${REPEAT} calls per filter and page (ms):`);
console.log('| filter | total | page 1 p50 / p95 / max | page 5 p50 / p95 / max |\n|---|---|---|---|');
// One call of each first, so the first measured call is not the process's first read of the tables.
for (const [, body] of FILTERS) await api('profile/customer/list', body);
for (const [name, body] of FILTERS) {
  const cells: string[] = [];
  let total = '';
  for (const page of [1, 5]) {
    const times: number[] = [];
    for (let i = 0; i < REPEAT; i++) {
      const at = performance.now();
      const data = await api<{ total: number; total_estimated: boolean }>('profile/customer/list', { ...body, page });
      times.push(performance.now() - at);
      total = `${data.total_estimated ? '≈' : ''}${data.total}`;
    }
    all.push(...times);
    cells.push(`${ms(percentile(times, 50))} / ${ms(percentile(times, 95))} / ${ms(Math.max(...times))}`);
  }
  console.log(`| ${name} | ${total} | ${cells.join(' | ')} |`);
}
console.log(
  `\noverall: ${all.length} calls, p50 ${ms(percentile(all, 50))} ms, p95 ${ms(percentile(all, 95))} ms, max ${ms(Math.max(...all))} ms`,
);
await stop(product);
