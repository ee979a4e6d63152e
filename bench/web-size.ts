// Gzipped JavaScript a browser loads for /login (production build, real Chromium).
// Run after `npm run build`: npx tsx bench/web-size.ts
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { root, startProduct, stop, tempDataDir, waitUntil } from './support.ts';

const port = 3320;
const base = `http://127.0.0.1:${port}`;
const product = startProduct({ port, dataDir: tempDataDir() });
await waitUntil(async () => (await fetch(`${base}/api/athena/v1/platform/info`, { method: 'POST' })).ok, 60_000);

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
});
const page = await browser.newPage();
const scripts = new Set<string>();
page.on('request', (request) => {
  if (request.resourceType() === 'script') scripts.add(new URL(request.url()).pathname);
});
await page.goto(`${base}/login`, { waitUntil: 'networkidle' });

let raw = 0;
let gzipped = 0;
const sizes: [string, number][] = [];
for (const file of scripts) {
  const content = readFileSync(`${root}apps/web/dist${file}`);
  raw += content.length;
  const size = gzipSync(content, { level: 9 }).length;
  gzipped += size;
  sizes.push([file, size]);
}
// BENCH_VERBOSE=1: every file, largest first (what to look at when the figure grows).
if (process.env.BENCH_VERBOSE === '1') {
  for (const [file, size] of sizes.sort((a, b) => b[1] - a[1]))
    console.log(`${(size / 1024).toFixed(1).padStart(7)} KB  ${file}`);
}
console.log(
  `/login loads ${scripts.size} JS files: ${(raw / 1024).toFixed(0)} KB raw, ${(gzipped / 1024).toFixed(0)} KB gzipped`,
);
await browser.close();
await stop(product);
