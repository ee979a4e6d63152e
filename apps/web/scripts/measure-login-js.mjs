#!/usr/bin/env node
// Measures the JavaScript a browser downloads to show /login, gzipped (level 9), in Chromium.
// Usage: node apps/web/scripts/measure-login-js.mjs [baseUrl=http://localhost:3000] [budgetKB=350]
// Needs a running server that serves the built SPA (npm start) and Debian's /usr/bin/chromium.
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';

const base = process.argv[2] ?? 'http://localhost:3000';
const budgetKB = Number(process.argv[3] ?? 350);

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ],
});
try {
  const page = await browser.newPage();
  const scripts = [];
  page.on('response', async (response) => {
    const type = response.request().resourceType();
    if (type === 'script' || response.url().endsWith('.js')) scripts.push(response);
  });
  await page.goto(`${base}/login`, { waitUntil: 'networkidle' });
  await page.getByTestId('phone-input').waitFor();
  let raw = 0;
  let gz = 0;
  const rows = [];
  for (const response of scripts) {
    const body = await response.body();
    const size = gzipSync(body, { level: 9 }).length;
    raw += body.length;
    gz += size;
    rows.push([new URL(response.url()).pathname, body.length, size]);
  }
  rows.sort((a, b) => b[2] - a[2]);
  for (const [name, r, g] of rows)
    console.log(`${(g / 1024).toFixed(1).padStart(7)} KB gz ${(r / 1024).toFixed(1).padStart(8)} KB  ${name}`);
  const kb = gz / 1024;
  console.log(
    `/login JS: ${rows.length} files, ${(raw / 1024).toFixed(1)} KB raw, ${kb.toFixed(1)} KB gzipped (budget ${budgetKB} KB)`,
  );
  process.exitCode = kb <= budgetKB ? 0 : 1;
} finally {
  await browser.close();
}
