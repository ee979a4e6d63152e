// `npm test`: lint, locale check, typecheck, the unit and integration tiers, the PostgreSQL tier
// (docs/postgres.md), the unit and PostgreSQL tiers and the runtime-sensitive integration files again
// under the pinned Node.js LTS (scripts/node-lts), production build and the browser tier in Debian's Chromium
// (docs/testing.md). Prints each tier's counts and one closing line
// "tests: N passed, N failed, N skipped".
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const reports = `${root}test-results`;
mkdirSync(reports, { recursive: true });
const totals = { passed: 0, failed: 0, skipped: 0 };
const failures = [];
const tiers = [];
/** Seconds per step, printed again at the end: CI keeps only the tail of the output. */
const timings = [];

function step(name, command, args, env = process.env) {
  const started = Date.now();
  console.log(`\n▶ ${name}`);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env });
  const seconds = Math.round((Date.now() - started) / 1000);
  timings.push(`${name.replace(/ \(.*\)$/, '')} ${seconds} s`);
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
    // Named again in the summary, so the last lines of a long CI log say what failed and why.
    for (const suite of report.testResults ?? []) {
      for (const test of suite.assertionResults ?? []) {
        if (test.status !== 'failed') continue;
        const why = (test.failureMessages?.[0] ?? '').split('\n').slice(0, 3).join(' | ');
        failures.push(`${tier}: ${suite.name.replace(root, '')} > ${test.fullName}\n      ${why.slice(0, 400)}`);
      }
    }
  } catch {
    counts.failed = 1; // no report means the runner itself failed
  }
  for (const key of Object.keys(totals)) totals[key] += counts[key];
  tiers.push({ tier, ...counts });
}

/** One tier: a project of the root config ('unit', 'integration') or a config of its own, optionally some paths of it. */
const vitest = ({ project, config, paths = [] }, report) => [
  'vitest',
  'run',
  ...(project ? ['--project', project] : []),
  ...(config ? ['--config', config] : []),
  ...paths,
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

/**
 * The Node.js LTS of scripts/node-lts (an exact version of the registry's `node` package, whose
 * install fetches the matching binary package), installed into that folder's own node_modules: the
 * root node_modules/.bin is where every npm script finds `node`, and must keep the machine's.
 */
function ensureNodeLts() {
  const dir = `${root}scripts/node-lts`;
  const wanted = JSON.parse(readFileSync(`${dir}/package.json`, 'utf8')).dependencies.node;
  const bin = `${dir}/node_modules/.bin`;
  const version = () => spawnSync(`${bin}/node`, ['--version'], { encoding: 'utf8' }).stdout?.trim();
  if (
    version() !== `v${wanted}` &&
    !step(`node ${wanted} (npm ci --prefix scripts/node-lts)`, 'npm', ['ci', '--prefix', dir])
  ) {
    return null;
  }
  return version() === `v${wanted}` ? { bin, major: wanted.split('.')[0] } : null;
}

/** Runs a tier and counts it; under another Node when `node` (an ensureNodeLts() result) is given. */
function tier(name, target, report, node) {
  const args = vitest(target, report);
  const tierOk = node
    ? step(`${name} tests`, `${node.bin}/node`, [`${root}node_modules/vitest/vitest.mjs`, ...args.slice(1)], {
        ...process.env,
        // Whatever a test starts with `node`, `npm` or `npx` runs under this Node too.
        PATH: `${node.bin}${path.delimiter}${process.env.PATH}`,
      })
    : step(`${name} tests`, 'npx', args);
  countVitest(name, report);
  return tierOk;
}

/**
 * The integration files run again under the LTS: those whose outcome depends on Node itself rather
 * than on our code (processes, worker threads, native modules, child processes, node:crypto, Node's
 * HTTP client under vendor SDKs, the platform's own adapters). The whole integration tier ran twice
 * until it took 5 of the suite's 25 minutes; the rest of it exercises our logic, which does not
 * change with the runtime, and the PostgreSQL tier runs two whole servers under the LTS anyway.
 */
const NODE_RUNTIME_INTEGRATION = [
  'apps/server/src/main.test.ts',
  'apps/server/src/platform',
  'apps/server/src/modules/workflow/sandbox',
  'apps/server/src/modules/knowledge/hostile-uploads.test.ts',
  'apps/server/src/modules/knowledge/pdf-indexing.test.ts',
  'apps/server/src/modules/media/previews.test.ts',
  'apps/server/src/modules/media/tool-floor.test.ts',
  'apps/server/src/modules/media/media-s3.test.ts',
  'apps/server/src/modules/billing/wechat-pay.test.ts',
  'apps/server/src/modules/billing/alipay.test.ts',
  'apps/server/src/modules/chat-history/wecom-chat.test.ts',
  // The MCP SDK's Streamable HTTP transport: web streams and fetch of the runtime.
  'apps/server/src/modules/mcp/mcp.test.ts',
  // How the runtime buffers a response's writes (Node 20 in the socket, 22+ in the response).
  'apps/server/src/modules/workflow/triggers/api-stream-first-byte.test.ts',
];

let ok = true;
ok = step('lint (biome)', 'npx', ['biome', 'check', '.']) && ok;
ok = step('locale keys', 'node', ['scripts/check-locales.mjs']) && ok;
ok = step('typecheck', 'npm', ['run', 'typecheck']) && ok;
ok = tier('unit', { project: 'unit' }, `${reports}/unit.json`) && ok;
ok = tier('integration', { project: 'integration' }, `${reports}/integration.json`) && ok;
const postgres = step('postgresql', 'bash', ['scripts/ensure-postgres.sh']);
if (postgres) ok = tier('postgres', { config: 'vitest.postgres.config.ts' }, `${reports}/postgres.json`) && ok;
else ok = false;
const lts = ensureNodeLts();
if (lts) {
  const under = `node ${lts.major}`;
  ok = tier(`unit (${under})`, { project: 'unit' }, `${reports}/unit-node${lts.major}.json`, lts) && ok;
  ok =
    tier(
      `integration (${under})`,
      { project: 'integration', paths: NODE_RUNTIME_INTEGRATION },
      `${reports}/integration-node${lts.major}.json`,
      lts,
    ) && ok;
  if (postgres) {
    ok =
      tier(
        `postgres (${under})`,
        { config: 'vitest.postgres.config.ts' },
        `${reports}/postgres-node${lts.major}.json`,
        lts,
      ) && ok;
  }
} else {
  ok = false;
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
console.log(`\ntime: ${timings.join(', ')}`);
if (failures.length > 0) console.log(`\nfailed:\n${failures.map((line) => `  ${line}`).join('\n')}\n`);
console.log(`tests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(ok && totals.failed === 0 ? 0 : 1);
