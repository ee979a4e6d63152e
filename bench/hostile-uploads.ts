// Hostile uploads: the product started as the README does (`npm start`, so the bundled server and
// its bundled worker threads), each file of a hostile corpus sent through the real HTTP upload
// route while a probe asks for /platform/info every 10 ms. Per file: accepted or refused (code),
// the longest a probe waited, and the server process's peak RSS while the file was handled.
// Targets: no crash, no bomb accepted, no probe waiting more than 100 ms.
// Run: npx tsx bench/hostile-uploads.ts   (BENCH_PORT, default 3917)
import { execSync, spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import { KNOWLEDGE_MAX_FILE_BYTES, KNOWLEDGE_UPLOAD_PATH } from '@athena/contract';
import { makeEnglishPdf, makeLargeText } from '@athena/knowledge-core/fixtures';
import {
  makeBillionLaughsDocx,
  makeDocx,
  makeDocxBomb,
  makeLargeCsv,
  makeLyingDocx,
  makeManyEntryDocx,
  makePdfFlateBomb,
  makeWideCsv,
  makeXlsxBomb,
  makeXxeDocx,
} from '../packages/knowledge-core/src/fixtures/hostile-files.ts';
import { post, signIn, startProduct, stop, tempDataDir, waitUntil } from './support.ts';

const MB = 1024 * 1024;
const PORT = Number(process.env.BENCH_PORT ?? 3917);
const base = `http://127.0.0.1:${PORT}`;

/** A real Word document of about `bytes` of XML (varied text, so it compresses like one). */
function realDocx(bytes: number): Uint8Array {
  const paragraphs: string[] = [];
  for (let i = 0, size = 0; size < bytes; i++) {
    const paragraph = `<w:p><w:pPr><w:jc w:val="both"/></w:pPr><w:r><w:rPr><w:sz w:val="24"/></w:rPr><w:t xml:space="preserve">Clause ${i} of the handbook allows ${(i * 7919) % 100_003} days of leave, as agreed in writing. </w:t></w:r></w:p>`;
    paragraphs.push(paragraph);
    size += paragraph.length;
  }
  const w = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';
  return makeDocx(`<?xml version="1.0"?><w:document ${w}><w:body>${paragraphs.join('')}</w:body></w:document>`);
}

interface Case {
  name: string;
  file: string;
  /** A bomb must be refused; a real file may be accepted. */
  bomb: boolean;
  make: () => Uint8Array | Promise<Uint8Array>;
}

const IDLE_MS = 3000;

const CASES: Case[] = [
  // The yardstick: the same probe for 3 s with no upload, so a wait caused by other processes on
  // the machine is not taken for the server's.
  { name: 'nothing (3 s of probing an idle server)', file: '', bomb: false, make: () => new Uint8Array(0) },
  { name: 'DOCX zip bomb, 120 MB inflated', file: 'bomb-120.docx', bomb: true, make: () => makeDocxBomb(120 * MB) },
  { name: 'DOCX zip bomb, 30 MB inflated', file: 'bomb-30.docx', bomb: true, make: () => makeDocxBomb(30 * MB) },
  { name: 'XLSX zip bomb, 30 MB inflated', file: 'bomb-30.xlsx', bomb: true, make: () => makeXlsxBomb(30 * MB) },
  {
    name: 'lying sizes (2 KB declared, 30 MB inside)',
    file: 'lying.docx',
    bomb: true,
    make: () => makeLyingDocx(30 * MB),
  },
  { name: 'zip of 60 000 entries', file: 'many.docx', bomb: true, make: () => makeManyEntryDocx(60_000) },
  { name: 'XXE (entity naming /etc/passwd)', file: 'xxe.docx', bomb: true, make: () => makeXxeDocx() },
  { name: 'billion laughs', file: 'laughs.docx', bomb: true, make: () => makeBillionLaughsDocx() },
  { name: 'PDF flate bomb, 300 MB inflated', file: 'bomb.pdf', bomb: true, make: () => makePdfFlateBomb(300 * MB) },
  { name: 'CSV of 1 000 000 columns', file: 'wide.csv', bomb: true, make: () => makeWideCsv() },
  {
    name: 'TXT at the size limit (20 MB)',
    file: 'huge.txt',
    bomb: false,
    make: () => makeLargeText(KNOWLEDGE_MAX_FILE_BYTES),
  },
  {
    name: 'CSV at the size limit (20 MB)',
    file: 'huge.csv',
    bomb: false,
    make: () => makeLargeCsv(KNOWLEDGE_MAX_FILE_BYTES),
  },
  { name: 'real DOCX, 5 MB of XML', file: 'real.docx', bomb: false, make: () => realDocx(5 * MB) },
  { name: 'real PDF, 1 000 pages', file: 'real.pdf', bomb: false, make: () => makeEnglishPdf(1000) },
];

/** The node process that serves (npm → sh → node scripts/start.mjs), found among `root`'s descendants. */
function serverPid(root: number): number {
  const children = (pid: number): number[] =>
    execSync(`ps -o pid= --ppid ${pid} || true`)
      .toString()
      .split('\n')
      .map((line) => Number(line.trim()))
      .filter(Boolean);
  const queue = [root];
  while (queue.length > 0) {
    const pid = queue.shift() as number;
    const [program, ...args] = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    if (program.endsWith('node') && args.some((arg) => arg.endsWith('scripts/start.mjs'))) return pid;
    queue.push(...children(pid));
  }
  throw new Error('server process not found');
}

/**
 * The probe runs in a process of its own: this one is busy building files and sending 20 MB
 * bodies, and its own pauses must not count as the server's. Every 10 ms it sends a request and
 * times the answer; on `stop` it waits for the requests still out and reports the longest wait.
 */
const PROBE = `
let url = '', timer = null, longest = 0, answered = 0;
const out = new Set();
process.on('message', async (message) => {
  if (message.type === 'start') {
    url = message.url; longest = 0; answered = 0;
    timer = setInterval(() => {
      const sent = performance.now();
      const probe = fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })
        .then((answer) => answer.arrayBuffer())
        .then(() => { longest = Math.max(longest, performance.now() - sent); answered++; }, () => {});
      out.add(probe);
      probe.finally(() => out.delete(probe));
    }, 10);
  } else if (message.type === 'stop') {
    clearInterval(timer);
    await Promise.all([...out]);
    process.send({ longest, answered });
  } else process.exit(0);
});
`;
const prober = spawn(process.execPath, ['-e', PROBE], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
const probe = {
  start: () => prober.send({ type: 'start', url: `${base}/api/athena/v1/platform/info` }),
  stop: () =>
    new Promise<{ longest: number; answered: number }>((resolve) => {
      prober.once('message', (result) => resolve(result as { longest: number; answered: number }));
      prober.send({ type: 'stop' });
    }),
};

const rssMb = (pid: number) =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

const dataDir = tempDataDir();
let child = startProduct({ port: PORT, dataDir, logLevel: 'warn' });
process.once('exit', () => rmSync(dataDir, { recursive: true, force: true }));
const ready = () => waitUntil(async () => (await fetch(`${base}/api/athena/v1/platform/info`, probeInit)).ok, 180_000);
const probeInit = { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' };
await ready();

console.log('npx tsx bench/hostile-uploads.ts');
console.log(`${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} cores, load ${os.loadavg()[0].toFixed(1)}`);

const token = await signIn(base);
const space = await post<{ id: string }>(`${base}/api/athena/v1/team/create`, { name: 'Hostile' }, { token });
const headers = { token, 'space-id': space.id, language: 'en' };
const knowledge = await post<{ id: string }>(`${base}/api/athena/v1/knowledge/create`, { name: 'Hostile' }, headers);

interface Row {
  name: string;
  size: string;
  outcome: string;
  ms: number;
  stall: number;
  probes: number;
  before: number;
  rss: number;
  ok: boolean;
}
const rows: Row[] = [];
let crashes = 0;

for (const testCase of CASES) {
  const bytes = await testCase.make();
  const pid = serverPid(child.pid as number);
  const before = rssMb(pid);
  let peak = before;
  probe.start();
  const sampling = setInterval(() => {
    try {
      peak = Math.max(peak, rssMb(pid));
    } catch {
      // the server died; reported below
    }
  }, 20);
  const query = new URLSearchParams({ knowledge_id: knowledge.id, file_name: testCase.file });
  const started = performance.now();
  let outcome: string;
  if (!testCase.file) {
    await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
    outcome = '–';
  } else
    try {
      const answer = await fetch(`${base}${KNOWLEDGE_UPLOAD_PATH}?${query}`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/octet-stream' },
        body: bytes,
      });
      const json = (await answer.json()) as { code: number; msg: string };
      outcome = json.code === 0 ? 'accepted' : `refused ${json.code}`;
    } catch (error) {
      outcome = `no answer (${error instanceof Error ? error.message : error})`;
    }
  const ms = performance.now() - started;
  const { longest: stall, answered: probes } = await probe.stop();
  clearInterval(sampling);
  if (child.exitCode !== null || child.signalCode !== null) {
    crashes++;
    outcome = `CRASHED (${outcome})`;
    child = startProduct({ port: PORT, dataDir, logLevel: 'warn' });
    await ready();
  }
  const accepted = outcome === 'accepted';
  const ok = !outcome.startsWith('CRASHED') && !(testCase.bomb && accepted) && stall <= 100;
  const size = bytes.length >= MB ? `${(bytes.length / MB).toFixed(1)} MB` : `${Math.ceil(bytes.length / 1024)} KB`;
  rows.push({ name: testCase.name, size, outcome, ms, stall, probes, before, rss: peak, ok });
  console.log(
    `${testCase.name}: ${outcome} in ${ms.toFixed(0)} ms, max probe wait ${stall.toFixed(0)} ms over ${probes} probes, RSS ${before.toFixed(0)} → peak ${peak.toFixed(0)} MB`,
  );
}

console.log('\n| file | size | result | upload took | max probe wait | probes | RSS before → peak | target met |');
console.log('|---|---|---|---|---|---|---|---|');
for (const row of rows) {
  console.log(
    `| ${row.name} | ${row.size} | ${row.outcome} | ${row.ms.toFixed(0)} ms | ${row.stall.toFixed(0)} ms | ${row.probes} | ${row.before.toFixed(0)} → ${row.rss.toFixed(0)} MB | ${row.outcome === '–' ? '–' : row.ok ? 'yes' : '**no**'} |`,
  );
}
const acceptedBombs = rows.filter((row, index) => CASES[index].bomb && row.outcome === 'accepted').length;
console.log(
  `\ncrashes ${crashes}, bombs accepted ${acceptedBombs}, worst probe wait during an upload ${Math.max(...rows.filter((row) => row.outcome !== '–').map((row) => row.stall)).toFixed(0)} ms`,
);
prober.send({ type: 'exit' });
await stop(child);
