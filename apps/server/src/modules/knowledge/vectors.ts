import { param, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.ts';
import { idList, rowsOf, type Tx } from '../../platform/db/sql.ts';

/** One candidate of a retriever, with what ties are broken by (base, file, position). */
export interface Ranked {
  segmentId: string;
  knowledgeId: string;
  unitId: string;
  position: number;
  score: number;
}

/** Higher score first; equal scores in a fixed order that does not depend on random ids alone. */
export const byScoreThenPlace = (a: Ranked, b: Ranked) =>
  b.score - a.score ||
  a.knowledgeId.localeCompare(b.knowledgeId) ||
  a.unitId.localeCompare(b.unitId) ||
  a.position - b.position;

export type VectorStore = ReturnType<typeof createVectorStore>;

/** pgvector's HNSW index takes at most 2000 dimensions of `vector`; larger ones are scanned exactly. */
export const HNSW_MAX_DIMS = 2000;
/**
 * Graph build: pgvector's m 16, with ef_construction 200 instead of its 64 (migration 0011 rebuilt
 * older indexes). On 100 000 real model vectors this lifted recall@10 at the same ef_search from
 * 0.77 to 0.87 on a crowded corpus, for twice the time to build a whole index (docs/benchmarks.md).
 */
export const HNSW_M = 16;
export const HNSW_EF_CONSTRUCTION = 200;

/**
 * Extra neighbours fetched for disabled segments, which are dropped afterwards. Small on purpose: an
 * HNSW scan costs about max(ef_search, LIMIT), so doubling the limit (as before) cost ~40 %.
 */
export const DISABLED_MARGIN = 10;

const literal = (vector: number[]) => {
  if (!vector.every(Number.isFinite)) throw new Error('embedding has a non-finite value');
  return `[${vector.join(',')}]`;
};

/**
 * `knowledge_vectors` (migration 0007) exists only where pgvector does, so it is reached through
 * raw SQL. One row per segment for its base's current embedding key. The column has no fixed
 * dimension; each dimension gets its own partial HNSW index over `embedding::vector(D)`, and every
 * query uses that same expression with `dims = D` so the planner can use it.
 */
export function createVectorStore(db: Db, opts: { efSearch: number }) {
  const { efSearch } = opts;
  let probe: Promise<{ present: boolean; iterative: boolean }> | undefined;
  const indexedDims = new Set<number>();

  const dimsSql = (dims: number) => {
    if (!Number.isInteger(dims) || dims < 1 || dims > 16_000) throw new Error(`bad dimension ${dims}`);
    return sql.raw(String(dims));
  };

  async function ensureIndex(dims: number) {
    if (indexedDims.has(dims) || dims > HNSW_MAX_DIMS) return;
    const d = dimsSql(dims);
    try {
      await db.execute(
        sql`CREATE INDEX IF NOT EXISTS ${sql.raw(`knowledge_vectors_hnsw_${dims}`)} ON knowledge_vectors
            USING hnsw ((embedding::vector(${d})) vector_cosine_ops)
            WITH (m = ${sql.raw(String(HNSW_M))}, ef_construction = ${sql.raw(String(HNSW_EF_CONSTRUCTION))})
            WHERE dims = ${d}`,
      );
    } catch (error) {
      // Two processes creating the same index at once: one wins, the other sees a duplicate.
      if (!/already exists|duplicate key/i.test(String((error as Error).message))) throw error;
    }
    indexedDims.add(dims);
  }

  // Iterative index scans (pgvector 0.8) keep filtered searches from coming back short.
  // Pass the transaction when inside one: PGlite has one connection, which the transaction holds.
  const probeOnce = (runner: Tx = db) => {
    probe ??= runner
      .execute(
        sql`SELECT to_regclass('knowledge_vectors') IS NOT NULL AS present,
              (SELECT extversion FROM pg_extension WHERE extname = 'vector') AS version`,
      )
      .then((result) => {
        const row = rowsOf<{ present: boolean; version: string | null }>(result)[0];
        const [major = 0, minor = 0] = (row?.version ?? '0.0').split('.').map(Number);
        return { present: row?.present === true, iterative: major > 0 || minor >= 8 };
      });
    return probe;
  };

  return {
    /** Whether this database has pgvector (PGlite always; a server only with the extension). */
    async available(): Promise<boolean> {
      return (await probeOnce()).present;
    },

    ensureIndex,

    /** Writes (or replaces) the vectors of these segments; run inside the caller's transaction. */
    async upsert(
      runner: Tx,
      knowledgeId: string,
      modelKeyId: string,
      items: { segmentId: string; embedding: number[] }[],
    ) {
      if (items.length === 0) return;
      const values = items.map(
        (item) =>
          sql`(${item.segmentId}::uuid, ${knowledgeId}::uuid, ${modelKeyId}::uuid, ${item.embedding.length}, ${literal(item.embedding)}::vector)`,
      );
      await runner.execute(sql`
        INSERT INTO knowledge_vectors (segment_id, knowledge_id, model_key_id, dims, embedding)
        VALUES ${sql.join(values, sql`, `)}
        ON CONFLICT (segment_id) DO UPDATE SET
          knowledge_id = excluded.knowledge_id, model_key_id = excluded.model_key_id,
          dims = excluded.dims, embedding = excluded.embedding`);
    },

    async deleteForBase(runner: Tx, knowledgeId: string) {
      if (!(await probeOnce(runner)).present) return;
      await runner.execute(sql`DELETE FROM knowledge_vectors WHERE knowledge_id = ${knowledgeId}::uuid`);
    },

    /** Vectors made with a model key that was deleted: no base can search them any more. */
    async deleteForKey(modelKeyId: string) {
      if (!(await probeOnce()).present) return;
      await db.execute(sql`DELETE FROM knowledge_vectors WHERE model_key_id = ${modelKeyId}::uuid`);
    },

    /** Which of these segments have a vector for this key. */
    async embeddedAmong(segmentIds: string[], modelKeyId: string | null): Promise<Set<string>> {
      if (segmentIds.length === 0 || !modelKeyId || !(await probeOnce()).present) return new Set();
      const result = await db.execute(
        sql`SELECT segment_id FROM knowledge_vectors
            WHERE segment_id IN (${idList(segmentIds)}) AND model_key_id = ${modelKeyId}::uuid`,
      );
      return new Set(rowsOf<{ segment_id: string }>(result).map((row) => row.segment_id));
    },

    /** Segments of a unit still without a vector for this key, in file order. */
    async missing(unitId: string, modelKeyId: string, limit: number) {
      const result = await db.execute(sql`
        SELECT s.id, s.question, s.answer, s.content FROM knowledge_segments s
        WHERE s.unit_id = ${unitId}::uuid
          AND NOT EXISTS (SELECT 1 FROM knowledge_vectors v WHERE v.segment_id = s.id AND v.model_key_id = ${modelKeyId}::uuid)
        ORDER BY s.position LIMIT ${limit}`);
      return rowsOf<{ id: string; question: string; answer: string; content: string }>(result);
    },

    async countForUnit(unitId: string, modelKeyId: string) {
      const result = await db.execute(sql`
        SELECT count(*)::int AS n FROM knowledge_vectors v JOIN knowledge_segments s ON s.id = v.segment_id
        WHERE s.unit_id = ${unitId}::uuid AND v.model_key_id = ${modelKeyId}::uuid`);
      return rowsOf<{ n: number }>(result)[0]?.n ?? 0;
    },

    /**
     * Nearest enabled segments by cosine similarity (1 − cosine distance) among these bases, all
     * embedded with `modelKeyId` in `dims` dimensions. Runs in a transaction so the HNSW settings
     * stay local to it.
     */
    async nearest(params: { knowledgeIds: string[]; modelKeyId: string; query: number[]; limit: number }) {
      const dims = params.query.length;
      await ensureIndex(dims);
      const d = dimsSql(dims);
      const q = sql`${literal(params.query)}::vector(${d})`;
      const distance: SQL = sql`v.embedding::vector(${d}) <=> ${q}`;
      const { iterative } = await probeOnce();
      const candidates = await db.transaction(async (tx) => {
        await tx.execute(sql.raw(`SET LOCAL hnsw.ef_search = ${Math.round(efSearch)}`));
        if (iterative) await tx.execute(sql.raw('SET LOCAL hnsw.iterative_scan = relaxed_order'));
        const result = await tx.execute(sql`
          SELECT v.segment_id, ${distance} AS distance
          FROM knowledge_vectors v
          WHERE v.dims = ${d} AND v.knowledge_id IN (${idList(params.knowledgeIds)})
            AND v.model_key_id = ${params.modelKeyId}::uuid
          ORDER BY distance
          LIMIT ${params.limit + DISABLED_MARGIN}`);
        return rowsOf<{ segment_id: string; distance: number }>(result);
      });
      if (candidates.length === 0) return [];
      // Disabled segments are dropped by primary key afterwards: joining inside the index scan
      // made the planner scan every segment instead. One array parameter, not a list of 50: the
      // list took 2.0 ms, the array 0.9 ms (measured over 100 000 segments).
      const ids = candidates.map((c) => c.segment_id);
      const enabled = new Map(
        rowsOf<{ id: string; knowledge_id: string; unit_id: string; position: number }>(
          await db.execute(
            sql`SELECT id, knowledge_id, unit_id, position FROM knowledge_segments
                WHERE id = ANY(${param(ids)}::uuid[]) AND enabled`,
          ),
        ).map((row) => [row.id, row]),
      );
      return candidates
        .flatMap((c): Ranked[] => {
          const segment = enabled.get(c.segment_id);
          if (!segment) return [];
          const { knowledge_id: knowledgeId, unit_id: unitId, position } = segment;
          return [{ segmentId: c.segment_id, knowledgeId, unitId, position, score: 1 - Number(c.distance) }];
        })
        .sort(byScoreThenPlace)
        .slice(0, params.limit);
    },
  };
}
