// The standing check (docs/benchmarks.md, "Standing check"): every benchmark of docs/benchmarks.md
// in a quick mode, one after the other, and one table of their figures against the targets. Not a
// test and not part of `npm test`: it measures, on a machine that may be busy.
// Run: npm run bench:check                      (about 9 minutes on the 2-core machine)
//      npm run bench:check -- --record          (also keeps this run's ratios in bench/recorded.json)
//      npm run bench:check -- --only api,startup
// Exits 1 when a target is missed or a benchmark gave no figures.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { BENCHES, type Bench, type Figure } from './check-list.ts';
import { root } from './support.ts';

const RECORDED = `${root}bench/recorded.json`;
/** A ratio measured within one run that falls more than this below its recorded figure is flagged. */
const DROP = 0.15;

interface Recorded {
  [key: string]: { value: number; date: string };
}

const args = process.argv.slice(2);
const record = args.includes('--record');
const only = args.includes('--only') ? args[args.indexOf('--only') + 1].split(',') : null;
const today = new Date().toISOString().slice(0, 10);
const recorded: Recorded = existsSync(RECORDED) ? JSON.parse(readFileSync(RECORDED, 'utf8')) : {};

/** Newest modification time under a directory (the web app's sources), in ms. */
function newest(dir: string): number {
  let latest = 0;
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) latest = Math.max(latest, statSync(path.join(entry.parentPath, entry.name)).mtimeMs);
  }
  return latest;
}

/** web-size measures the production build, and the product serves it: build it when it is stale. */
function ensureWebBuild() {
  const index = `${root}apps/web/dist/index.html`;
  const sources = Math.max(newest(`${root}apps/web/src`), newest(`${root}packages/contract/src`));
  if (existsSync(index) && statSync(index).mtimeMs > sources) return;
  console.log('web build older than its sources: npm run build');
  const build = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'ignore' });
  if (build.status !== 0) throw new Error('npm run build failed');
}

/** Runs one benchmark in quick mode; its output, whatever it printed, and how it ended. */
function run(
  bench: Bench,
  env: Record<string, string>,
): Promise<{ out: string; code: number | null; seconds: number }> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', `bench/${bench.file}`], {
      cwd: root,
      env: { ...process.env, ...bench.quick, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
    });
    child.stderr.on('data', (chunk) => {
      out += chunk;
    });
    // A benchmark that hangs is stopped with everything it started (it runs in its own group).
    const timer = setTimeout(() => {
      out += `\n(stopped after ${bench.timeoutS} s)`;
      try {
        process.kill(-(child.pid as number), 'SIGKILL');
      } catch {
        // gone
      }
    }, bench.timeoutS * 1000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ out, code, seconds: (performance.now() - started) / 1000 });
    });
  });
}

const meets = (value: number, target: NonNullable<Figure['target']>) =>
  target.op === '>=' ? value >= target.value : target.op === '<=' ? value <= target.value : value === target.value;

const format = (value: number, unit = '') =>
  `${Number.isInteger(value) ? value : value.toFixed(value < 10 ? 2 : 1)}${unit}`;

interface Row {
  bench: string;
  figure: string;
  target: string;
  value: string;
  result: string;
  missed: boolean;
}

async function withPostgres<T>(work: (url: string) => Promise<T>): Promise<T | null> {
  const { postgresBinDir, startPostgres } = await import('../apps/server/src/scale/postgres-server.ts');
  try {
    postgresBinDir();
  } catch {
    return null;
  }
  const server = await startPostgres();
  try {
    const pg = (await import('pg')).default;
    const admin = new pg.Client({ connectionString: server.adminUrl });
    await admin.connect();
    await admin.query('CREATE DATABASE athena_bench_check');
    await admin.end();
    return await work(server.adminUrl.replace(/\/[^/]*$/, '/athena_bench_check'));
  } finally {
    await server.stop();
  }
}

let chromium: boolean | undefined;
/** Debian's Chromium, installed the way the browser tests install it when it is missing. */
function hasChromium() {
  chromium ??= spawnSync('bash', ['scripts/ensure-chromium.sh'], { cwd: root, stdio: 'inherit' }).status === 0;
  return chromium;
}

const rows: Row[] = [];
const ran: Bench[] = [];
const results: Recorded = {};
const started = performance.now();
ensureWebBuild();
for (const bench of BENCHES) {
  if (only && !only.includes(bench.name)) continue;
  const outcome =
    bench.needs === 'postgres'
      ? await withPostgres((url) => run(bench, { BENCH_DATABASE_URL: url }))
      : bench.needs === 'chromium' && !hasChromium()
        ? null
        : await run(bench, {});
  if (!outcome) {
    const missing =
      bench.needs === 'postgres'
        ? 'no PostgreSQL 15+ here (scripts/ensure-postgres.sh)'
        : 'no Chromium here and it could not be installed (scripts/ensure-chromium.sh)';
    rows.push({
      bench: bench.name,
      figure: '–',
      target: '–',
      value: '–',
      result: `skipped: ${missing}`,
      missed: false,
    });
    console.log(`${bench.name.padEnd(24)} skipped (${missing})`);
    continue;
  }
  ran.push(bench);
  console.log(
    `${bench.name.padEnd(24)} ${outcome.seconds.toFixed(0).padStart(4)} s${outcome.code ? `, exit ${outcome.code}` : ''}`,
  );
  let read = 0;
  for (const figure of bench.figures) {
    const value = figure.read(outcome.out);
    const key = `${bench.name}: ${figure.label}`;
    const target = figure.target
      ? `${figure.target.op} ${format(figure.target.value, figure.unit)}${figure.target.scaled ? ' (scaled)' : ''}`
      : '–';
    if (value === undefined || Number.isNaN(value)) {
      rows.push({
        bench: bench.name,
        figure: figure.label,
        target,
        value: '–',
        result: 'no figure (see below)',
        missed: true,
      });
      continue;
    }
    read += 1;
    let result = figure.target ? (meets(value, figure.target) ? 'met' : 'MISSED') : 'reported';
    let missed = result === 'MISSED';
    if (figure.ratio) {
      results[key] = { value, date: today };
      const before = recorded[key];
      if (before) {
        const drop = (before.value - value) / before.value;
        const versus = `recorded ${format(before.value)} (${before.date})`;
        result += drop > DROP ? `; DROP ${Math.round(drop * 100)} % below ${versus}` : `; ${versus}`;
        if (drop > DROP) missed = true;
      }
    }
    rows.push({ bench: bench.name, figure: figure.label, target, value: format(value, figure.unit), result, missed });
  }
  if (read === 0) {
    console.log(outcome.out.split('\n').slice(-15).join('\n'));
  }
}

const header = ['benchmark', 'figure', 'target', 'quick figure', 'result'];
const cells = rows.map((row) => [row.bench, row.figure, row.target, row.value, row.result]);
const widths = header.map((title, i) => Math.max(title.length, ...cells.map((cell) => cell[i].length)));
const line = (cells: string[]) => `| ${cells.map((cell, i) => cell.padEnd(widths[i])).join(' | ')} |`;
console.log(
  `\nbench:check ${today}, load average ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}, ${((performance.now() - started) / 60_000).toFixed(1)} min`,
);
console.log([line(header), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line)].join('\n'));
console.log('\nquick modes (a scaled target holds at the smaller size; docs/benchmarks.md, "Standing check"):');
for (const bench of ran) console.log(`  ${bench.name}: ${bench.mode}`);
const missed = rows.filter((row) => row.missed).length;
console.log(
  missed === 0 ? '\nevery target met' : `\n${missed} figure(s) missed their target, dropped or were not produced`,
);

if (record) {
  writeFileSync(RECORDED, `${JSON.stringify({ ...recorded, ...results }, null, 2)}\n`);
  console.log(`recorded ${Object.keys(results).length} ratio(s) in bench/recorded.json`);
}
process.exit(missed === 0 ? 0 : 1);
