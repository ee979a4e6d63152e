import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { RetrievalSettings } from '@athena/contract';
import { lexicalEmbed } from '@athena/fake-openai';
import { queryTermsOf, searchTextOf } from '@athena/knowledge-core';
import { CANDIDATE_CAP, planFulltext } from '../apps/server/src/modules/knowledge/fulltext.ts';
import { embeddingTextOf } from '../apps/server/src/modules/knowledge/segment-text.ts';
import { rowsOf } from '../apps/server/src/platform/db/sql.ts';
import { buildHnsw, loadCorpus, openKeptCorpus } from './corpus-load.ts';
import { measureHnswRecall } from './hnsw-recall.ts';
import {
  type BenchApp,
  DEFAULT_FAKE_MODELS,
  dbKindFromEnv,
  LEXICAL_DIMS,
  LEXICAL_MODEL,
  machineLine,
  percentile,
  printTable,
  startFakeProcess,
  today,
} from './knowledge-support.ts';
import { seeded } from './seeded.ts';
import { root } from './support.ts';

const SEGMENTS = Number(process.env.BENCH_SEGMENTS ?? 100_000);
const QUERIES = Number(process.env.BENCH_QUERIES ?? 200);
const UNITS = Math.max(1, Math.round(SEGMENTS / 1000));
const DB = dbKindFromEnv();
const DIMS = LEXICAL_DIMS;
const BATCH = 1000;

const seconds = (ms: number) => (ms / 1000).toFixed(1);
const msText = (ms: number) => `${ms.toFixed(1)} ms`;

console.log('npx tsx bench/knowledge-retrieval.ts');
console.log(`${today()}, ${await machineLine()}, PGlite ${DB === 'file' ? 'file-backed (temp dir)' : 'in memory'}`);

// ---------------------------------------------------------------------------------------------
// A varied bilingual corpus, deterministic: words drawn Zipf-like from a Chinese vocabulary
// (jieba's dictionary, most frequent 2–4 character words, plus the words of the evaluation
// documents) and an English one (the evaluation documents' words), with an identifier per segment.

const random = seeded(20261122);

const evalDir = path.join(root, 'bench/knowledge-eval/documents');
const evalDocs = readdirSync(evalDir).map((name) => ({ name, text: readFileSync(path.join(evalDir, name), 'utf8') }));

function zipfPicker(words: string[]) {
  // P(rank r) ∝ 1 / (r + 10): a few very common words, a long tail of rare ones.
  const cumulative: number[] = [];
  let total = 0;
  for (let rank = 0; rank < words.length; rank++) {
    total += 1 / (rank + 10);
    cumulative.push(total);
  }
  return () => {
    const target = random() * total;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid] < target) lo = mid + 1;
      else hi = mid;
    }
    return words[lo];
  };
}

function englishVocabulary(): string[] {
  const counts = new Map<string, number>();
  for (const doc of evalDocs.filter((d) => d.name.startsWith('en-'))) {
    for (const [word] of doc.text.toLowerCase().matchAll(/[a-z][a-z'-]+[a-z]/g)) {
      counts.set(word, (counts.get(word) ?? 0) + 1);
    }
  }
  return [...counts.entries()].sort((a, b) => b[1] - a[1]).map(([word]) => word);
}

function chineseVocabulary(): string[] {
  const require = createRequire(import.meta.url);
  const dictPath = path.join(path.dirname(require.resolve('@node-rs/jieba/package.json')), 'dict.txt');
  const entries = readFileSync(dictPath, 'utf8')
    .split('\n')
    .map((line) => line.split(' '))
    .filter(([word, freq]) => /^\p{Script=Han}{2,4}$/u.test(word ?? '') && Number(freq) > 0)
    .sort((a, b) => Number(b[1]) - Number(a[1]))
    .slice(0, 30_000)
    .map(([word]) => word);
  const fromDocs = new Set<string>();
  for (const doc of evalDocs.filter((d) => d.name.startsWith('zh-'))) {
    for (const word of searchTextOf(doc.text).split(' ')) if (/^\p{Script=Han}{2,}$/u.test(word)) fromDocs.add(word);
  }
  // The documents' words among the common ones, so evaluation questions find real matches.
  return [...new Set([...entries.slice(0, 2000), ...fromDocs, ...entries.slice(2000)])];
}

const englishVocab = englishVocabulary();
const chineseVocab = chineseVocabulary();
const englishWord = zipfPicker(englishVocab);
const chineseWord = zipfPicker(chineseVocab);
const between = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));
const someWords = (words: string[], fromRank: number, count: number) =>
  Array.from({ length: count }, () => words[fromRank + Math.floor(random() * (words.length - fromRank))]);

// Each unit (file) has a topic: its own few hundred less common words, which make up about half
// of its segments' words, so segments of one file resemble each other as in real documents.
// Even-numbered units are Chinese (with some English terms), odd-numbered ones English.
const TOPIC_SHARE = 0.5;
const topics = Array.from({ length: UNITS }, () => ({
  zh: zipfPicker(someWords(chineseVocab, 500, 300)),
  en: zipfPicker(someWords(englishVocab, 200, 120)),
}));

/** About 200–500 characters, like the product's automatic chunks (at most 500). */
function segmentText(index: number): string {
  const unit = index % UNITS;
  const topic = topics[unit];
  const zh = () => (random() < TOPIC_SHARE ? topic.zh() : chineseWord());
  const en = () => (random() < TOPIC_SHARE ? topic.en() : englishWord());
  const id = `${['NB', 'CR', 'QL', 'HR', 'IT'][index % 5]}-${(100000 + index).toString(36).toUpperCase()}`;
  const sentences: string[] = [];
  let length = 0;
  const target = between(200, 480);
  if (unit % 2 === 0) {
    while (length < target) {
      const words = Array.from({ length: between(4, 9) }, zh);
      // Mixed text, as in real Chinese manuals: now and then an English term.
      if (random() < 0.15) words.splice(between(0, words.length), 0, ` ${en()} `);
      if (sentences.length === 1) words.push(`（${id}）`);
      const s = `${words.slice(0, -1).join('')}，${words.at(-1)}。`;
      sentences.push(s);
      length += s.length;
    }
    return sentences.join('');
  }
  while (length < target) {
    const words = Array.from({ length: between(8, 16) }, en);
    if (sentences.length === 1) words.push(`(${id})`);
    const s = `${words[0][0].toUpperCase()}${words.join(' ').slice(1)}.`;
    sentences.push(s);
    length += s.length + 1;
  }
  return sentences.join(' ');
}

// ---------------------------------------------------------------------------------------------
// The corpus is kept between runs (corpus-load.ts openKeptCorpus) while the code from "A varied
// bilingual corpus" to "Queries" below is unchanged.

const source = readFileSync(new URL(import.meta.url), 'utf8');
const corpusCode = source.slice(source.indexOf('// A varied bilingual corpus'), source.indexOf('// Queries: the 102'));
const fake = await startFakeProcess(DEFAULT_FAKE_MODELS);
const { bench, baseId, keyId, reused } = await openKeptCorpus({
  db: DB,
  prefix: `athena-bench-knowledge-${SEGMENTS}-`,
  fingerprint: `${corpusCode}\n${SEGMENTS}/${DIMS}`,
  async build(bench) {
    const keyId = await bench.addEmbeddingKey(fake.url, LEXICAL_MODEL);
    const baseId = (await bench.createBase('Retrieval bench', keyId)).id;
    return { baseId, keyId, ...(await buildCorpus(bench, baseId, keyId)) };
  },
});
// The fake listens on a new port each run.
if (reused) await bench.call('model_key/update', { id: keyId, base_url: fake.url });
const exec = (query: string, values: unknown[] = []) => bench.database.executeSql(query, values);

async function buildCorpus(bench: BenchApp, baseId: string, keyId: string) {
  const started = performance.now();
  let textMs = 0;
  let embedMs = 0;
  const loaded = await loadCorpus(bench, {
    baseId,
    keyId,
    dims: DIMS,
    unitNames: Array.from({ length: UNITS }, (_, u) => `bench-${u}.txt`),
    segments: SEGMENTS,
    batch: BATCH,
    batchOf(start, end) {
      let t0 = performance.now();
      const texts = Array.from({ length: end - start }, (_, offset) => segmentText(start + offset));
      textMs += performance.now() - t0;
      t0 = performance.now();
      // What the indexer embeds for a content segment, with the fake's own function and dimension.
      const vectors = texts.map((content) => {
        const vector = lexicalEmbed(embeddingTextOf({ question: '', answer: '', content }), DIMS);
        return `[${vector.map((value) => value.toFixed(6)).join(',')}]`;
      });
      embedMs += performance.now() - t0;
      return { texts, vectors };
    },
  });
  const loadLine =
    `built ${SEGMENTS} segments (${loaded.averageChars.toFixed(0)} characters on average) in ${UNITS} units in ${seconds(performance.now() - started)} s: ` +
    `text + jieba ${seconds(textMs + loaded.jiebaMs)} s, lexical embeddings (${DIMS} d) ${seconds(embedMs)} s, inserts ${seconds(loaded.insertMs)} s, ` +
    `then ${loaded.secondaryLine}`;
  return { loadLine, hnswLine: await buildHnsw(bench, DIMS) };
}

// ---------------------------------------------------------------------------------------------
// Queries: the 102 questions of bench/knowledge-eval (natural language, zh and en), then keyword
// queries of 2–4 consecutive words from segments of the corpus.

const pickRandom = seeded(7);
const sampleTexts = rowsOf<{ content: string }>(
  await exec('SELECT content FROM knowledge_segments WHERE knowledge_id = $1 ORDER BY md5(content) LIMIT 400', [
    baseId,
  ]),
).map((row) => row.content);
const questions = (
  JSON.parse(readFileSync(path.join(root, 'bench/knowledge-eval/questions.json'), 'utf8')) as { question: string }[]
).map((q) => q.question);
const queries: { kind: 'question' | 'keywords'; text: string }[] = questions
  .slice(0, Math.ceil(QUERIES / 2))
  .map((text) => ({ kind: 'question', text }));
for (let i = 0; queries.length < QUERIES; i++) {
  const text = sampleTexts[(i * 7) % sampleTexts.length];
  const words = /\p{Script=Han}/u.test(text.slice(0, 10))
    ? searchTextOf(text)
        .split(' ')
        .filter((w) => /^\p{Script=Han}{2,}$/u.test(w))
    : text.split(/[^A-Za-z'-]+/).filter((w) => w.length > 2);
  const from = Math.floor(pickRandom() * Math.max(1, words.length - 4));
  const picked = words.slice(from, from + 2 + Math.floor(pickRandom() * 3));
  queries.push({
    kind: 'keywords',
    text: /\p{Script=Han}/u.test(picked[0] ?? '') ? picked.join('') : picked.join(' '),
  });
}

const retrieval = bench.modules.knowledge.retrieval;
const settingsOf = (mode: RetrievalSettings['mode']): RetrievalSettings => ({ mode, top_k: 5, score_threshold: null });
const MODES = ['fulltext', 'vector', 'hybrid'] as const;

async function timeQueries() {
  // Warm-up (first use builds nothing now: the index exists; it loads pages and the gateway client).
  for (const q of queries.slice(0, 20)) {
    for (const mode of MODES) {
      await retrieval.retrieve({
        spaceId: bench.spaceId,
        userId: bench.userId,
        knowledgeIds: [baseId],
        query: q.text,
        settings: settingsOf(mode),
      });
    }
  }
  const times: Record<(typeof MODES)[number], { all: number[]; question: number[]; keywords: number[] }> = {
    fulltext: { all: [], question: [], keywords: [] },
    vector: { all: [], question: [], keywords: [] },
    hybrid: { all: [], question: [], keywords: [] },
  };
  let empty = 0;
  // Modes interleaved query by query, so noise from other work on the machine spreads evenly.
  for (const q of queries) {
    for (const mode of MODES) {
      const t0 = performance.now();
      const result = await retrieval.retrieve({
        spaceId: bench.spaceId,
        userId: bench.userId,
        knowledgeIds: [baseId],
        query: q.text,
        settings: settingsOf(mode),
      });
      const ms = performance.now() - t0;
      if (result.mode !== mode) throw new Error(`asked for ${mode}, got ${result.mode}`);
      if (result.items.length === 0) empty += 1;
      times[mode].all.push(ms);
      times[mode][q.kind].push(ms);
    }
  }
  const rows = MODES.flatMap((mode) =>
    (['all', 'question', 'keywords'] as const).map((kind) => {
      const sorted = [...times[mode][kind]].sort((a, b) => a - b);
      return [
        mode,
        kind === 'all'
          ? `all (${sorted.length})`
          : `${kind === 'question' ? 'questions' : 'keywords'} (${sorted.length})`,
        msText(percentile(sorted, 0.5)),
        msText(percentile(sorted, 0.95)),
        msText(sorted[sorted.length - 1]),
      ];
    }),
  );
  return {
    rows,
    empty,
    p95: Object.fromEntries(
      MODES.map((m) => [
        m,
        percentile(
          [...times[m].all].sort((a, b) => a - b),
          0.95,
        ),
      ]),
    ),
  };
}

/** The query embedding over HTTP alone (what hybrid adds before its vector search). */
async function embedRoundTrips() {
  const times: number[] = [];
  for (const q of queries) {
    const t0 = performance.now();
    const res = await fetch(`${fake.url}/embeddings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer sk-fake' },
      body: JSON.stringify({ model: LEXICAL_MODEL, input: [q.text], encoding_format: 'base64' }),
    });
    await res.json();
    times.push(performance.now() - t0);
  }
  return times.sort((a, b) => a - b);
}

const latency = await timeQueries();
const embedTimes = await embedRoundTrips();

console.log(`\nretrieve() latency, top 5, ${queries.length} queries per mode, one base of ${SEGMENTS} segments`);
printTable(['mode', 'queries', 'p50', 'p95', 'max'], latency.rows);
console.log(
  `query embedding alone (HTTP to the fake, ${DIMS} d): p50 ${msText(percentile(embedTimes, 0.5))}, p95 ${msText(percentile(embedTimes, 0.95))}`,
);
console.log(`retrievals with no result: ${latency.empty}`);

// How much full text ranks: the candidates its plan selects (fulltext.ts; at most CANDIDATE_CAP),
// beside the segments containing any query term, which the first version ranked.
const candidateCounts: number[] = [];
const anyTermCounts: number[] = [];
for (const q of queries.filter((_, index) => index % 5 === 0)) {
  const terms = queryTermsOf(q.text);
  const stats = rowsOf<{ term: string; segments: number }>(
    await exec('SELECT term, segments FROM knowledge_terms WHERE knowledge_id = $1 AND term = ANY($2::text[])', [
      baseId,
      ['', ...terms],
    ]),
  );
  const plan = planFulltext(terms, {
    segments: stats.find((row) => row.term === '')?.segments ?? 0,
    frequency: new Map(stats.filter((row) => row.term !== '').map((row) => [row.term, row.segments])),
  });
  if (!plan) continue;
  const count = async (tsquery: string) =>
    rowsOf<{ n: number }>(
      await exec(
        `SELECT count(*)::int AS n FROM knowledge_segments WHERE knowledge_id = $1 AND search_vector @@ to_tsquery('simple', $2)`,
        [baseId, tsquery],
      ),
    )[0].n;
  candidateCounts.push(Math.min(CANDIDATE_CAP, await count(plan.match)));
  anyTermCounts.push(await count(plan.weights.map((w) => `'${w.term}'`).join(' | ')));
}
candidateCounts.sort((a, b) => a - b);
anyTermCounts.sort((a, b) => a - b);
console.log(
  `segments full text ranks (${candidateCounts.length} of the queries): p50 ${percentile(candidateCounts, 0.5)}, ` +
    `p95 ${percentile(candidateCounts, 0.95)}; containing any query term: p50 ${percentile(anyTermCounts, 0.5)}, ` +
    `p95 ${percentile(anyTermCounts, 0.95)} of ${SEGMENTS}`,
);

// ---------------------------------------------------------------------------------------------
// HNSW recall@10 against exact search (bench/hnsw-recall.ts, shared with knowledge-vector-recall.ts).

const recallAtProduct = await measureHnswRecall({
  bench,
  baseId,
  keyId,
  dims: DIMS,
  queries: queries.map((q) => ({ kind: q.kind, embedding: lexicalEmbed(q.text, DIMS) })),
  kindTitles: { question: 'questions', keywords: 'keywords' },
  efSettings: [40, 100, 200, 400],
});

console.log(
  `\ntargets: p95 ≤ 50 ms — full text ${msText(latency.p95.fulltext)}, hybrid ${msText(latency.p95.hybrid)}; ` +
    `recall@10 ≥ 0.95 at ef_search ${bench.config.KNOWLEDGE_EF_SEARCH}: ${recallAtProduct.toFixed(3)}`,
);

await fake.close();
await bench.close();
