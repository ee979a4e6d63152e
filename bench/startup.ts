// Start-up time from `npm start` to the first successful /accountv2/user/info with an existing
// data directory, and RSS when idle. Run: npx tsx bench/startup.ts
import { serverRssMb, signIn, startProduct, stop, tempDataDir, waitUntil } from './support.ts';

const port = 3310;
const base = `http://127.0.0.1:${port}`;
const dataDir = tempDataDir();
const runs = Number(process.env.BENCH_RUNS ?? 5);

// First start creates the database and an account; later starts reuse them.
const first = startProduct({ port, dataDir });
await waitUntil(async () => (await fetch(`${base}/api/athena/v1/platform/info`, { method: 'POST' })).ok, 60_000);
const token = await signIn(base);
await stop(first);

const userInfoOk = async () => {
  const res = await fetch(`${base}/accountv2/user/info`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', token },
    body: '{}',
  });
  return res.ok && ((await res.json()) as { code: number }).code === 0;
};

const times: number[] = [];
let rss = 0;
for (let i = 0; i < runs; i++) {
  const started = performance.now();
  const child = startProduct({ port, dataDir });
  await waitUntil(userInfoOk, 30_000);
  times.push(performance.now() - started);
  if (i === runs - 1) {
    await new Promise((resolve) => setTimeout(resolve, 5000));
    rss = await serverRssMb(child.pid!);
  }
  await stop(child);
}
times.sort((a, b) => a - b);
console.log(
  `start → first user/info (existing data dir), ${runs} runs: ${times.map((t) => (t / 1000).toFixed(2)).join(' s, ')} s`,
);
console.log(`median ${(times[Math.floor(runs / 2)] / 1000).toFixed(2)} s; idle RSS after 5 s: ${rss} MB`);
