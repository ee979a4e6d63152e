// Shared by bench/knowledge-retrieval.ts and bench/knowledge-vector-recall.ts; not a benchmark itself.
// HNSW recall@10 against exact search with the product's query shape (vectors.ts nearest(): the
// candidate query over knowledge_vectors, LIMIT limit + DISABLED_MARGIN, disabled segments dropped
// afterwards, which changes nothing here as every segment is enabled).
import { type SQL, sql } from 'drizzle-orm';
import { createVectorStore, DISABLED_MARGIN } from '../apps/server/src/modules/knowledge/vectors.ts';
import { idList, rowsOf } from '../apps/server/src/platform/db/sql.ts';
import { type BenchApp, percentile, printTable } from './knowledge-support.ts';

type Row = { segment_id: string; distance: number };
type Plan = { 'QUERY PLAN': string };

const msText = (ms: number) => `${ms.toFixed(1)} ms`;
const vectorLiteral = (vector: number[]) => `[${vector.join(',')}]`;
const top10 = (rows: Row[]) => [...rows].sort((a, b) => Number(a.distance) - Number(b.distance)).slice(0, 10);

/**
 * Prints the EXPLAIN checks, the agreement with nearest(), recall@10 per ef_search (overall and per
 * query kind), exact-search latency, and how crowded the neighbourhoods are. Returns the recall at
 * the product's ef_search (KNOWLEDGE_EF_SEARCH).
 */
export async function measureHnswRecall(opts: {
  bench: BenchApp;
  baseId: string;
  keyId: string;
  dims: number;
  queries: { kind: string; embedding: number[] }[];
  /** Column titles per query kind, e.g. { question: 'questions', keywords: 'keywords' }. */
  kindTitles: Record<string, string>;
  efSettings: number[];
}): Promise<number> {
  const { bench, baseId, keyId, dims, queries } = opts;
  // The product's setting (KNOWLEDGE_EF_SEARCH), always among the settings measured.
  const EF_SEARCH = bench.config.KNOWLEDGE_EF_SEARCH;
  const efSettings = [...new Set([...opts.efSettings, EF_SEARCH])].sort((a, b) => a - b);
  const d = sql.raw(String(dims));
  const candidatesSql = (query: number[], limit: number): SQL => sql`
    SELECT v.segment_id, v.embedding::vector(${d}) <=> ${vectorLiteral(query)}::vector(${d}) AS distance
    FROM knowledge_vectors v
    WHERE v.dims = ${d} AND v.knowledge_id IN (${idList([baseId])}) AND v.model_key_id = ${keyId}::uuid
    ORDER BY distance
    LIMIT ${limit + DISABLED_MARGIN}`;
  const run = (settings: string[], query: number[], explain: boolean) =>
    bench.db.transaction(async (tx) => {
      for (const setting of settings) await tx.execute(sql.raw(setting));
      const statement = candidatesSql(query, 10);
      return rowsOf<Row & Plan>(await tx.execute(explain ? sql`EXPLAIN ${statement}` : statement));
    });
  // A quick run (bench:check, BENCH_FORCE_HNSW=1) has too few segments for the planner to choose the
  // index by itself (sorting a few thousand rows is cheaper); without sorts the index's ordered scan
  // is its only plan, so what is measured is still the index's recall. Full runs never set it.
  const forced = process.env.BENCH_FORCE_HNSW === '1' ? ['SET LOCAL enable_sort = off'] : [];
  const approximate = (query: number[], efSearch: number, explain = false) =>
    run(
      [`SET LOCAL hnsw.ef_search = ${efSearch}`, 'SET LOCAL hnsw.iterative_scan = relaxed_order', ...forced],
      query,
      explain,
    );
  const exact = (query: number[], explain = false) =>
    run(['SET LOCAL enable_indexscan = off', 'SET LOCAL enable_bitmapscan = off'], query, explain);

  const embeddings = queries.map((q) => q.embedding);
  const planOf = (rows: Plan[]) => rows.map((row) => row['QUERY PLAN'].replace(/'\[[^\]]*\]'/g, "'[…]'")).join('\n');
  const hnswPlan = planOf(await approximate(embeddings[0], EF_SEARCH, true));
  const exactPlan = planOf(await exact(embeddings[0], true));
  const hnswName = `knowledge_vectors_hnsw_${dims}`;
  console.log(`\nEXPLAIN, approximate (ef_search ${EF_SEARCH}):\n${hnswPlan}`);
  console.log(`EXPLAIN, exact (enable_indexscan = off, enable_bitmapscan = off):\n${exactPlan}`);
  if (!hnswPlan.includes(hnswName)) throw new Error('the approximate query does not use the HNSW index');
  if (exactPlan.includes(hnswName)) throw new Error('the exact query uses the HNSW index');

  const exactResults: Row[][] = [];
  const exactTimes: number[] = [];
  for (const embedding of embeddings) {
    const t0 = performance.now();
    exactResults.push(top10(await exact(embedding)));
    exactTimes.push(performance.now() - t0);
  }
  // The statement above is a copy; check it against the product's own nearest() at its ef_search.
  const store = createVectorStore(bench.db, { efSearch: EF_SEARCH });
  let agree = 0;
  let compared = 0;
  for (const embedding of embeddings.slice(0, 20)) {
    const product = await store.nearest({ knowledgeIds: [baseId], modelKeyId: keyId, query: embedding, limit: 10 });
    const ours = new Set(top10(await approximate(embedding, EF_SEARCH)).map((row) => row.segment_id));
    agree += product.filter((hit) => ours.has(hit.segmentId)).length;
    compared += product.length;
  }
  console.log(`vectors.ts nearest() and this statement agree on ${agree} of ${compared} results (20 queries)`);
  // One untimed pass, so the first setting does not pay for reading the index into the cache.
  for (const embedding of embeddings) await approximate(embedding, 200);

  const kinds = Object.keys(opts.kindTitles);
  const recallRows: (string | number)[][] = [];
  let recallAtProduct = 0;
  for (const ef of efSettings) {
    const found: Record<string, number> = { all: 0 };
    const total: Record<string, number> = { all: 0 };
    let foundWithTies = 0;
    let tenthRatio = 0;
    const times: number[] = [];
    for (const [index, embedding] of embeddings.entries()) {
      const t0 = performance.now();
      const approx = top10(await approximate(embedding, ef));
      times.push(performance.now() - t0);
      const truth = exactResults[index];
      const truthIds = new Set(truth.map((row) => row.segment_id));
      const tenth = Number(truth.at(-1)?.distance ?? 0);
      const hits = approx.filter((row) => truthIds.has(row.segment_id)).length;
      for (const kind of ['all', queries[index].kind]) {
        total[kind] = (total[kind] ?? 0) + truth.length;
        found[kind] = (found[kind] ?? 0) + hits;
      }
      // ann-benchmarks' rule: a result within 0.1 % of the exact tenth distance counts (near-ties swap places).
      foundWithTies += Math.min(
        truth.length,
        approx.filter((row) => truthIds.has(row.segment_id) || Number(row.distance) <= tenth * 1.001).length,
      );
      // How much farther the 10th result found is than the true 10th (1 = as near).
      tenthRatio += Number(approx.at(-1)?.distance ?? Number.NaN) / tenth / embeddings.length;
    }
    times.sort((a, b) => a - b);
    if (ef === EF_SEARCH) recallAtProduct = found.all / total.all;
    recallRows.push([
      ef === EF_SEARCH ? `${ef} (the product's, KNOWLEDGE_EF_SEARCH)` : ef,
      (found.all / total.all).toFixed(3),
      ...kinds.map((kind) => ((found[kind] ?? 0) / (total[kind] || 1)).toFixed(3)),
      (foundWithTies / total.all).toFixed(3),
      tenthRatio.toFixed(4),
      msText(percentile(times, 0.5)),
      msText(percentile(times, 0.95)),
    ]);
  }
  exactTimes.sort((a, b) => a - b);

  // How far apart "near" and "typical" are: the exact 1st and 10th neighbours against the median
  // distance to a 2 % sample of all vectors; and how crowded the neighbourhood is (segments within
  // 5 % of the exact 10th distance), over the first 20 queries.
  const contrast = { first: 0, tenth: 0, typical: 0, sampled: 0 };
  const crowds: number[] = [];
  const contrastQueries = embeddings.slice(0, 20);
  const exec = (text: string, values: unknown[]) => bench.database.executeSql(text, values);
  for (const [index, embedding] of contrastQueries.entries()) {
    contrast.first += Number(exactResults[index][0]?.distance ?? 0) / contrastQueries.length;
    contrast.tenth += Number(exactResults[index].at(-1)?.distance ?? 0) / contrastQueries.length;
    const [{ median, n }] = rowsOf<{ median: number | null; n: number }>(
      await exec(
        `SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY embedding::vector(${dims}) <=> $1::vector(${dims})) AS median,
           count(*)::int AS n
         FROM knowledge_vectors TABLESAMPLE SYSTEM (2) REPEATABLE (1) WHERE dims = ${dims}`,
        [vectorLiteral(embedding)],
      ),
    );
    contrast.typical += Number(median ?? Number.NaN) / contrastQueries.length;
    contrast.sampled = n;
    const tenth = Number(exactResults[index].at(-1)?.distance ?? 0);
    const [{ crowd }] = rowsOf<{ crowd: number }>(
      await exec(
        `SELECT count(*)::int AS crowd FROM knowledge_vectors
         WHERE dims = ${dims} AND (embedding::vector(${dims}) <=> $1::vector(${dims})) <= $2`,
        [vectorLiteral(embedding), tenth * 1.05],
      ),
    );
    crowds.push(crowd);
  }
  crowds.sort((a, b) => a - b);

  const counts = kinds.map((kind) => `${queries.filter((q) => q.kind === kind).length} ${opts.kindTitles[kind]}`);
  console.log(
    `\nHNSW recall@10 against exact search, ${embeddings.length} queries (${counts.join(', ')}), ${dims} d, cosine`,
  );
  printTable(
    [
      'ef_search',
      'recall@10',
      ...kinds.map((kind) => opts.kindTitles[kind]),
      'all, within 0.1 % of the 10th',
      '10th distance, found / exact',
      'p50',
      'p95',
    ],
    recallRows,
  );
  console.log(`exact search: p50 ${msText(percentile(exactTimes, 0.5))}, p95 ${msText(percentile(exactTimes, 0.95))}`);
  console.log(
    `cosine distance, mean over ${contrastQueries.length} queries: exact 1st neighbour ${contrast.first.toFixed(3)}, ` +
      `10th ${contrast.tenth.toFixed(3)}, median to a 2 % sample (${contrast.sampled} vectors) ${contrast.typical.toFixed(3)}`,
  );
  console.log(
    `segments within 5 % of the exact 10th distance, same ${contrastQueries.length} queries: ` +
      `median ${percentile(crowds, 0.5)}, min ${crowds[0]}, max ${crowds.at(-1)}`,
  );
  return recallAtProduct;
}
