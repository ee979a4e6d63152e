// Knowledge retrieval quality on bench/knowledge-eval: the 36 documents uploaded and indexed through
// the product path, every question retrieved top 5 in full-text, vector and hybrid mode; a hit is a
// retrieved segment containing the question's answer_contains.
// Run: npx tsx bench/knowledge-eval.ts        (BENCH_VERBOSE=1 lists the misses; BENCH_DB=memory)
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { RetrievalSettings, Segment } from '@athena/contract';
import { sql } from 'drizzle-orm';
import { rowsOf } from '../apps/server/src/platform/db/sql.ts';
import {
  DEFAULT_FAKE_MODELS,
  dbKindFromEnv,
  LEXICAL_DIMS,
  LEXICAL_MODEL,
  machineLine,
  openBenchApp,
  printTable,
  startFakeProcess,
  today,
} from './knowledge-support.ts';
import { root } from './support.ts';

interface Question {
  id: string;
  lang: 'zh' | 'en';
  question: string;
  document: string;
  answer_contains: string;
}

const TOP_K = 5;
const MODES = ['fulltext', 'vector', 'hybrid'] as const;
type Mode = (typeof MODES)[number];
const VERBOSE = process.env.BENCH_VERBOSE === '1';

const evalDir = path.join(root, 'bench/knowledge-eval');
const questions = JSON.parse(readFileSync(path.join(evalDir, 'questions.json'), 'utf8')) as Question[];
const documents = readdirSync(path.join(evalDir, 'documents')).sort();

console.log('npx tsx bench/knowledge-eval.ts');
console.log(
  `${today()}, ${await machineLine()}; ${documents.length} documents, ${questions.length} questions ` +
    `(${questions.filter((q) => q.lang === 'zh').length} zh, ${questions.filter((q) => q.lang === 'en').length} en); ` +
    `embeddings: ${LEXICAL_MODEL} (lexical feature hashing, ${LEXICAL_DIMS} d), not a semantic model`,
);

const bench = await openBenchApp({ db: dbKindFromEnv() });
const fake = await startFakeProcess(DEFAULT_FAKE_MODELS);
const keyId = await bench.addEmbeddingKey(fake.url, LEXICAL_MODEL);
const base = await bench.createBase('Evaluation', keyId);

// The product path: upload route, start with automatic chunking, then the indexer on each unit.
const units = [];
for (const name of documents) {
  units.push(await bench.upload(base.id, name, readFileSync(path.join(evalDir, 'documents', name))));
}
await bench.startAuto(units.map((unit) => unit.id));
for (const unit of units) {
  const outcome = await bench.modules.knowledge.indexer.indexNow(unit.id);
  if (outcome !== 'indexed') throw new Error(`${unit.file_name}: ${outcome}`);
}
const segments = rowsOf<{ file_name: string; text: string; vectors: number }>(
  await bench.db.execute(sql`
    SELECT u.file_name, concat_ws(E'\n', s.question, s.answer, s.content) AS text,
      (SELECT count(*)::int FROM knowledge_vectors v WHERE v.segment_id = s.id) AS vectors
    FROM knowledge_segments s JOIN knowledge_units u ON u.id = s.unit_id
    WHERE s.knowledge_id = ${base.id}::uuid`),
);
const embedded = segments.filter((s) => s.vectors === 1).length;
console.log(`indexed: ${units.length} units, ${segments.length} segments, ${embedded} with vectors`);
// An answer cut in two by a chunk boundary cannot be a hit in any mode: the ceiling.
const answerable = new Set(
  questions.filter((q) => segments.some((s) => s.text.includes(q.answer_contains))).map((q) => q.id),
);

const textOf = (segment: Segment) => [segment.question, segment.answer, segment.content].join('\n');
const settingsOf = (mode: Mode): RetrievalSettings => ({ mode, top_k: TOP_K, score_threshold: null });

/** Rank (1-based) of the first retrieved segment containing the answer, 0 when none of the top 5 does. */
const ranks: Record<Mode, Map<string, number>> = { fulltext: new Map(), vector: new Map(), hybrid: new Map() };
const rightDocument: Record<Mode, Map<string, boolean>> = { fulltext: new Map(), vector: new Map(), hybrid: new Map() };
const started = performance.now();
for (const q of questions) {
  for (const mode of MODES) {
    const result = await bench.modules.knowledge.retrieval.retrieve({
      spaceId: bench.spaceId,
      userId: bench.userId,
      knowledgeIds: [base.id],
      query: q.question,
      settings: settingsOf(mode),
    });
    if (result.mode !== mode) throw new Error(`${q.id}: asked for ${mode}, got ${result.mode}`);
    const items = result.items.slice(0, TOP_K);
    ranks[mode].set(q.id, items.findIndex((hit) => textOf(hit.segment).includes(q.answer_contains)) + 1);
    rightDocument[mode].set(
      q.id,
      items.some((hit) => hit.segment.file_name === q.document),
    );
  }
}
const queryMs = (performance.now() - started) / (questions.length * MODES.length);

// Full-text scores often tie; the service breaks ties by segment id, which is random per run.
let tiedAtCut = 0;
for (const q of questions) {
  const { items } = await bench.modules.knowledge.retrieval.retrieve({
    spaceId: bench.spaceId,
    userId: bench.userId,
    knowledgeIds: [base.id],
    query: q.question,
    settings: { mode: 'fulltext', top_k: TOP_K + 1, score_threshold: null },
  });
  if (items.length > TOP_K && items[TOP_K - 1].score === items[TOP_K].score) tiedAtCut += 1;
}

function metrics(mode: Mode, subset: Question[]) {
  const rs = subset.map((q) => ranks[mode].get(q.id) ?? 0);
  const n = subset.length;
  return {
    hit1: rs.filter((r) => r === 1).length / n,
    hit5: rs.filter((r) => r >= 1).length / n,
    mrr: rs.reduce((sum, r) => sum + (r > 0 ? 1 / r : 0), 0) / n,
    doc5: subset.filter((q) => rightDocument[mode].get(q.id)).length / n,
  };
}

const groups: [string, Question[]][] = [
  ['all', questions],
  ['zh', questions.filter((q) => q.lang === 'zh')],
  ['en', questions.filter((q) => q.lang === 'en')],
];
const rows: (string | number)[][] = [];
for (const [label, subset] of groups) {
  for (const mode of MODES) {
    const m = metrics(mode, subset);
    rows.push([label, subset.length, mode, m.hit1.toFixed(3), m.hit5.toFixed(3), m.mrr.toFixed(3), m.doc5.toFixed(3)]);
  }
}
console.log(`\nretrieval quality, top ${TOP_K}, one base with the ${documents.length} documents (automatic chunking)`);
printTable(['questions', 'n', 'mode', 'hit@1', 'hit@5', 'MRR', 'right document in top 5'], rows);
console.log(
  `answers lying whole inside one segment: ${answerable.size} of ${questions.length} ` +
    `(one cut by a chunk boundary cannot be hit in any mode); mean retrieve() time ${queryMs.toFixed(1)} ms`,
);

console.log(
  `full-text questions whose 5th and 6th results have equal scores: ${tiedAtCut} of ${questions.length} ` +
    '(which of them makes the top 5 depends on random segment ids, so full-text figures vary a little between runs)',
);

if (VERBOSE) {
  for (const mode of MODES) {
    const misses = questions.filter((q) => (ranks[mode].get(q.id) ?? 0) === 0);
    console.log(`\n${mode} misses (${misses.length}):`);
    for (const q of misses) console.log(`  ${q.id} [${q.lang}] ${q.question} → “${q.answer_contains}”`);
  }
}

await fake.close();
await bench.close();
