// `npm test`: lint, locale check, typecheck, the unit and integration tiers, production build and
// the browser tier in Debian's Chromium (docs/testing.md). Prints each tier's counts and one closing
// line "tests: N passed, N failed, N skipped".
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const reports = `${root}test-results`;
mkdirSync(reports, { recursive: true });
const totals = { passed: 0, failed: 0, skipped: 0 };
const tiers = [];

function step(name, command, args) {
  const started = Date.now();
  console.log(`\n▶ ${name}`);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: process.env });
  console.log(`  ${name}: ${result.status === 0 ? 'ok' : 'FAILED'} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return result.status === 0;
}

function countVitest(tier, file) {
  const counts = { passed: 0, failed: 0, skipped: 0 };
  try {
    const report = JSON.parse(readFileSync(file, 'utf8'));
    counts.passed = report.numPassedTests;
    counts.failed = report.numFailedTests;
    counts.skipped = report.numPendingTests + report.numTodoTests;
  } catch {
    counts.failed = 1; // no report means the runner itself failed
  }
  for (const key of Object.keys(totals)) totals[key] += counts[key];
  tiers.push({ tier, ...counts });
}

/** One tier: a project of the root config ('unit', 'integration') or a config of its own. */
const vitest = ({ project, config }, report) => [
  'vitest',
  'run',
  ...(project ? ['--project', project] : []),
  ...(config ? ['--config', config] : []),
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${report}`,
];

/**
 * After a failed browser run: the server's warnings and errors and its slow requests, so a failure
 * in CI (where only the output is kept) shows what the server was doing.
 */
function printServerTrouble() {
  let lines;
  try {
    lines = readFileSync(`${root}e2e/artifacts/server.log`, 'utf8').split('\n');
  } catch {
    return;
  }
  const trouble = [];
  const requests = new Map();
  for (const line of lines) {
    let entry;
    try {
      entry = JSON.parse(line);
    } catch {
      if (line.trim()) trouble.push(line);
      continue;
    }
    if (entry.req) requests.set(entry.reqId, `${entry.req.method} ${entry.req.url}`);
    if (entry.level >= 40 || entry.responseTime > 1000) {
      const request = requests.get(entry.reqId) ?? '';
      const status = entry.res?.statusCode ?? '';
      const time = entry.responseTime ? `${Math.round(entry.responseTime)} ms` : '';
      const at = new Date(entry.time).toISOString().slice(11, 23);
      trouble.push([at, entry.level, entry.msg, request, status, time, entry.err?.message ?? ''].join(' '));
    }
  }
  console.log(`\nserver log: ${trouble.length} warnings, errors and slow requests; the last 40:`);
  for (const line of trouble.slice(-40)) console.log(`  ${line}`);
}

let ok = true;
ok = step('lint (biome)', 'npx', ['biome', 'check', '.']) && ok;
ok = step('locale keys', 'node', ['scripts/check-locales.mjs']) && ok;
ok = step('typecheck', 'npm', ['run', 'typecheck']) && ok;
for (const tier of ['unit', 'integration']) {
  const tierOk = step(`${tier} tests`, 'npx', vitest({ project: tier }, `${reports}/${tier}.json`));
  countVitest(tier, `${reports}/${tier}.json`);
  ok = tierOk && ok;
}
const built = step('production build', 'npm', ['run', 'build']);
ok = built && ok;
if (built && step('chromium', 'bash', ['scripts/ensure-chromium.sh'])) {
  const browserOk = step(
    'browser tests (Playwright in Chromium)',
    'npx',
    vitest({ config: 'e2e/vitest.config.ts' }, `${reports}/e2e.json`),
  );
  if (!browserOk) printServerTrouble();
  ok = browserOk && ok;
  countVitest('browser', `${reports}/e2e.json`);
} else {
  ok = false;
}

console.log('');
for (const { tier, passed, failed, skipped } of tiers) {
  console.log(`  ${tier}: ${passed} passed, ${failed} failed, ${skipped} skipped`);
}
console.log(`tests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(ok && totals.failed === 0 ? 0 : 1);
