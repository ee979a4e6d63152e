// Media uploads and delivery at the 5 GB limit (issue #16, docs/media.md), on the product started as
// the README does (`npm start`, bundled server, embedded database), over loopback:
// 1. throughput of one 5 GB file (5 × 1024³ bytes) uploaded over tus with tus-js-client 4.3.1 from
//    Node, in the chunks the web's upload panel sends for that size (chunkSizeFor: 52 MiB at 5 GB;
//    the target) and, for comparison, in its smallest, 8 MiB, against a
//    "raw loopback write": a plain node:http server (a child process, as the product is) that only
//    streams each PATCH body to a file at its offset, fed by the same client, source, chunk sizes
//    and sequential requests. MiB/s of both, the ratio, and each server's CPU seconds per GiB;
//    target tus ≥ 80 % of raw. Also the fixed cost of a chunk: 200 PATCHes of 1 byte;
// 2. the server process's RSS (VmRSS of the node running scripts/start.mjs) every 250 ms during the
//    uploads: start, peak, peak − start; target < 100 MB growth;
// 3. kill -9 of the product (its whole process group) halfway through the first chunk past 50 % of
//    an upload, a new start on the same DATA_DIR, and the resume with tus-js-client (same
//    fingerprint, so the stored upload URL; HEAD gives the offset, part of the cut chunk included);
//    then the whole item downloaded through its signed URL: its sha256 must be the source's;
// 4. 1 000 random 64 KiB `Range` GETs on that item's signed URL (keep-alive), one at a time and 8
//    at a time: p50/p95/p99, every answer 206 with the right Content-Range and the source's bytes.
//    Target p95 ≤ 20 ms. For comparison, the latency of a forged signature (404) and of 1-byte ranges.
// The source is a random 64 MiB block repeated, each 4 KiB stamped with its own offset (so a range
// from the wrong place cannot match), written to a temporary directory under /tmp (the same disk as
// DATA_DIR; at 5 GB up to ~15 GB on disk at once); everything made is removed at the end. Each
// figure is printed with PASS/FAIL against its target; the exit code is 1 when any target is missed.
// Run: npx tsx bench/media.ts                                   (5 GB: about 5–10 minutes here)
//      BENCH_MEDIA_BYTES=209715200 npx tsx bench/media.ts       (a quick 200 MiB run)
// Settings: BENCH_MEDIA_BYTES (5 × 1024³), BENCH_PORT (3963), BENCH_RAW_PORT (3964), BENCH_RANGES (1000),
// BENCH_RANGE_CONCURRENCY (8), BENCH_MEDIA_REPEAT (1: how many raw/tus pairs per chunk size).
import { type ChildProcess, execSync, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { MEDIA_UPLOAD_PATH, mediaRoutes, teamRoutes } from '@athena/contract';
import * as tus from 'tus-js-client';
import { Client } from 'undici';
import { chunkSizeFor } from '../apps/web/src/features/media/upload-math.ts';
import { post, signIn, startProduct, stop, tempDataDir, waitUntil } from './support.ts';

const MiB = 1024 * 1024;
const SIZE = Number(process.env.BENCH_MEDIA_BYTES ?? 5 * 1024 ** 3);
const PORT = Number(process.env.BENCH_PORT ?? 3963);
const RAW_PORT = Number(process.env.BENCH_RAW_PORT ?? 3964);
const RANGES = Number(process.env.BENCH_RANGES ?? 1000);
const CONCURRENCY = Number(process.env.BENCH_RANGE_CONCURRENCY ?? 8);
/** How many times the raw/tus pair runs for each chunk size. */
const REPEAT = Number(process.env.BENCH_MEDIA_REPEAT ?? 1);
/** The web's upload panel's chunk for this size (52 MiB at 5 GB): what the target is judged on. */
const WEB_CHUNK = chunkSizeFor(SIZE);
/** The smallest chunk the panel sends (files up to 800 MiB), for comparison. */
const SMALL_CHUNK = 8 * MiB;
const RANGE_BYTES = 64 * 1024;
const base = `http://127.0.0.1:${PORT}`;

const results: { target: string; figure: string; pass: boolean }[] = [];
const verdict = (target: string, figure: string, pass: boolean) => {
  results.push({ target, figure, pass });
  console.log(`${pass ? 'PASS' : 'FAIL'}  ${target}: ${figure}`);
};
const mibps = (bytes: number, ms: number) => bytes / MiB / (ms / 1000);
const sizeText = (bytes: number) =>
  bytes >= 1024 ** 3 ? `${(bytes / 1024 ** 3).toFixed(2)} GiB` : `${(bytes / MiB).toFixed(1)} MiB`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};
/** Flushes dirty pages, so one run's writeback does not slow the next one down. */
const flush = () => execSync('sync');

// ---------------------------------------------------------------------------------------------
// The source file.

const work = mkdtempSync(path.join(os.tmpdir(), 'athena-bench-media-'));
const dataDir = tempDataDir();
const source = path.join(work, 'source.bin');
const children: ChildProcess[] = [];
let cleaned = false;
const cleanUp = () => {
  if (cleaned) return;
  cleaned = true;
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null && child.pid) {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    }
  }
  rmSync(work, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
};
process.once('exit', cleanUp);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    cleanUp();
    process.exit(130);
  });
}

/** Each 4 KiB of the file starts with its own offset (6 bytes), so every 64 KiB range is unique. */
function stamp(block: Buffer, at: number, length: number) {
  for (let position = 0; position + 6 <= length; position += 4096) block.writeUIntLE(at + position, position, 6);
}

async function makeSource(): Promise<string> {
  const started = performance.now();
  const block = randomBytes(Math.min(64 * MiB, SIZE));
  // Bytes that sniff as nothing in particular: the item is of kind "other".
  block.write('ATHENA-BENCH', 6);
  const hash = createHash('sha256');
  const file = await fsp.open(source, 'w');
  try {
    for (let at = 0; at < SIZE; at += block.length) {
      const length = Math.min(block.length, SIZE - at);
      stamp(block, at, length);
      const piece = block.subarray(0, length);
      hash.update(piece);
      await file.write(piece, 0, length, at);
    }
  } finally {
    await file.close();
  }
  const digest = hash.digest('hex');
  console.log(`source: ${sizeText(SIZE)} written and hashed in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return digest;
}

// ---------------------------------------------------------------------------------------------
// Processes: the product, the raw server, their RSS.

/** The node process that serves (npm → sh → node scripts/start.mjs), among `root`'s descendants. */
function serverPid(root: number): number {
  const childrenOf = (pid: number): number[] =>
    execSync(`ps -o pid= --ppid ${pid} || true`)
      .toString()
      .split('\n')
      .map((line) => Number(line.trim()))
      .filter(Boolean);
  const queue = [root];
  while (queue.length > 0) {
    const pid = queue.shift() as number;
    try {
      const [program, ...args] = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      if (program.endsWith('node') && args.some((arg) => arg.endsWith('scripts/start.mjs'))) return pid;
    } catch {
      // gone meanwhile
    }
    queue.push(...childrenOf(pid));
  }
  throw new Error('server process not found');
}

const rssMb = (pid: number) =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

/** VmRSS of `pid` every 250 ms until `stop`. */
function sampleRss(pid: number) {
  const samples = [rssMb(pid)];
  const timer = setInterval(() => {
    try {
      samples.push(rssMb(pid));
    } catch {
      // the process is gone (the kill -9 phase)
    }
  }, 250);
  return {
    stop() {
      clearInterval(timer);
      const start = samples[0];
      const peak = Math.max(...samples);
      return { start, peak, growth: peak - start, end: samples[samples.length - 1], count: samples.length };
    },
  };
}

/** CPU ticks (user + system) of a process. */
const cpuTicks = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return Number(fields[11]) + Number(fields[12]);
};
const TICKS_PER_SECOND = Number(execSync('getconf CLK_TCK').toString().trim()) || 100;
/** CPU seconds `pid` spends from now until the returned function is called. */
const cpuMeter = (pid: number) => {
  const before = cpuTicks(pid);
  return () => (cpuTicks(pid) - before) / TICKS_PER_SECOND;
};
/**
 * Waits until the server has been nearly idle for a second: after an upload it hashes the whole
 * file in the background (sha256, docs/media.md), which must not run into the next measurement.
 */
async function settle(pid: number, timeoutMs = 300_000) {
  const started = performance.now();
  let quiet = 0;
  let before = cpuTicks(pid);
  while (performance.now() - started < timeoutMs) {
    await sleep(500);
    const now = cpuTicks(pid);
    quiet = now - before <= 3 ? quiet + 1 : 0;
    before = now;
    if (quiet >= 2) return (performance.now() - started) / 1000;
  }
  return (performance.now() - started) / 1000;
}

let product = startProduct({ port: PORT, dataDir, logLevel: 'warn' });
children.push(product);
const ready = () =>
  waitUntil(async () => (await fetch(`${base}/api/athena/v1/platform/info`, { method: 'POST' })).ok, 180_000);

/**
 * The yardstick: a plain node:http server that speaks just enough tus for tus-js-client (POST gives
 * a Location, PATCH streams its body into the file at the offset, HEAD tells the offset) and does
 * nothing else: no authentication, no database, no locks, no web streams. Its own process, like the
 * product's, so neither shares an event loop with the client.
 */
const RAW_SERVER = `
const http = require('node:http');
const fs = require('node:fs');
const { pipeline } = require('node:stream/promises');
const dir = process.argv[1];
const uploads = new Map();
let next = 0;
http.createServer(async (req, res) => {
  const headers = { 'tus-resumable': '1.0.0' };
  if (req.method === 'POST') {
    const id = String(++next);
    fs.closeSync(fs.openSync(dir + '/raw-' + id, 'w'));
    uploads.set(id, { size: Number(req.headers['upload-length']), offset: 0 });
    req.resume();
    req.on('end', () => { res.writeHead(201, { ...headers, location: '/raw/' + id }); res.end(); });
    return;
  }
  const upload = uploads.get(req.url.split('/').pop());
  if (!upload) { res.writeHead(404, headers); res.end(); return; }
  if (req.method === 'HEAD') {
    res.writeHead(200, { ...headers, 'upload-offset': upload.offset, 'upload-length': upload.size });
    res.end();
    return;
  }
  const out = fs.createWriteStream(dir + '/raw-' + req.url.split('/').pop(), { flags: 'r+', start: upload.offset });
  try {
    await pipeline(req, out);
    upload.offset += out.bytesWritten;
    res.writeHead(204, { ...headers, 'upload-offset': upload.offset });
  } catch {
    res.writeHead(500, headers);
  }
  res.end();
}).listen(Number(process.argv[2]), '127.0.0.1', () => process.send('ready'));
`;
const raw = spawn(process.execPath, ['-e', RAW_SERVER, work, String(RAW_PORT)], {
  detached: true,
  stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
});
children.push(raw);
await new Promise((resolve, reject) => {
  raw.once('message', resolve);
  raw.once('exit', (code) => reject(new Error(`raw server exited with ${code}`)));
});

console.log('npx tsx bench/media.ts');
console.log(
  `${new Date().toISOString()}, ${os.cpus().length} cores, ${(os.totalmem() / 1024 ** 3).toFixed(0)} GiB RAM, load ${os.loadavg()[0].toFixed(2)}, file ${sizeText(SIZE)}`,
);
const sourceSha = await makeSource();
await ready();
let pid = serverPid(product.pid as number);

const token = await signIn(base);
const space = await post<{ id: string }>(`${base}${teamRoutes.create.path}`, { name: 'Media bench' }, { token });
const headers = { token, 'space-id': space.id, language: 'en' };
const api = <T>(route: { path: string }, body: unknown) => post<T>(`${base}${route.path}`, body, headers);
const library = await api<{ id: string }>(mediaRoutes.libraryCreate, { name: 'Bench' });

// ---------------------------------------------------------------------------------------------
// Uploading.

/** tus-js-client's URL storage (localStorage in the browser) kept in memory, for the resume. */
class MemoryUrlStorage implements tus.UrlStorage {
  private items = new Map<string, tus.PreviousUpload & { fingerprint: string }>();
  async findAllUploads() {
    return [...this.items.values()];
  }
  async findUploadsByFingerprint(fingerprint: string) {
    return [...this.items.values()].filter((item) => item.fingerprint === fingerprint);
  }
  async removeUpload(key: string) {
    this.items.delete(key);
  }
  async addUpload(fingerprint: string, upload: tus.PreviousUpload) {
    const key = `tus::${fingerprint}::${this.items.size}`;
    this.items.set(key, { ...upload, urlStorageKey: key, fingerprint });
    return key;
  }
}

interface UploadRun {
  ms: number;
  itemId: string;
  firstPatchOffset: number | null;
}

/**
 * Uploads the source with tus-js-client. Given a file stream it reads each chunk from disk as it
 * sends it (a fresh ReadStream per slice), the way a Node client uploads a large file.
 */
function upload(
  endpoint: string,
  chunkSize: number,
  options: {
    withSession?: boolean;
    urlStorage?: MemoryUrlStorage;
    resume?: boolean;
    /** Called as each PATCH goes out, with its Upload-Offset. */
    onPatch?: (offset: number) => void;
  } = {},
): Promise<UploadRun> {
  return new Promise((resolve, reject) => {
    let firstPatchOffset: number | null = null;
    const started = performance.now();
    // tus-js-client's Node file source takes an fs.ReadStream with a path (its types list only Buffer).
    const input = createReadStream(source) as unknown as Buffer;
    const run = new tus.Upload(input, {
      endpoint,
      chunkSize,
      uploadSize: SIZE,
      headers: options.withSession === false ? {} : headers,
      metadata: { library_id: library.id, filename: 'bench.bin' },
      retryDelays: [],
      ...(options.urlStorage
        ? {
            urlStorage: options.urlStorage,
            fingerprint: async () => `media-bench-${space.id}-${SIZE}`,
            storeFingerprintForResuming: true,
            removeFingerprintOnSuccess: true,
          }
        : { storeFingerprintForResuming: false }),
      onBeforeRequest: (request) => {
        if (request.getMethod() !== 'PATCH') return;
        const offset = Number(request.getHeader('Upload-Offset'));
        firstPatchOffset ??= offset;
        options.onPatch?.(offset);
      },
      onError: reject,
      onSuccess: ({ lastResponse }) =>
        resolve({
          ms: performance.now() - started,
          itemId: lastResponse.getHeader('Media-Item-Id') ?? '',
          firstPatchOffset,
        }),
    });
    if (!options.resume) {
      run.start();
      return;
    }
    run
      .findPreviousUploads()
      .then((previous) => {
        if (previous.length === 0) throw new Error('no stored upload to resume');
        run.resumeFromPreviousUpload(previous[0]);
        run.start();
      })
      .catch(reject);
  });
}

async function purge(itemId: string) {
  await api(mediaRoutes.itemDelete, { id: itemId });
  await api(mediaRoutes.itemPurge, { id: itemId });
}

const endpoint = `${base}${MEDIA_UPLOAD_PATH}`;
const rawEndpoint = `http://127.0.0.1:${RAW_PORT}/raw/`;
const throughput: { label: string; raw: number; tus: number }[] = [];
let worstGrowth = 0;

const load = () => `load ${os.loadavg()[0].toFixed(2)}`;
const rounds = Array.from({ length: REPEAT }, (_, round) =>
  [...new Set([SMALL_CHUNK, WEB_CHUNK])].map((chunk) => ({ round, chunk })),
);
for (const { round, chunk } of rounds.flat()) {
  const label = `${chunk / MiB} MiB chunks${REPEAT > 1 ? `, run ${round + 1}` : ''}`;
  flush();
  const rawRss = sampleRss(raw.pid as number);
  const rawCpu = cpuMeter(raw.pid as number);
  const rawRun = await upload(rawEndpoint, chunk, { withSession: false });
  const rawSeconds = rawCpu();
  const rawMemory = rawRss.stop();
  for (const name of await fsp.readdir(work)) if (name.startsWith('raw-')) await fsp.rm(path.join(work, name));
  const rawSpeed = mibps(SIZE, rawRun.ms);
  console.log(
    `raw loopback write, ${label}: ${(rawRun.ms / 1000).toFixed(1)} s, ${rawSpeed.toFixed(0)} MiB/s, raw server CPU ${rawSeconds.toFixed(1)} s (${(rawSeconds / (SIZE / 1024 ** 3)).toFixed(1)} s per GiB), RSS ${rawMemory.start.toFixed(0)} → peak ${rawMemory.peak.toFixed(0)} MB, ${load()}`,
  );

  flush();
  const rss = sampleRss(pid);
  const tusCpu = cpuMeter(pid);
  const tusRun = await upload(endpoint, chunk);
  const tusSeconds = tusCpu();
  const memory = rss.stop();
  const tusSpeed = mibps(SIZE, tusRun.ms);
  const ratio = tusSpeed / rawSpeed;
  throughput.push({ label, raw: rawSpeed, tus: tusSpeed });
  console.log(
    `tus upload, ${label}: ${(tusRun.ms / 1000).toFixed(1)} s, ${tusSpeed.toFixed(0)} MiB/s, server CPU ${tusSeconds.toFixed(1)} s (${(tusSeconds / (SIZE / 1024 ** 3)).toFixed(1)} s per GiB), item ${tusRun.itemId}, ${load()}`,
  );
  console.log(
    `server RSS every 250 ms (${memory.count} samples): start ${memory.start.toFixed(0)} MB, peak ${memory.peak.toFixed(0)} MB, growth ${memory.growth.toFixed(0)} MB, end ${memory.end.toFixed(0)} MB`,
  );
  const figure = `${tusSpeed.toFixed(0)} / ${rawSpeed.toFixed(0)} MiB/s = ${(ratio * 100).toFixed(0)} %`;
  if (chunk === WEB_CHUNK)
    verdict(`tus ≥ 80 % of raw loopback write (${label}, the web's chunk)`, figure, ratio >= 0.8);
  else console.log(`INFO  tus against raw loopback write (${label}, for comparison): ${figure}`);
  verdict(
    `server RSS growth < 100 MB during the upload (${label})`,
    `${memory.start.toFixed(0)} → ${memory.peak.toFixed(0)} MB (+${memory.growth.toFixed(0)} MB)`,
    memory.growth < 100,
  );
  worstGrowth = Math.max(worstGrowth, memory.growth);
  const hashing = await settle(pid);
  console.log(`server idle again ${hashing.toFixed(1)} s after the finish (background sha256)`);
  await purge(tusRun.itemId);
}

// What a chunk costs apart from its bytes: PATCHes of one byte each (session, upload row, quota
// sum, tus's locks and file metadata, the write) on a keep-alive connection.
{
  const PATCHES = 200;
  const created = await fetch(endpoint, {
    method: 'POST',
    headers: {
      ...headers,
      'tus-resumable': '1.0.0',
      'upload-length': String(PATCHES),
      'upload-metadata': `library_id ${Buffer.from(library.id).toString('base64')},filename ${Buffer.from('bytes.bin').toString('base64')}`,
    },
  });
  const uploadPath = new URL(created.headers.get('location') ?? '', endpoint).pathname;
  const patcher = new Client(base, { keepAliveTimeout: 60_000 });
  const latencies: number[] = [];
  const cpu = cpuMeter(pid);
  let itemId = '';
  for (let offset = 0; offset < PATCHES; offset++) {
    const sent = performance.now();
    const answer = await patcher.request({
      path: uploadPath,
      method: 'PATCH',
      headers: {
        ...headers,
        'tus-resumable': '1.0.0',
        'upload-offset': String(offset),
        'content-type': 'application/offset+octet-stream',
      },
      body: Buffer.from([offset & 0xff]),
    });
    await answer.body.arrayBuffer();
    latencies.push(performance.now() - sent);
    if (answer.statusCode !== 204) throw new Error(`1-byte PATCH: ${answer.statusCode}`);
    itemId = String(answer.headers['media-item-id'] ?? '');
  }
  const seconds = cpu();
  await patcher.close();
  const p = (q: number) => percentile(latencies, q).toFixed(1);
  console.log(
    `for comparison, ${PATCHES} PATCHes of 1 byte, one at a time: p50 ${p(50)} ms, p95 ${p(95)} ms, server CPU ${((seconds / PATCHES) * 1000).toFixed(1)} ms per PATCH (the last one finishes the upload)`,
  );
  await settle(pid);
  if (itemId) await purge(itemId);
}

// ---------------------------------------------------------------------------------------------
// kill -9 at 50 %, start again, resume.

flush();
const storage = new MemoryUrlStorage();
let killedAt = 0;
let killDelay = 0;
const patchTimes: number[] = [];
const rssBeforeKill = sampleRss(pid);
const interrupted = await upload(endpoint, WEB_CHUNK, {
  urlStorage: storage,
  // The first chunk at or past the middle is cut in its middle (half the time the chunks before
  // it took), so the server dies holding part of a chunk it never answered. The whole process
  // group goes: npm, sh and the node server.
  onPatch: (offset) => {
    patchTimes.push(performance.now());
    if (killedAt !== 0 || offset < SIZE / 2) return;
    killedAt = offset;
    const gaps = patchTimes.slice(-9).map((at, i, all) => (i === 0 ? 0 : at - all[i - 1]));
    killDelay = Math.max(1, percentile(gaps.slice(1), 50) / 2);
    setTimeout(() => process.kill(-(product.pid as number), 'SIGKILL'), killDelay);
  },
}).then(
  () => null,
  (error: Error) => error,
);
const firstHalfMemory = rssBeforeKill.stop();
if (!interrupted) throw new Error('the upload finished although the server was killed');
if (product.exitCode === null && product.signalCode === null) {
  await new Promise((resolve) => product.once('exit', resolve));
}
console.log(
  `kill -9 ${killDelay.toFixed(0)} ms into the chunk at offset ${killedAt} (${sizeText(killedAt)}); the client saw: ${interrupted.message.split('\n')[0].slice(0, 120)}`,
);
const restartStarted = performance.now();
product = startProduct({ port: PORT, dataDir, logLevel: 'warn' });
children.push(product);
await ready();
pid = serverPid(product.pid as number);
const restartSeconds = (performance.now() - restartStarted) / 1000;
const [stored] = await storage.findAllUploads();
const head = await fetch(new URL(stored?.uploadUrl ?? '', endpoint), {
  method: 'HEAD',
  headers: { ...headers, 'tus-resumable': '1.0.0' },
});
const headOffset = Number(head.headers.get('upload-offset'));
console.log(
  `started again in ${restartSeconds.toFixed(1)} s; HEAD ${head.status}, Upload-Offset ${headOffset} (${sizeText(headOffset)}: ${((headOffset - killedAt) / MiB).toFixed(2)} MiB of the cut chunk kept)`,
);
const rssResume = sampleRss(pid);
const resumed = await upload(endpoint, WEB_CHUNK, { urlStorage: storage, resume: true });
const resumeMemory = rssResume.stop();
console.log(
  `resumed from ${resumed.firstPatchOffset} (first PATCH), finished in ${(resumed.ms / 1000).toFixed(1)} s (${load()}, ${mibps(SIZE - (resumed.firstPatchOffset ?? 0), resumed.ms).toFixed(0)} MiB/s), item ${resumed.itemId}; RSS before the kill ${firstHalfMemory.start.toFixed(0)} → ${firstHalfMemory.peak.toFixed(0)} MB, after the restart ${resumeMemory.start.toFixed(0)} → ${resumeMemory.peak.toFixed(0)} MB`,
);
worstGrowth = Math.max(worstGrowth, firstHalfMemory.growth, resumeMemory.growth);
const afterResume = await settle(pid);
console.log(`server idle again ${afterResume.toFixed(1)} s after the finish`);

const { url: signedPath } = await api<{ url: string }>(mediaRoutes.itemUrl, { id: resumed.itemId });
const client = new Client(base, { keepAliveTimeout: 60_000 });
const downloadStarted = performance.now();
const whole = await client.request({ path: signedPath, method: 'GET' });
const downloadHash = createHash('sha256');
let downloaded = 0;
for await (const piece of whole.body) {
  downloadHash.update(piece as Buffer);
  downloaded += (piece as Buffer).length;
}
const downloadMs = performance.now() - downloadStarted;
const downloadSha = downloadHash.digest('hex');
console.log(
  `download through the signed URL: ${whole.statusCode}, ${sizeText(downloaded)} in ${(downloadMs / 1000).toFixed(1)} s (${mibps(downloaded, downloadMs).toFixed(0)} MiB/s)`,
);
verdict(
  'after kill -9 at 50 % and resume, the item sha256 = the source sha256',
  `${downloadSha.slice(0, 16)}… vs ${sourceSha.slice(0, 16)}…, resumed at ${headOffset} B, finished in ${(resumed.ms / 1000).toFixed(1)} s`,
  downloadSha === sourceSha && downloaded === SIZE && headOffset > 0 && resumed.firstPatchOffset === headOffset,
);

// ---------------------------------------------------------------------------------------------
// Range seeks.

const sourceFile = await fsp.open(source, 'r');
interface Answer {
  start: number;
  end: number;
  status: number;
  contentRange: unknown;
  body: Buffer;
}
const answers: Answer[] = [];
/** One GET of a range of `pathAndQuery`: its latency; the answer is kept to be checked afterwards. */
async function get(on: Client, pathAndQuery: string, start: number, end: number, keep: boolean) {
  const sent = performance.now();
  const answer = await on.request({ path: pathAndQuery, method: 'GET', headers: { range: `bytes=${start}-${end}` } });
  const body = Buffer.from(await answer.body.arrayBuffer());
  const ms = performance.now() - sent;
  if (keep)
    answers.push({ start, end, status: answer.statusCode, contentRange: answer.headers['content-range'], body });
  return ms;
}
/** One random 64 KiB range of the item. */
function seek(on: Client): Promise<number> {
  const start = Math.floor(Math.random() * (SIZE - RANGE_BYTES + 1));
  return get(on, signedPath, start, start + RANGE_BYTES - 1, true);
}

const cached = (() => {
  try {
    return execSync(`fincore --bytes --noheadings --output RES ${path.join(dataDir, 'media', 'files')}/*/* 2>/dev/null`)
      .toString()
      .trim();
  } catch {
    return '';
  }
})();
if (cached) console.log(`item bytes in the page cache before the seeks (fincore): ${sizeText(Number(cached))}`);
for (let i = 0; i < 20; i++) await seek(client); // warm-up, not counted
const rangeRuns: { label: string; latencies: number[]; seconds: number; cpu: number }[] = [];
{
  const latencies: number[] = [];
  const started = performance.now();
  const cpu = cpuMeter(pid);
  for (let i = 0; i < RANGES; i++) latencies.push(await seek(client));
  rangeRuns.push({ label: 'one at a time', latencies, seconds: (performance.now() - started) / 1000, cpu: cpu() });
}
{
  const clients = Array.from({ length: CONCURRENCY }, () => new Client(base, { keepAliveTimeout: 60_000 }));
  for (const each of clients) await seek(each); // opens the connections before the clock starts
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  const cpu = cpuMeter(pid);
  await Promise.all(
    clients.map(async (each) => {
      while (next < RANGES) {
        next++;
        latencies.push(await seek(each));
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  rangeRuns.push({ label: `${CONCURRENCY} at a time`, latencies, seconds, cpu: cpu() });
  await Promise.all(clients.map((each) => each.close()));
}
// What a request costs without the 64 KiB: a forged signature (404 before any lookup: routing,
// HMAC, the envelope) and a 1-byte range (plus the item's row, a stat, opening the file).
const forged = signedPath.replace(/sig=[^&]+/, 'sig=AAAA');
const costs: { label: string; latencies: number[] }[] = [
  { label: 'forged signature (404)', latencies: [] },
  { label: '1-byte range', latencies: [] },
];
for (let i = 0; i < 300; i++) costs[0].latencies.push(await get(client, forged, 0, 0, false));
for (let i = 0; i < 300; i++) {
  const at = Math.floor(Math.random() * SIZE);
  costs[1].latencies.push(await get(client, signedPath, at, at, false));
}
await client.close();
// The answers are checked after the clock stopped, so the checking takes no CPU from the seeks.
let wrong = 0;
const wrongSamples: string[] = [];
for (const answer of answers) {
  const expected = Buffer.alloc(RANGE_BYTES);
  await sourceFile.read(expected, 0, RANGE_BYTES, answer.start);
  const right = `bytes ${answer.start}-${answer.end}/${SIZE}`;
  if (answer.status !== 206 || answer.contentRange !== right || !answer.body.equals(expected)) {
    wrong++;
    if (wrongSamples.length < 3) wrongSamples.push(`${answer.status} ${answer.contentRange} for ${right}`);
  }
}
await sourceFile.close();
for (const run of rangeRuns) {
  const p = (q: number) => percentile(run.latencies, q).toFixed(1);
  console.log(
    `range seeks, ${run.label}: ${run.latencies.length} in ${run.seconds.toFixed(1)} s (${(run.latencies.length / run.seconds).toFixed(0)}/s, server CPU ${((run.cpu / run.latencies.length) * 1000).toFixed(2)} ms per request, ${load()}), p50 ${p(50)} ms, p95 ${p(95)} ms, p99 ${p(99)} ms, max ${Math.max(...run.latencies).toFixed(1)} ms`,
  );
  verdict(
    `range seek p95 ≤ 20 ms (${run.label})`,
    `p50 ${p(50)} / p95 ${p(95)} / p99 ${p(99)} ms`,
    percentile(run.latencies, 95) <= 20,
  );
}
for (const cost of costs) {
  const p = (q: number) => percentile(cost.latencies, q).toFixed(1);
  console.log(`for comparison, ${cost.label}, one at a time: p50 ${p(50)} ms, p95 ${p(95)} ms, p99 ${p(99)} ms`);
}
verdict(
  'every range answer 206 with the right Content-Range and the source bytes',
  wrong === 0 ? `${answers.length} checked` : `${wrong} of ${answers.length} wrong: ${wrongSamples.join('; ')}`,
  wrong === 0,
);

// ---------------------------------------------------------------------------------------------
// Summary.

console.log('\n| chunks | raw loopback write | tus (product) | tus / raw |');
console.log('|---|---|---|---|');
for (const row of throughput) {
  console.log(
    `| ${row.label} | ${row.raw.toFixed(0)} MiB/s | ${row.tus.toFixed(0)} MiB/s | ${((row.tus / row.raw) * 100).toFixed(0)} % |`,
  );
}
console.log(`\nworst server RSS growth during an upload: ${worstGrowth.toFixed(0)} MB`);
console.log('\n| target | figure | met |');
console.log('|---|---|---|');
for (const row of results) console.log(`| ${row.target} | ${row.figure} | ${row.pass ? 'yes' : '**no**'} |`);

await api(mediaRoutes.itemDelete, { id: resumed.itemId });
await api(mediaRoutes.itemPurge, { id: resumed.itemId });
await stop(product);
raw.kill('SIGTERM');
cleanUp();
process.exit(results.every((row) => row.pass) ? 0 : 1);
