// HNSW recall@10 against exact search over 100 000 segments on the embedded database, with vectors
// from a real (if small) semantic model: Universal Sentence Encoder Lite (English, 512 d), run
// locally (bench/use-embeddings.ts). The product's own table, index statement (vectors.ts
// ensureIndex) and query shape (nearest).
// Run: npx tsx bench/knowledge-vector-recall.ts
//   BENCH_CORPUS: prose (the default; bench/corpus-prose.ts: chunks of the machine's manual pages,
//     Info manuals, Python docstrings, npm READMEs and Rust books, the kind of text a knowledge
//     base holds) or recombined (bench/corpus-recombined.ts: the evaluation set's 316 English
//     sentences recombined, far more crowded than real documents: the hard case)
//   BENCH_SEGMENTS (100000), BENCH_QUERIES (200), BENCH_FRESH=1 (rebuild the kept database; the
//   vector cache stays), BENCH_HNSW_MEMORY (1GB; "default" keeps PGlite's 64MB), BENCH_DB=memory,
//   BENCH_EMBED_PROCESSES (the number of cores)
// The first run embeds every segment (about 20 segments/s per core here, so 40 minutes for
// 100 000 on two cores; a stopped run resumes), keeps the vectors (205 MB) and the database
// (1.5 GB) under the temp directory, and later runs only measure (a few minutes).
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { buildHnsw, hnswOverride, loadCorpus, openKeptCorpus } from './corpus-load.ts';
import { proseCorpus, proseQueries } from './corpus-prose.ts';
import { recombinedCorpus } from './corpus-recombined.ts';
import { measureHnswRecall } from './hnsw-recall.ts';
import { type BenchApp, dbKindFromEnv, machineLine, today } from './knowledge-support.ts';
import {
  USE_DIMS as DIMS,
  embedCorpus,
  embedHere,
  USE_MODEL_NAME as MODEL_NAME,
  USE_VERSIONS,
} from './use-embeddings.ts';

const SEGMENTS = Number(process.env.BENCH_SEGMENTS ?? 100_000);
const QUERIES = Number(process.env.BENCH_QUERIES ?? 200);
const CORPUS = process.env.BENCH_CORPUS === 'recombined' ? 'recombined' : 'prose';
const DB = dbKindFromEnv();
const INSERT_BATCH = 1000;

const seconds = (ms: number) => (ms / 1000).toFixed(1);
const wordCount = (text: string) => text.split(/\s+/).filter(Boolean).length;

console.log(`${CORPUS === 'prose' ? '' : 'BENCH_CORPUS=recombined '}npx tsx bench/knowledge-vector-recall.ts`);
console.log(`${today()}, ${await machineLine()}, PGlite ${DB === 'file' ? 'file-backed' : 'in memory'}`);
console.log(`model: Universal Sentence Encoder Lite, ${DIMS} d, local (${USE_VERSIONS})`);

// ---------------------------------------------------------------------------------------------
// The corpus and its queries. A segment's vector is of what the indexer embeds (embeddingTextOf
// of a content segment is its content).

const generateStarted = performance.now();
let texts: string[];
let unitNames: string[];
let unitOf: ((index: number) => number) | undefined;
let queries: { kind: string; text: string }[];
let kindTitles: Record<string, string>;
let corpusLine: string;
if (CORPUS === 'prose') {
  const corpus = await proseCorpus(SEGMENTS);
  texts = corpus.texts;
  // One unit per source document, as if each had been uploaded as a file.
  unitNames = [...new Set(corpus.pageOf)];
  const unitIndex = new Map(unitNames.map((name, index) => [name, index]));
  unitOf = (index) => unitIndex.get(corpus.pageOf[index]) ?? 0;
  queries = proseQueries(corpus, QUERIES);
  kindTitles = { description: 'descriptions', fragment: 'fragments' };
  const sources = Object.entries(corpus.sourceCounts).map(([name, n]) => `${name} ${n}`);
  corpusLine =
    `${SEGMENTS} chunks of ${corpus.pages} documents, a seeded sample of ${corpus.chunksBeforeSample} ` +
    `(${sources.join(', ')})`;
} else {
  const corpus = recombinedCorpus(SEGMENTS, QUERIES);
  ({ texts, unitNames, queries } = corpus);
  kindTitles = { question: 'questions', fragment: 'fragments' };
  corpusLine = corpus.summary;
}
const generateMs = performance.now() - generateStarted;

const embedded = await embedCorpus(texts, CORPUS);
const vectors = embedded.vectors;
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
  `corpus (${CORPUS}): ${corpusLine}, made in ${seconds(generateMs)} s; ` +
    `${mean(textWords).toFixed(0)} words (${least(textWords)}–${most(textWords)}) and ` +
    `${mean(textChars).toFixed(0)} characters (${least(textChars)}–${most(textChars)}) on average; ` +
    `${distinctVectors} distinct vectors`,
);
console.log(embedded.line);
console.log(`e.g. segment 1000: ${JSON.stringify(texts[Math.min(1000, SEGMENTS - 1)])}`);

// ---------------------------------------------------------------------------------------------
// The database is kept between runs (corpus-load.ts openKeptCorpus) while the vectors (above) and
// the loading code here are unchanged.

/** float32 values as text that pgvector reads back to the same float32 (9 significant digits). */
const vectorText = (vector: ArrayLike<number>) => {
  const parts: string[] = new Array(vector.length);
  for (let i = 0; i < vector.length; i++) parts[i] = vector[i].toPrecision(9);
  return `[${parts.join(',')}]`;
};

const source = readFileSync(new URL(import.meta.url), 'utf8');
const loadCode = source.slice(source.indexOf('// The database is kept'), source.indexOf('// Queries, embedded'));
const override = hnswOverride();
const { bench, baseId, keyId } = await openKeptCorpus({
  db: DB,
  // A side measurement's database is kept beside the product's, not in its place.
  prefix: `athena-bench-vector-recall-${CORPUS}-${SEGMENTS}-${override ? `m${override.m}-efc${override.efConstruction}-` : ''}`,
  fingerprint: createHash('sha256')
    .update(texts.join('\u0000'))
    .update(vectors)
    .update(unitNames.join('\n'))
    .update(loadCode)
    .digest('hex'),
  async build(bench) {
    // The base's embedding key names the model; nothing calls its endpoint, as the vectors are
    // written directly and the queries embedded here.
    const keyId = await bench.addEmbeddingKey('http://127.0.0.1:9/v1', MODEL_NAME);
    const baseId = (await bench.createBase('Vector recall bench', keyId)).id;
    return { baseId, keyId, ...(await buildDatabase(bench, baseId, keyId)) };
  },
});

async function buildDatabase(bench: BenchApp, baseId: string, keyId: string) {
  const started = performance.now();
  const loaded = await loadCorpus(bench, {
    baseId,
    keyId,
    dims: DIMS,
    unitNames,
    unitOf,
    segments: SEGMENTS,
    batch: INSERT_BATCH,
    batchOf: (start, end) => ({
      // A few Info manual chunks hold U+0000 (index markers), which PostgreSQL text cannot; the
      // product never meets it (an upload with it is not text). Their vectors are of the text as read.
      texts: texts.slice(start, end).map((text) => text.replaceAll('\u0000', '')),
      vectors: Array.from({ length: end - start }, (_, offset) => vectorText(vectorOf(start + offset))),
    }),
  });
  const loadLine =
    `loaded ${SEGMENTS} segments and ${DIMS}-d vectors in ${unitNames.length} units in ${seconds(performance.now() - started)} s: ` +
    `inserts ${seconds(loaded.insertMs)} s, then ${loaded.secondaryLine}`;
  return { loadLine, hnswLine: await buildHnsw(bench, DIMS) };
}

// ---------------------------------------------------------------------------------------------
// Queries, embedded by the same model.

const queryStarted = performance.now();
const queryVectors = await embedHere(queries.map((q) => q.text));
const embeddings = queries.map((_, index) => Array.from(queryVectors.subarray(index * DIMS, (index + 1) * DIMS)));
const example = (kind: string) => JSON.stringify(queries.find((q) => q.kind === kind)?.text);
console.log(
  `${queries.length} queries embedded in ${seconds(performance.now() - queryStarted)} s; e.g. ` +
    Object.keys(kindTitles).map(example).join(', '),
);

// ---------------------------------------------------------------------------------------------
// HNSW recall@10 against exact search (bench/hnsw-recall.ts, shared with knowledge-retrieval.ts).

const recallAtProduct = await measureHnswRecall({
  bench,
  baseId,
  keyId,
  dims: DIMS,
  queries: queries.map((q, index) => ({ kind: q.kind, embedding: embeddings[index] })),
  kindTitles,
  efSettings: [40, 100, 200, 400, 800],
});
console.log(
  `\ntarget: recall@10 ≥ 0.95 at ef_search ${bench.config.KNOWLEDGE_EF_SEARCH}: ${recallAtProduct.toFixed(3)} — ${recallAtProduct >= 0.95 ? 'met' : 'not met'}`,
);
console.log(`${today()}, ${await machineLine()} (at the end)`);

await bench.close();
