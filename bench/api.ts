// Authenticated /accountv2/user/info under load beside a bare Fastify route returning the same
// JSON, in the same run: 50 connections, 20 s each (BENCH_SECONDS to change).
// Run: npx tsx bench/api.ts
import { spawn } from 'node:child_process';
import autocannon from 'autocannon';
import { post, root, signIn, startProduct, stop, tempDataDir, waitUntil } from './support.ts';

const seconds = Number(process.env.BENCH_SECONDS ?? 20);
const connections = 50;

function load(url: string, headers: Record<string, string>) {
  return autocannon({ url, connections, duration: seconds, method: 'POST', headers, body: '{}' });
}

const port = 3300;
const base = `http://127.0.0.1:${port}`;
const product = startProduct({ port, dataDir: tempDataDir() });
await waitUntil(async () => (await fetch(`${base}/api/athena/v1/platform/info`, { method: 'POST' })).ok, 60_000);
const token = await signIn(base);
const headers = { 'content-type': 'application/json', token, language: 'en', timezone: 'Asia/Shanghai' };
const sample = await post(`${base}/accountv2/user/info`, {}, headers);

// The bare server runs in its own process, like the product, and returns the same envelope.
const barePort = 3301;
const bare = spawn(process.execPath, [`${root}bench/bare-fastify.mjs`, String(barePort)], {
  env: { ...process.env, BODY: JSON.stringify({ code: 0, msg: 'ok', data: sample }) },
  stdio: 'inherit',
});
await waitUntil(async () => (await fetch(`http://127.0.0.1:${barePort}/`, { method: 'POST' })).ok, 10_000);

// Warm both up briefly so JIT and caches are comparable.
await autocannon({ url: `${base}/accountv2/user/info`, connections, duration: 2, method: 'POST', headers, body: '{}' });
const athena = await load(`${base}/accountv2/user/info`, headers);
const baseline = await load(`http://127.0.0.1:${barePort}/`, headers);

const errors = athena.errors + athena.non2xx;
const row = (name: string, r: autocannon.Result) =>
  `${name.padEnd(28)} ${r.requests.average.toFixed(0).padStart(8)} req/s   p50 ${r.latency.p50} ms   p99 ${r.latency.p99} ms`;
console.log(`\n${connections} connections, ${seconds} s each, node ${process.version}`);
console.log(row('athena /accountv2/user/info', athena));
console.log(row('bare fastify (same JSON)', baseline));
console.log(`throughput ratio ${(athena.requests.average / baseline.requests.average).toFixed(2)}   errors ${errors}`);

bare.kill('SIGTERM');
await stop(product);
