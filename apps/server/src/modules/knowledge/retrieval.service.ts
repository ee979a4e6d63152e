import {
  type RETRIEVAL_MODES,
  RETRIEVERS,
  type RetrievalSettings,
  type Retriever,
  type ScoreKind,
  type SearchHit,
  type Segment,
} from '@athena/contract';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { type AuthContext, authorize } from '../../platform/auth-guard.ts';
import { isUuid } from '../../platform/crypto.ts';
import type { Db } from '../../platform/db/database.ts';
import { AppError } from '../../platform/http/app-error.ts';
import { classifyLlmError, type LlmGateway } from '../../platform/llm/llm-gateway.ts';
import type { ModelKeyService } from '../model-key/model-key.service.ts';
import { createFulltextSearch } from './fulltext.ts';
import { toSegments } from './knowledge.presenters.ts';
import type { BaseRow, KnowledgeRepo } from './knowledge.repo.ts';
import { knowledgeBases, knowledgeSegmentHits, knowledgeSegments, knowledgeUnits } from './knowledge.schema.ts';
import { byScoreThenPlace, type Ranked, type VectorStore } from './vectors.ts';

export type RetrievalService = ReturnType<typeof createRetrievalService>;
type Mode = (typeof RETRIEVAL_MODES)[number];
type Lists = Partial<Record<Retriever, Ranked[]>>;

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
  /** What the scores are: fused ranks when both retrievers found something, else that retriever's own. */
  score_kind: ScoreKind;
}

/** Who asks what: the part of a request the searches themselves need. */
type Asker = Pick<RetrieveParams, 'spaceId' | 'userId' | 'query'>;

/** What agent chat receives for each retrieved segment. */
export interface AgentKnowledgeHit {
  segment: Segment;
  score: number;
  knowledgeId: string;
  unitId: string;
  fileName: string;
}

type Fused = { segmentId: string; score: number; found_by: SearchHit['found_by'] };

/**
 * Fuses the retrievers' candidate lists into one ranking scored 0–1 (docs/knowledge.md, "Retrieval
 * scoring"). A retriever that found nothing takes no part: an empty list ranks nothing.
 *  - One list: each hit keeps its retriever's own score. Full text: ts_rank_cd with normalisation
 *    32, rank/(rank+1), question words weighted A (1.0) above answer/content words B (0.4). Vector:
 *    cosine similarity 1 − cosine distance. Both clamped to 0–1.
 *  - Two: reciprocal-rank fusion, Σ 1/(k + rank) over the retrievers that found the segment (k = 60,
 *    ranks from 1), divided by the best a segment of *its base* could reach: n/(k + 1), n being the
 *    retrievers that searched that base (`searchedBy`). Ranked first by every retriever that looked
 *    → 1, including in a base without an embedding model, which only full text searches; a fixed
 *    n/(k + 1) for everyone would cap such a base at 0.5 and a threshold above it would drop it.
 * Equal scores fall back to the best single rank, then base, file and position: never to the
 * random segment ids, so a ranking (and the tests) cannot flip between runs.
 */
export function fuse(
  lists: Lists,
  searchedBy: (knowledgeId: string) => Retriever[] = () => Object.keys(lists) as Retriever[],
): Fused[] {
  const used = Object.entries(lists).filter(
    (entry): entry is [Retriever, Ranked[]] => entry[1] !== undefined && entry[1].length > 0,
  );
  const running = new Set(used.map(([retriever]) => retriever));
  const hits = new Map<string, Fused & { item: Ranked; bestRank: number }>();
  for (const [retriever, list] of used) {
    list.forEach((item, index) => {
      const rank = index + 1;
      const hit = hits.get(item.segmentId) ?? {
        segmentId: item.segmentId,
        score: 0,
        found_by: [],
        item,
        bestRank: rank,
      };
      hit.found_by.push({ retriever, rank, score: item.score });
      hit.score += used.length === 1 ? Math.min(1, Math.max(0, item.score)) : 1 / (RRF_K + rank);
      hit.bestRank = Math.min(hit.bestRank, rank);
      hits.set(item.segmentId, hit);
    });
  }
  const idealOf = (knowledgeId: string) => {
    if (used.length === 1) return 1;
    const looked = searchedBy(knowledgeId).filter((retriever) => running.has(retriever)).length;
    return Math.max(1, looked) / (RRF_K + 1);
  };
  return [...hits.values()]
    .map((hit) => ({ ...hit, score: Math.min(1, hit.score / idealOf(hit.item.knowledgeId)) }))
    .sort(
      (a, b) =>
        b.score - a.score ||
        a.bestRank - b.bestRank ||
        a.item.knowledgeId.localeCompare(b.item.knowledgeId) ||
        a.item.unitId.localeCompare(b.item.unitId) ||
        a.item.position - b.item.position,
    )
    .map(({ segmentId, score, found_by }) => ({ segmentId, score, found_by }));
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
  const fulltext = createFulltextSearch(db);

  /** Nearest segments over bases grouped by embedding key: one query embedding per key. */
  async function vector(bases: BaseRow[], params: Asker, limit: number): Promise<Ranked[]> {
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
    return found.sort(byScoreThenPlace).slice(0, limit);
  }

  /** The bases of the space among these ids; anything else (foreign, deleted, malformed) is ignored. */
  async function basesOf(spaceId: string, knowledgeIds: string[]): Promise<BaseRow[]> {
    const ids = [...new Set(knowledgeIds.filter(isUuid))];
    if (ids.length === 0) return [];
    return db
      .select()
      .from(knowledgeBases)
      .where(and(eq(knowledgeBases.spaceId, spaceId), inArray(knowledgeBases.id, ids)));
  }

  async function searchBases(bases: BaseRow[], asker: Asker, settings: RetrievalSettings): Promise<RetrievalResult> {
    if (bases.length === 0) {
      const mode = settings.mode === 'vector' ? 'fulltext' : settings.mode;
      return { items: [], mode, score_kind: mode === 'hybrid' ? 'fusion' : mode };
    }
    const hasVectors = settings.mode !== 'fulltext' && (await vectors.available());
    const vectorBases = hasVectors ? bases.filter((b) => b.embeddingModelKeyId) : [];
    // Bases without a model are searched by full text whatever the mode.
    const textBases = settings.mode === 'vector' ? bases.filter((b) => !vectorBases.includes(b)) : bases;
    const limit = Math.max(settings.top_k * 4, 40);

    const lists: Lists = {};
    const searchedBy = new Map<string, Retriever[]>(bases.map((b) => [b.id, []]));
    // The vector search starts first: its query embedding is a network call that can run while
    // full text uses the database.
    const vectorRun = vectorBases.length
      ? vector(vectorBases, asker, limit).then(
          (list) => ({ list, error: null }),
          (error: unknown) => ({ list: null, error }),
        )
      : null;
    if (textBases.length) {
      lists.fulltext = await fulltext(
        textBases.map((b) => b.id),
        asker.query,
        limit,
      );
      for (const base of textBases) searchedBy.get(base.id)?.push('fulltext');
    }
    if (vectorRun) {
      const { list, error } = await vectorRun;
      if (list) {
        lists.vector = list;
        for (const base of vectorBases) searchedBy.get(base.id)?.push('vector');
      } else {
        // Hybrid still answers from full text when the model is down; vector-only cannot.
        if (!lists.fulltext) throw error;
        deps.log.warn({ err: error }, 'knowledge retrieval fell back to full text');
      }
    }
    const mode: Mode = lists.vector && lists.fulltext ? 'hybrid' : lists.vector ? 'vector' : 'fulltext';
    // fuse() keeps a lone non-empty list's own scores, so the kind follows what actually found hits.
    const finders = RETRIEVERS.filter((retriever) => (lists[retriever]?.length ?? 0) > 0);
    const score_kind: ScoreKind =
      finders.length === 2 ? 'fusion' : (finders[0] ?? (mode === 'vector' ? 'vector' : 'fulltext'));

    const threshold = settings.score_threshold;
    const fused = fuse(lists, (id) => searchedBy.get(id) ?? [])
      .filter((hit) => threshold === null || hit.score >= threshold)
      .slice(0, settings.top_k);
    if (fused.length === 0) return { items: [], mode, score_kind };

    const hitIds = fused.map((hit) => hit.segmentId);
    await db
      .insert(knowledgeSegmentHits)
      .values(hitIds.map((segmentId) => ({ segmentId, hits: 1 })))
      .onConflictDoUpdate({
        target: knowledgeSegmentHits.segmentId,
        set: { hits: sql`${knowledgeSegmentHits.hits} + 1` },
      });
    const rows = await db
      .select({ segment: knowledgeSegments, fileName: knowledgeUnits.fileName })
      .from(knowledgeSegments)
      .innerJoin(knowledgeUnits, eq(knowledgeUnits.id, knowledgeSegments.unitId))
      .where(inArray(knowledgeSegments.id, hitIds));
    const keyOf = new Map(bases.map((b) => [b.id, b.embeddingModelKeyId]));
    const segments = new Map(
      toSegments(rows, await deps.repo.segmentFacts(rows, (id) => keyOf.get(id) ?? null)).map((segment) => [
        segment.id,
        segment,
      ]),
    );
    const items = fused.flatMap((hit) => {
      const segment = segments.get(hit.segmentId);
      return segment ? [{ segment, score: hit.score, found_by: hit.found_by }] : [];
    });
    return { items, mode, score_kind };
  }

  return {
    async retrieve(params: RetrieveParams): Promise<RetrievalResult> {
      const bases = await basesOf(params.spaceId, params.knowledgeIds);
      const settings = params.settings ?? (bases.length === 1 ? bases[0].retrieval : DEFAULT_SETTINGS);
      return searchBases(bases, params, settings);
    },

    /** The hit test: one base of the caller's space, its own settings unless others are given. */
    async search(ctx: AuthContext, body: { knowledge_id: string; query: string; retrieval?: RetrievalSettings }) {
      const space = authorize(ctx, 'member.view');
      const base = await deps.repo.findBase(space.id, body.knowledge_id);
      const started = performance.now();
      const result = await searchBases(
        [base],
        { spaceId: space.id, userId: ctx.userId, query: body.query },
        body.retrieval ?? base.retrieval,
      );
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
      const bases = await basesOf(params.spaceId, params.knowledgeIds);
      if (bases.length === 0) return [];
      const settings = { ...(bases.length === 1 ? bases[0].retrieval : DEFAULT_SETTINGS), top_k: topK };
      const result = await searchBases(bases, params, settings).catch((error) => {
        if (!(error instanceof AppError) || settings.mode === 'fulltext') throw error;
        deps.log.warn({ err: error }, 'agent knowledge retrieval fell back to full text');
        return searchBases(bases, params, { ...settings, mode: 'fulltext' });
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
