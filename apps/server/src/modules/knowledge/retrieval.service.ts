import type { RETRIEVAL_MODES, RetrievalSettings, Retriever, SearchHit, Segment } from '@athena/contract';
import { queryTermsOf } from '@athena/knowledge-core';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { type AuthContext, authorize } from '../../platform/auth-guard.ts';
import { isUuid } from '../../platform/crypto.ts';
import type { Db } from '../../platform/db/database.ts';
import { knowledgeBases, knowledgeSegments, knowledgeUnits } from '../../platform/db/schema.ts';
import { AppError } from '../../platform/http/app-error.ts';
import { classifyLlmError, type LlmGateway } from '../../platform/llm/llm-gateway.ts';
import type { ModelKeyService } from '../model-key/model-key.service.ts';
import type { BaseRow, KnowledgeRepo } from './knowledge.repo.ts';
import { idList, rowsOf, type VectorStore } from './vectors.ts';

export type RetrievalService = ReturnType<typeof createRetrievalService>;
type Mode = (typeof RETRIEVAL_MODES)[number];
type Ranked = { segmentId: string; score: number };

/** Reciprocal-rank fusion constant (Cormack et al.): damps the weight of the very top ranks. */
export const RRF_K = 60;
const DEFAULT_SETTINGS: RetrievalSettings = { mode: 'hybrid', top_k: 5, score_threshold: null };

export interface RetrieveParams {
  spaceId: string;
  /** Who asked, for the usage row of the query embedding; null for anonymous channels. */
  userId: string | null;
  /** Bases to search; ids that are not bases of this space are ignored. */
  knowledgeIds: string[];
  query: string;
  /** Absent: the base's own settings when there is one base, else hybrid, top 5, no threshold. */
  settings?: RetrievalSettings;
}

export interface RetrievalResult {
  items: SearchHit[];
  /** The mode actually used: without embedding vectors everything is full text. */
  mode: Mode;
}

/** What agent chat receives for each retrieved segment. */
export interface AgentKnowledgeHit {
  segment: Segment;
  score: number;
  knowledgeId: string;
  unitId: string;
  fileName: string;
}

/** A tsquery that matches any of the terms; each term is a quoted lexeme, so nothing is an operator. */
export function anyTermQuery(query: string): string | null {
  const terms = queryTermsOf(query)
    .map((term) => term.replace(/['\\]/g, '').trim())
    .filter(Boolean);
  return terms.length ? [...new Set(terms)].map((term) => `'${term}'`).join(' | ') : null;
}

/**
 * Scores of a fused list (docs/knowledge.md):
 *  - one retriever: its own score. Full text: ts_rank_cd with normalisation 32, rank/(rank+1), in
 *    0–1, question words weighted A (1.0) above answer/content words B (0.4). Vector: cosine
 *    similarity 1 − cosine distance, clamped to 0–1.
 *  - both: reciprocal-rank fusion, Σ 1/(k + rank) over the retrievers that found the segment
 *    (k = 60, ranks from 1), divided by its largest possible value 2/(k + 1), so a segment ranked
 *    first by both scores 1 and one ranked first by only one of them scores 0.5.
 */
export function fuse(lists: Partial<Record<Retriever, Ranked[]>>) {
  const used = Object.entries(lists).filter((entry): entry is [Retriever, Ranked[]] => entry[1] !== undefined);
  const hits = new Map<string, { score: number; found_by: SearchHit['found_by'] }>();
  for (const [retriever, list] of used) {
    list.forEach((item, index) => {
      const hit = hits.get(item.segmentId) ?? { score: 0, found_by: [] };
      hit.found_by.push({ retriever, rank: index + 1, score: item.score });
      hit.score += used.length === 1 ? Math.min(1, Math.max(0, item.score)) : 1 / (RRF_K + index + 1);
      hits.set(item.segmentId, hit);
    });
  }
  const ideal = used.length === 1 ? 1 : used.length / (RRF_K + 1);
  return [...hits.entries()]
    .map(([segmentId, hit]) => ({ segmentId, score: hit.score / ideal, found_by: hit.found_by }))
    .sort((a, b) => b.score - a.score || a.segmentId.localeCompare(b.segmentId));
}

/**
 * The one retrieval service: the hit test, agents, and later workflows and MCP call it. Full text
 * over jieba-segmented words works with no model; bases with an embedding model add pgvector
 * (HNSW) search, and hybrid fuses both by reciprocal rank.
 */
export function createRetrievalService(deps: {
  db: Db;
  repo: KnowledgeRepo;
  vectors: VectorStore;
  gateway: LlmGateway;
  modelKeys: ModelKeyService;
  log: FastifyBaseLogger;
}) {
  const { db, vectors } = deps;

  async function fulltext(bases: BaseRow[], query: string, limit: number): Promise<Ranked[]> {
    const tsquery = anyTermQuery(query);
    if (!tsquery || bases.length === 0) return [];
    const result = await db.execute(sql`
      SELECT s.id, ts_rank_cd(s.search_vector, q, 32) AS score
      FROM knowledge_segments s, to_tsquery('simple', ${tsquery}) q
      WHERE s.knowledge_id IN (${idList(bases.map((b) => b.id))}) AND s.enabled AND s.search_vector @@ q
      ORDER BY score DESC, s.id LIMIT ${limit}`);
    return rowsOf<{ id: string; score: number }>(result).map((row) => ({
      segmentId: row.id,
      score: Number(row.score),
    }));
  }

  /** Nearest segments over bases grouped by embedding key: one query embedding per key. */
  async function vector(bases: BaseRow[], params: RetrieveParams, limit: number): Promise<Ranked[]> {
    const byKey = new Map<string, BaseRow[]>();
    for (const base of bases) {
      const key = base.embeddingModelKeyId as string;
      byKey.set(key, [...(byKey.get(key) ?? []), base]);
    }
    const found: Ranked[] = [];
    for (const [keyId, group] of byKey) {
      const key = await deps.modelKeys.resolveForUse(params.spaceId, { id: keyId, purpose: 'embedding' });
      if (!key) throw new AppError('NO_EMBEDDING_MODEL');
      let embedding: number[] | undefined;
      try {
        [embedding] = await deps.gateway.embed({
          key,
          input: [params.query],
          usage: { spaceId: params.spaceId, userId: params.userId, source: 'knowledge.query' },
        });
      } catch (error) {
        throw new AppError('MODEL_CALL_FAILED', { detail: classifyLlmError(error) });
      }
      if (!embedding?.length) throw new AppError('MODEL_CALL_FAILED', { detail: 'bad_response' });
      found.push(
        ...(await vectors.nearest({
          knowledgeIds: group.map((b) => b.id),
          modelKeyId: keyId,
          query: embedding,
          limit,
        })),
      );
    }
    return found.sort((a, b) => b.score - a.score).slice(0, limit);
  }

  async function retrieve(params: RetrieveParams): Promise<RetrievalResult> {
    const ids = [...new Set(params.knowledgeIds.filter(isUuid))];
    const bases = ids.length
      ? await db
          .select()
          .from(knowledgeBases)
          .where(and(eq(knowledgeBases.spaceId, params.spaceId), inArray(knowledgeBases.id, ids)))
      : [];
    const settings = params.settings ?? (bases.length === 1 ? bases[0].retrieval : DEFAULT_SETTINGS);
    if (bases.length === 0) return { items: [], mode: settings.mode === 'vector' ? 'fulltext' : settings.mode };

    const hasVectors = settings.mode !== 'fulltext' && (await vectors.available());
    const vectorBases = hasVectors ? bases.filter((b) => b.embeddingModelKeyId) : [];
    // Bases without a model are searched by full text whatever the mode.
    const textBases = settings.mode === 'vector' ? bases.filter((b) => !vectorBases.includes(b)) : bases;
    const limit = Math.max(settings.top_k * 4, 40);

    const lists: Partial<Record<Retriever, Ranked[]>> = {};
    if (textBases.length) lists.fulltext = await fulltext(textBases, params.query, limit);
    if (vectorBases.length) {
      try {
        lists.vector = await vector(vectorBases, params, limit);
      } catch (error) {
        // Hybrid still answers from full text when the model is down; vector-only cannot.
        if (!lists.fulltext) throw error;
        deps.log.warn({ err: error }, 'knowledge retrieval fell back to full text');
      }
    }
    const mode: Mode = lists.vector && lists.fulltext ? 'hybrid' : lists.vector ? 'vector' : 'fulltext';

    const threshold = settings.score_threshold;
    const fused = fuse(lists)
      .filter((hit) => threshold === null || hit.score >= threshold)
      .slice(0, settings.top_k);
    if (fused.length === 0) return { items: [], mode };

    const hitIds = fused.map((hit) => hit.segmentId);
    await db
      .update(knowledgeSegments)
      .set({ hitCount: sql`${knowledgeSegments.hitCount} + 1` })
      .where(inArray(knowledgeSegments.id, hitIds));
    const rows = await db
      .select({ segment: knowledgeSegments, fileName: knowledgeUnits.fileName })
      .from(knowledgeSegments)
      .innerJoin(knowledgeUnits, eq(knowledgeUnits.id, knowledgeSegments.unitId))
      .where(inArray(knowledgeSegments.id, hitIds));
    const keyOf = new Map(bases.map((b) => [b.id, b.embeddingModelKeyId]));
    const segments = new Map(
      (await deps.repo.toSegments(rows, (id) => keyOf.get(id) ?? null)).map((segment) => [segment.id, segment]),
    );
    const items = fused.flatMap((hit) => {
      const segment = segments.get(hit.segmentId);
      return segment ? [{ segment, score: hit.score, found_by: hit.found_by }] : [];
    });
    return { items, mode };
  }

  return {
    retrieve,

    /** The hit test: one base of the caller's space, its own settings unless others are given. */
    async search(ctx: AuthContext, body: { knowledge_id: string; query: string; retrieval?: RetrievalSettings }) {
      const space = authorize(ctx, 'member.view');
      const base = await deps.repo.findBase(space.id, body.knowledge_id);
      const started = performance.now();
      const result = await retrieve({
        spaceId: space.id,
        userId: ctx.userId,
        knowledgeIds: [base.id],
        query: body.query,
        settings: body.retrieval ?? base.retrieval,
      });
      return { ...result, took_ms: Math.round((performance.now() - started) * 10) / 10 };
    },

    /**
     * For agent chat: the best `topK` segments over the agent's bases. Ids that are not bases of
     * the space (deleted since the agent was saved) are skipped; one base uses its own mode and
     * threshold, several use hybrid with no threshold. A failing embedding model degrades to full
     * text instead of failing the answer.
     */
    async retrieveForAgent(params: {
      spaceId: string;
      userId: string | null;
      knowledgeIds: string[];
      query: string;
      topK?: number;
    }): Promise<AgentKnowledgeHit[]> {
      const topK = Math.max(1, Math.min(20, params.topK ?? 5));
      const ids = params.knowledgeIds.filter(isUuid);
      const [only] =
        ids.length === 1
          ? await db
              .select()
              .from(knowledgeBases)
              .where(and(eq(knowledgeBases.id, ids[0]), eq(knowledgeBases.spaceId, params.spaceId)))
          : [];
      const settings = only ? { ...only.retrieval, top_k: topK } : { ...DEFAULT_SETTINGS, top_k: topK };
      const run = (s: RetrievalSettings) => retrieve({ ...params, knowledgeIds: ids, settings: s });
      const result = await run(settings).catch((error) => {
        if (!(error instanceof AppError) || settings.mode === 'fulltext') throw error;
        deps.log.warn({ err: error }, 'agent knowledge retrieval fell back to full text');
        return run({ ...settings, mode: 'fulltext' });
      });
      return result.items.map((hit) => ({
        segment: hit.segment,
        score: hit.score,
        knowledgeId: hit.segment.knowledge_id,
        unitId: hit.segment.unit_id,
        fileName: hit.segment.file_name,
      }));
    },
  };
}
