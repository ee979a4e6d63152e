// Shared by bench/knowledge-retrieval.ts and bench/knowledge-vector-recall.ts; not a benchmark itself.
// Loads a generated corpus straight into one base with SQL, builds the product's HNSW index, and
// keeps the database between runs.
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { countTokens, searchTextOf } from '@athena/knowledge-core';
import { createVectorStore, HNSW_EF_CONSTRUCTION, HNSW_M } from '../apps/server/src/modules/knowledge/vectors.ts';
import { rowsOf } from '../apps/server/src/platform/db/sql.ts';
import { type BenchApp, type DbKind, openBenchApp, sharedBuffersLine, today } from './knowledge-support.ts';
import { root } from './support.ts';

const seconds = (ms: number) => (ms / 1000).toFixed(1);

/**
 * Units (indexed, one per name), then segments and their vectors, segment i in unit i % units at
 * position ⌊i / units⌋, or in unit `unitOf(i)` after the unit's earlier segments. The secondary
 * indexes are dropped for the load and rebuilt from their own definitions (pg_indexes): the usual
 * way to load, much faster than maintaining the GIN index row by row. `batchOf` gives each batch's texts and vectors (`[…]` literals).
 */
export async function loadCorpus(
  bench: BenchApp,
  opts: {
    baseId: string;
    keyId: string;
    dims: number;
    unitNames: string[];
    segments: number;
    batch: number;
    batchOf: (start: number, end: number) => { texts: string[]; vectors: string[] };
    unitOf?: (index: number) => number;
  },
) {
  const exec = (query: string, values: unknown[] = []) => bench.database.executeSql(query, values);
  const unitIds: string[] = [];
  for (const name of opts.unitNames) {
    const id = randomUUID();
    unitIds.push(id);
    await exec(
      `INSERT INTO knowledge_units (id, space_id, knowledge_id, file_name, file_kind, size, content_hash, storage_key,
         status, progress, chunking, segment_count, created_by, indexed_at)
       VALUES ($1, $2, $3, $4, 'txt', 1, $5, $6, 'indexed', 100, '{"mode":"auto"}', 0, $7, now())`,
      [id, bench.spaceId, opts.baseId, name, `hash-${id}`, `bench/${id}`, bench.userId],
    );
  }
  const secondary = rowsOf<{ indexname: string; indexdef: string }>(
    await exec(
      `SELECT indexname, indexdef FROM pg_indexes
       WHERE tablename IN ('knowledge_segments', 'knowledge_vectors') AND indexname NOT LIKE '%pkey'`,
    ),
  );
  for (const index of secondary) await exec(`DROP INDEX ${index.indexname}`);

  let jiebaMs = 0;
  let insertMs = 0;
  let chars = 0;
  const units = unitIds.length;
  const nextPosition: number[] = [];
  for (let start = 0; start < opts.segments; start += opts.batch) {
    const end = Math.min(opts.segments, start + opts.batch);
    const { texts, vectors } = opts.batchOf(start, end);
    let t0 = performance.now();
    const searchBodies = texts.map((text) => searchTextOf(text));
    const tokens = texts.map((text) => countTokens(text));
    jiebaMs += performance.now() - t0;
    for (const text of texts) chars += text.length;
    const ids = texts.map(() => randomUUID());
    const unitIndexes = texts.map((_, offset) => opts.unitOf?.(start + offset) ?? (start + offset) % units);
    const positions = unitIndexes.map((unit, offset) => {
      if (!opts.unitOf) return Math.floor((start + offset) / units);
      nextPosition[unit] = (nextPosition[unit] ?? -1) + 1;
      return nextPosition[unit];
    });
    const unitsOf = unitIndexes.map((unit) => unitIds[unit]);
    t0 = performance.now();
    await exec(
      `INSERT INTO knowledge_segments (id, space_id, knowledge_id, unit_id, position, content, search_body, tokens)
       SELECT id, $1::uuid, $2::uuid, unit_id, position, content, search_body, tokens
       FROM unnest($3::uuid[], $4::uuid[], $5::int[], $6::text[], $7::text[], $8::int[])
         AS t(id, unit_id, position, content, search_body, tokens)`,
      [bench.spaceId, opts.baseId, ids, unitsOf, positions, texts, searchBodies, tokens],
    );
    await exec(
      `INSERT INTO knowledge_vectors (segment_id, knowledge_id, model_key_id, dims, embedding)
       SELECT id, $1::uuid, $2::uuid, ${opts.dims}, embedding::vector FROM unnest($3::uuid[], $4::text[]) AS t(id, embedding)`,
      [opts.baseId, opts.keyId, ids, vectors],
    );
    insertMs += performance.now() - t0;
  }
  await exec(
    `UPDATE knowledge_units u SET segment_count = c.n FROM
       (SELECT unit_id, count(*)::int AS n FROM knowledge_segments GROUP BY unit_id) c WHERE c.unit_id = u.id`,
  );
  const t0 = performance.now();
  for (const index of secondary) await exec(index.indexdef);
  return {
    averageChars: chars / opts.segments,
    jiebaMs,
    insertMs,
    /** e.g. "knowledge_segments_search_idx, … in 9.1 s" */
    secondaryLine: `${secondary.map((index) => index.indexname).join(', ')} in ${seconds(performance.now() - t0)} s`,
  };
}

/**
 * What a kept benchmark database's HNSW index depends on: the product's index statement
 * (vectors.ts ensureIndex) and build parameters, or the override. Search settings such as
 * KNOWLEDGE_EF_SEARCH are not part of it, so trying them does not rebuild the database.
 */
export function hnswBuildFingerprint(): string {
  const vectors = readFileSync(new URL('../apps/server/src/modules/knowledge/vectors.ts', import.meta.url), 'utf8');
  const statement = vectors.slice(
    vectors.indexOf('async function ensureIndex'),
    vectors.indexOf('// Iterative index scans'),
  );
  return JSON.stringify({ statement, m: HNSW_M, efConstruction: HNSW_EF_CONSTRUCTION, override: hnswOverride() });
}

/** BENCH_HNSW_M and BENCH_EF_CONSTRUCTION build the index with other parameters; null if neither is set. */
export function hnswOverride(): { m: number; efConstruction: number } | null {
  const { BENCH_HNSW_M: m, BENCH_EF_CONSTRUCTION: ef } = process.env;
  if (!m && !ef) return null;
  const value = (text: string | undefined, fallback: number) => {
    const number = Number(text ?? fallback);
    if (!Number.isInteger(number) || number < 2 || number > 1000) throw new Error(`bad HNSW parameter ${text}`);
    return number;
  };
  return { m: value(m, HNSW_M), efConstruction: value(ef, HNSW_EF_CONSTRUCTION) };
}

/**
 * The product's own index statement (vectors.ts ensureIndex). PGlite keeps PostgreSQL's 64 MB
 * maintenance_work_mem; a 100 000-vector graph needs more, and once it spills pgvector goes on
 * building on disk, which had not finished after 15 minutes here. BENCH_HNSW_MEMORY=default keeps 64 MB.
 */
export async function buildHnsw(bench: BenchApp, dims: number): Promise<string> {
  const exec = (query: string) => bench.database.executeSql(query);
  const hnswMemory = process.env.BENCH_HNSW_MEMORY ?? '1GB';
  if (hnswMemory !== 'default') await exec(`SET maintenance_work_mem = '${hnswMemory.replace(/[^0-9A-Za-z]/g, '')}'`);
  const mwm = rowsOf<{ maintenance_work_mem: string }>(await exec('SHOW maintenance_work_mem'))[0].maintenance_work_mem;
  const started = performance.now();
  const override = hnswOverride();
  if (override) {
    // A side measurement: the product's statement with other build parameters.
    await exec(
      `CREATE INDEX knowledge_vectors_hnsw_${dims} ON knowledge_vectors
       USING hnsw ((embedding::vector(${dims})) vector_cosine_ops)
       WITH (m = ${override.m}, ef_construction = ${override.efConstruction}) WHERE dims = ${dims}`,
    );
  } else await createVectorStore(bench.db, { efSearch: bench.config.KNOWLEDGE_EF_SEARCH }).ensureIndex(dims);
  const buildMs = performance.now() - started;
  await exec('RESET maintenance_work_mem');
  const size = rowsOf<{ size: string }>(
    await exec(`SELECT pg_size_pretty(pg_relation_size('knowledge_vectors_hnsw_${dims}')) AS size`),
  )[0].size;
  const how = override
    ? `BENCH_HNSW_M / BENCH_EF_CONSTRUCTION, not the product's: m ${override.m}, ef_construction ${override.efConstruction}`
    : `vectors.ts ensureIndex; m ${HNSW_M}, ef_construction ${HNSW_EF_CONSTRUCTION}`;
  return `HNSW index (${how}) built in ${seconds(buildMs)} s with maintenance_work_mem ${mwm}, ${size}`;
}

export interface BuiltCorpus {
  baseId: string;
  keyId: string;
  loadLine: string;
  hnswLine: string;
}
interface CorpusMeta extends BuiltCorpus {
  spaceId: string;
  builtOn: string;
}

/**
 * A corpus database takes minutes to build (mostly the HNSW index), so a file-backed one is kept
 * under the temp directory as `<prefix><fingerprint>` and reused while the fingerprint holds: the
 * caller's (what the content depends on) plus the knowledge migrations, this file and the index's
 * build parameters. Older ones with the same prefix are removed; BENCH_FRESH=1 rebuilds;
 * BENCH_DB=memory never keeps one. A run that built it closes and reopens the database before it
 * is measured, as a server started on this data runs: PGLITE_SHARED_BUFFERS=auto sizes the buffer
 * cache by the database at start-up, and the one that built it started empty (16 MB).
 */
export async function openKeptCorpus(opts: {
  db: DbKind;
  prefix: string;
  fingerprint: string;
  build: (bench: BenchApp) => Promise<BuiltCorpus>;
}): Promise<{ bench: BenchApp; baseId: string; keyId: string; reused: boolean }> {
  const migrations = path.join(root, 'apps/server/drizzle');
  const fingerprint = createHash('sha256')
    .update(opts.fingerprint)
    .update(
      readdirSync(migrations)
        .filter((name) => name.includes('knowledge'))
        .map((name) => readFileSync(path.join(migrations, name), 'utf8'))
        .join('\n'),
    )
    .update(readFileSync(new URL(import.meta.url)))
    .update(hnswBuildFingerprint())
    .digest('hex')
    .slice(0, 12);
  const keepDir = opts.db === 'file' ? path.join(os.tmpdir(), `${opts.prefix}${fingerprint}`) : undefined;
  const metaFile = `${keepDir}.json`;
  let meta: CorpusMeta | null = null;
  if (keepDir) {
    for (const name of readdirSync(os.tmpdir())) {
      if (name.startsWith(opts.prefix) && !name.startsWith(path.basename(keepDir))) {
        rmSync(path.join(os.tmpdir(), name), { recursive: true, force: true });
      }
    }
    if (process.env.BENCH_FRESH !== '1' && existsSync(metaFile) && existsSync(keepDir)) {
      meta = JSON.parse(readFileSync(metaFile, 'utf8')) as CorpusMeta;
    } else {
      rmSync(keepDir, { recursive: true, force: true });
      rmSync(metaFile, { force: true });
    }
  }

  let bench = await openBenchApp({ db: opts.db, keepDir, spaceId: meta?.spaceId });
  const reused = meta !== null;
  if (meta) {
    console.log(`database reused from ${keepDir} (built ${meta.builtOn}; BENCH_FRESH=1 rebuilds):`);
    console.log(`  ${meta.loadLine}\n  ${meta.hnswLine}`);
  } else {
    const built = await opts.build(bench);
    console.log(`${built.loadLine}\n${built.hnswLine}`);
    await bench.database.executeSql('ANALYZE knowledge_segments; ANALYZE knowledge_vectors; ANALYZE knowledge_units;');
    meta = { ...built, spaceId: bench.spaceId, builtOn: today() };
    if (keepDir) {
      writeFileSync(metaFile, JSON.stringify(meta, null, 2));
      await bench.close();
      bench = await openBenchApp({ db: opts.db, keepDir, spaceId: meta.spaceId });
    }
  }
  console.log(await sharedBuffersLine(bench));
  return { bench, baseId: meta.baseId, keyId: meta.keyId, reused };
}
