// Chat history at scale, on the product started as the README does (`npm start`):
// 1. ingestion through the signed ingest API, batches of 1 000 from BENCH_SENDERS concurrent
//    senders, while one client calls /accountv2/user/info every 50 ms: messages per second and that
//    call's p50/p99 meanwhile;
// 2. the conversation list for every filter combination the page offers (chat type × send type ×
//    time × keyword × customer), first page and the page after it: p50/p95 overall, per filter,
//    and the slowest combinations;
// 3. thread pages: the newest page of random conversations, and older pages deep inside a
//    conversation of 50 000 messages: p50/p95.
// Run: npx tsx bench/chat-history.ts          (embedded database, 1 000 000 messages)
//      DATABASE_URL=postgres://… BENCH_MESSAGES=10000000 npx tsx bench/chat-history.ts
// A throw-away PostgreSQL server for that (Debian's postgresql-15, as the user postgres):
//      initdb -D /tmp/pgchat -U athena --auth=trust
//      pg_ctl -D /tmp/pgchat -o '-p 5499 -c listen_addresses=127.0.0.1 -c shared_buffers=1GB -c max_wal_size=4GB' start
//      createdb -h 127.0.0.1 -p 5499 -U athena athena_chat   → DATABASE_URL=postgres://athena@127.0.0.1:5499/athena_chat
// Settings: BENCH_PORT (3351), BENCH_MESSAGES (1e6), BENCH_SENDERS (4), BENCH_CONVERSATIONS (messages / 50), BENCH_REPEAT (2),
// BENCH_DATA_DIR (keep the embedded database there instead of a temporary directory), BENCH_PHASE: all (default),
// ingest (stop after ingesting), read (read what an earlier run with the same BENCH_DATA_DIR or DATABASE_URL stored).
import { createHmac } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { post, signIn, startProduct, stop, tempDataDir, waitUntil } from './support.ts';

const PORT = Number(process.env.BENCH_PORT ?? 3351);
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 1_000_000);
const SENDERS = Number(process.env.BENCH_SENDERS ?? 4);
const CONVERSATIONS = Number(process.env.BENCH_CONVERSATIONS ?? Math.max(10, Math.floor(MESSAGES / 50)));
const REPEAT = Number(process.env.BENCH_REPEAT ?? 2);
const BATCH = 1_000;
const BIG_CONVERSATION = Math.min(50_000, Math.floor(MESSAGES / 4));
const DAY = 86_400_000;
const PHASE = process.env.BENCH_PHASE ?? 'all';
const SKIP_INGEST = PHASE === 'read';
const dataDir = process.env.BENCH_DATA_DIR ?? tempDataDir();
mkdirSync(dataDir, { recursive: true });

const base = `http://127.0.0.1:${PORT}`;
const product = startProduct({ port: PORT, dataDir, logLevel: 'warn' });
const started = Date.now();
await waitUntil(async () => (await fetch(`${base}/api/athena/v1/platform/info`, { method: 'POST' })).ok, 180_000);
const token = await signIn(base);
const info = await post<{ space: { id: string } }>(`${base}/accountv2/user/info`, {}, { token });
const headers = { token, 'space-id': info.space.id, 'scene-id': '5', 'content-type': 'application/json' };
const api = <T>(path: string, body: unknown) => post<T>(`${base}/api/athena/v1/${path}`, body, headers);
const ingest = SKIP_INGEST ? null : await api<{ url: string; secret: string }>('chat/ingest/rotate', {});
console.log(
  `product up in ${((Date.now() - started) / 1000).toFixed(1)} s; database: ${process.env.DATABASE_URL ? 'PostgreSQL' : 'embedded'}`,
);

// A small deterministic generator (mulberry32), so two runs store the same messages. (An earlier
// linear congruential one multiplied past 2^53 in floating point and fell into short cycles: most
// conversations got no message and keywords clustered in a few of the others.)
let seed = 42;
const random = () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
};
const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)];
const PHRASES = [
  '你好，请问在吗',
  '我想申请退款',
  '快递到哪里了',
  '这个商品有优惠吗',
  '订单号是多少',
  '什么时候发货',
  '可以开发票吗',
  '尺码偏大还是偏小',
  '谢谢，收到了',
  '您好，已为您查询',
  '请稍等，正在为您处理',
  '好的，没问题',
  'Is this available in blue?',
  'Where is my parcel',
  '售后地址在哪里',
  '颜色和图片一样吗',
];
const SEND_TYPES = [
  ...Array(55).fill('user'),
  ...Array(25).fill('ai_full'),
  ...Array(8).fill('human'),
  ...Array(4).fill('ai_assisted'),
  ...Array(3).fill('ai_manual'),
  ...Array(5).fill('fixed'),
] as string[];
const KINDS = [
  ...Array(85).fill(11041),
  11042,
  11042,
  11042,
  11043,
  11044,
  11045,
  11046,
  11047,
  11066,
  11124,
  11211,
  80,
  99999,
  11048,
  11049,
] as number[];
const now = Date.now();

let sequence = 0;
function message(conversation: number) {
  sequence += 1;
  const group = conversation % 10 === 0;
  const kind = pick(KINDS);
  // One message in 20 000 carries a rare phrase: the keyword filter's hard case.
  const text = sequence % 20_000 === 0 ? '发票抬头写公司名称' : `${pick(PHRASES)} ${sequence % 97}`;
  return {
    msg_id: `m${sequence}`,
    conversation: {
      id: `c${conversation}`,
      chat_type: group ? 'group' : 'private',
      name: group ? `客户群 ${conversation}` : '',
    },
    customer: { id: `u${conversation}`, name: `客户${conversation}` },
    channel: { id: `robot-${conversation % 5}`, name: `客服号 ${conversation % 5}` },
    send_type: pick(SEND_TYPES),
    kind,
    content: kind === 11041 || kind === 80 ? text : '',
    sent_at: now - Math.floor(random() * 120 * DAY),
  };
}

async function send(messages: unknown[]) {
  if (!ingest) throw new Error('ingestion is turned off');
  const body = JSON.stringify({ messages });
  const t = Math.floor(Date.now() / 1000);
  const v1 = createHmac('sha256', ingest.secret).update(`${t}.`).update(body).digest('hex');
  const response = await fetch(ingest.url.replace(/^https?:\/\/[^/]+/, base), {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json', 'x-athena-signature': `t=${t},v1=${v1}` },
  });
  if (!response.ok) throw new Error(`ingest ${response.status}: ${await response.text()}`);
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};
const ms = (value: number) => `${value.toFixed(1)} ms`;

// 1. Ingestion, with user/info probed meanwhile.
if (SKIP_INGEST) console.log('ingestion skipped: reading what an earlier run stored');
else {
  const probes: number[] = [];
  let ingesting = true;
  const probe = (async () => {
    while (ingesting) {
      const t0 = performance.now();
      await post(`${base}/accountv2/user/info`, {}, { token });
      probes.push(performance.now() - t0);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  const batches: (() => unknown[])[] = [];
  // The big conversation first, then the rest spread over the others.
  for (let at = 0; at < BIG_CONVERSATION; at += BATCH) {
    batches.push(() => Array.from({ length: Math.min(BATCH, BIG_CONVERSATION - at) }, () => message(1)));
  }
  for (let at = BIG_CONVERSATION; at < MESSAGES; at += BATCH) {
    batches.push(() =>
      Array.from({ length: Math.min(BATCH, MESSAGES - at) }, () =>
        message(2 + Math.floor(random() * (CONVERSATIONS - 1))),
      ),
    );
  }
  const ingestStart = performance.now();
  let next = 0;
  let done = 0;
  await Promise.all(
    Array.from({ length: SENDERS }, async () => {
      while (next < batches.length) {
        const make = batches[next++];
        await send(make());
        done += 1;
        if (done % 100 === 0) {
          const rate = (done * BATCH) / ((performance.now() - ingestStart) / 1000);
          process.stdout.write(`\r  ingested ${done * BATCH} (${rate.toFixed(0)} msg/s)   `);
        }
      }
    }),
  );
  const ingestSeconds = (performance.now() - ingestStart) / 1000;
  ingesting = false;
  await probe;
  console.log(
    `\ningestion: ${MESSAGES} messages in ${ingestSeconds.toFixed(1)} s = ${(MESSAGES / ingestSeconds).toFixed(0)} msg/s ` +
      `(${SENDERS} senders, batches of ${BATCH}); user/info meanwhile p50 ${ms(percentile(probes, 50))}, p99 ${ms(percentile(probes, 99))} (${probes.length} calls)`,
  );
}

if (PHASE === 'ingest') {
  await stop(product);
  process.exit(0);
}

// 2. The conversation list for every filter combination.
type Page = { items: { id: string; customer: { id: string } | null }[]; next_cursor: string | null };
const firstPage = await api<Page>('chat/conversation/list', { limit: 30 });
const customerId = firstPage.items.find((item) => item.customer)?.customer?.id ?? null;
const dimensions = {
  chat_type: ['', 'private', 'group'],
  send_type: ['', 'user', 'human', 'ai_full', 'ai_assisted', 'ai_manual', 'fixed'],
  time: [null, '1h', '24h', '7d', '14d', '30d', '90d', 'custom'],
  keyword: ['', '退款', '发票抬头', '好', 'parcel'],
  customer: [null, customerId],
} as const;
const results: { filter: Record<string, unknown>; ms: number }[] = [];
for (let round = 0; round < REPEAT; round++) {
  for (const chatType of dimensions.chat_type)
    for (const sendType of dimensions.send_type)
      for (const time of dimensions.time)
        for (const keyword of dimensions.keyword)
          for (const customer of dimensions.customer) {
            const filter = {
              chat_type: chatType,
              send_type: sendType,
              time:
                time === null
                  ? null
                  : time === 'custom'
                    ? { preset: 'custom', from: now - 60 * DAY, to: now - 30 * DAY }
                    : { preset: time },
              keyword,
              customer_id: customer,
              limit: 30,
            };
            const t0 = performance.now();
            const page = await api<Page>('chat/conversation/list', filter);
            results.push({ filter, ms: performance.now() - t0 });
            if (page.next_cursor) {
              const t1 = performance.now();
              await api<Page>('chat/conversation/list', { ...filter, cursor: page.next_cursor });
              results.push({ filter: { ...filter, page: 2 }, ms: performance.now() - t1 });
            }
          }
}
const all = results.map((result) => result.ms);
console.log(
  `conversation list: ${results.length} calls, p50 ${ms(percentile(all, 50))}, p95 ${ms(percentile(all, 95))}, max ${ms(Math.max(...all))}`,
);
for (const [name, values] of Object.entries(dimensions)) {
  const rows = values.map((value) => {
    const key = name === 'customer' ? 'customer_id' : name;
    const matching = results.filter((result) => {
      const actual = result.filter[key];
      const wanted = name === 'time' && value !== null ? value : value;
      if (name === 'time')
        return value === null ? actual === null : (actual as { preset?: string } | null)?.preset === wanted;
      return actual === wanted;
    });
    return `${String(value ?? 'none') || 'all'} ${ms(
      percentile(
        matching.map((result) => result.ms),
        95,
      ),
    )}`;
  });
  console.log(`  p95 by ${name}: ${rows.join(', ')}`);
}
const slowest = [...results].sort((a, b) => b.ms - a.ms).slice(0, 5);
for (const result of slowest)
  console.log(`  slow: ${ms(result.ms)} ${JSON.stringify({ ...result.filter, limit: undefined })}`);

// 3. Thread pages.
const threads: number[] = [];
for (const conversation of firstPage.items.slice(0, 30)) {
  for (let round = 0; round < REPEAT; round++) {
    const t0 = performance.now();
    await api('chat/message/list', { conversation_id: conversation.id, limit: 50 });
    threads.push(performance.now() - t0);
  }
}
// The conversation of 50 000 messages is customer 客户1's.
const [firstCustomer] = (await api<{ items: { id: string }[] }>('chat/customer/search', { keyword: '客户1' })).items;
const [bigConversation] = (await api<Page>('chat/conversation/list', { customer_id: firstCustomer.id, limit: 1 }))
  .items;
const deep: number[] = [];
let before: string | null = null;
for (let page = 0; page < 60; page++) {
  const t0 = performance.now();
  const answer: { items: { id: string }[]; has_more: boolean } = await api('chat/message/list', {
    conversation_id: bigConversation.id,
    before_id: before,
    limit: 50,
  });
  deep.push(performance.now() - t0);
  if (!answer.has_more) break;
  before = answer.items[0]?.id ?? null;
}
console.log(
  `thread pages: newest page p50 ${ms(percentile(threads, 50))}, p95 ${ms(percentile(threads, 95))} (${threads.length}); ` +
    `scrolling back ${deep.length} pages: p50 ${ms(percentile(deep, 50))}, p95 ${ms(percentile(deep, 95))}`,
);

await stop(product);
process.exit(0);
