// Gateway overhead: time to first token through our chat endpoint vs. straight to the (fake)
// model server, in the same run; then 200 concurrent streaming chats on one process, after as many
// streams straight to the model server (the floor this machine sets).
// Run: npx tsx bench/gateway.ts   (needs a web build: npm run build)
import { startFakeOpenAI } from '@athena/fake-openai';
import { post, serverRssMb, signIn, startProduct, stop, tempDataDir, waitUntil } from './support.ts';

const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 200);
const CONCURRENT = Number(process.env.BENCH_CONCURRENT ?? 200);

const fake = await startFakeOpenAI({ tokenDelayMs: 5 });
process.env.ALLOW_PRIVATE_MODEL_ENDPOINTS = 'true';
const port = 3330;
const base = `http://127.0.0.1:${port}`;
const product = startProduct({ port, dataDir: tempDataDir() });
await waitUntil(async () => (await fetch(`${base}/api/athena/v1/platform/info`, { method: 'POST' })).ok, 60_000);
const token = await signIn(base);
const info = await post<{ space: { id: string } }>(`${base}/accountv2/user/info`, {}, { token });
const headers = { token, 'space-id': info.space.id, 'content-type': 'application/json' };
await post(
  `${base}/api/athena/v1/model_key/create`,
  {
    model_name: 'Fake',
    version: 'fake-chat',
    base_url: fake.url,
    api_key: 'sk-fake',
  },
  headers,
);
const agent = await post<{ id: string }>(`${base}/api/athena/v1/agent/create`, { name: 'Bench' }, headers);

/** Milliseconds until the first answer text arrives, and whether the stream finished well. */
async function firstToken(url: string, body: unknown, extra: Record<string, string>, marker: RegExp, done: RegExp) {
  const started = performance.now();
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...extra },
    body: JSON.stringify(body),
  });
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let seen = '';
  let ttft = Number.NaN;
  for (;;) {
    const { value, done: finished } = await reader.read();
    if (finished) break;
    seen += decoder.decode(value, { stream: true });
    if (Number.isNaN(ttft) && marker.test(seen)) ttft = performance.now() - started;
  }
  return { ttft, ok: done.test(seen) };
}

const direct = () =>
  firstToken(
    `${fake.url}/chat/completions`,
    { model: 'fake-chat', stream: true, messages: [{ role: 'user', content: 'measure the first token please' }] },
    { authorization: 'Bearer sk-fake' },
    /"content":"[^"]+"/,
    /\[DONE\]/,
  );
const ours = () =>
  firstToken(
    `${base}/api/athena/v1/agent/chat`,
    { agent_id: agent.id, message: 'measure the first token please' },
    headers,
    /event: delta/,
    /event: end\ndata: \{"status":"complete"\}/,
  );

const pct = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
};

for (let i = 0; i < 20; i++) {
  await direct();
  await ours();
}
const directTimes: number[] = [];
const ourTimes: number[] = [];
for (let i = 0; i < SAMPLES; i++) {
  // Interleaved, so both see the same machine conditions.
  directTimes.push((await direct()).ttft);
  ourTimes.push((await ours()).ttft);
}
console.log(`time to first token, ${SAMPLES} sequential requests each, node ${process.version}`);
for (const [name, times] of [
  ['direct to model server', directTimes],
  ['through Athena chat', ourTimes],
] as const) {
  console.log(`${name.padEnd(24)} p50 ${pct(times, 0.5).toFixed(2)} ms  p99 ${pct(times, 0.99).toFixed(2)} ms`);
}
console.log(
  `added by Athena            p50 ${(pct(ourTimes, 0.5) - pct(directTimes, 0.5)).toFixed(2)} ms  p99 ${(pct(ourTimes, 0.99) - pct(directTimes, 0.99)).toFixed(2)} ms`,
);

// The same number of streams straight to the fake first: the load generator and the fake share this
// process and the machine with the server, so this is the floor the machine sets for the figure.
const directAtOnce = await Promise.all(Array.from({ length: CONCURRENT }, () => direct()));
const firstTokens = (runs: { ttft: number }[]) =>
  `p50 first token ${pct(
    runs.map((r) => r.ttft),
    0.5,
  ).toFixed(0)} ms, p99 ${pct(
    runs.map((r) => r.ttft),
    0.99,
  ).toFixed(0)} ms`;
console.log(`${CONCURRENT} concurrent streams straight to the model server: ${firstTokens(directAtOnce)}`);
const rssBefore = await serverRssMb(product.pid!);
const started = performance.now();
const results = await Promise.all(Array.from({ length: CONCURRENT }, () => ours()));
const seconds = (performance.now() - started) / 1000;
const rssAfter = await serverRssMb(product.pid!);
const failed = results.filter((r) => !r.ok).length;
console.log(
  `${CONCURRENT} concurrent streaming chats: ${CONCURRENT - failed} complete, ${failed} failed, ${seconds.toFixed(1)} s; ` +
    `${firstTokens(results)}; server RSS ${rssBefore} → ${rssAfter} MB`,
);

await stop(product);
await fake.close();
