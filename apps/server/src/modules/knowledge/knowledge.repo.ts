import {
  type Chunking,
  formatMessage,
  isErrorKey,
  type KnowledgeFileKind,
  type KnowledgeUnit,
  type Language,
  type Segment,
  type TableMode,
  type UnitStatus,
} from '@athena/contract';
import { type Chunk, searchTextOf } from '@athena/knowledge-core';
import { and, eq, inArray, param, sql } from 'drizzle-orm';
import { type AuthContext, authorize } from '../../platform/auth-guard.ts';
import { isUuid } from '../../platform/crypto.ts';
import type { Db } from '../../platform/db/database.ts';
import { knowledgeBases, knowledgeSegmentHits, knowledgeSegments, knowledgeUnits } from '../../platform/db/schema.ts';
import { AppError } from '../../platform/http/app-error.ts';
import type { Tx, VectorStore } from './vectors.ts';

export type { Tx } from './vectors.ts';

export type BaseRow = typeof knowledgeBases.$inferSelect;
export type UnitRow = typeof knowledgeUnits.$inferSelect;
export type SegmentRow = typeof knowledgeSegments.$inferSelect;
export type KnowledgeRepo = ReturnType<typeof createKnowledgeRepo>;

const STATUS_LABELS: Record<UnitStatus, Record<Language, string>> = {
  not_indexed: { 'zh-CN': '未索引', 'zh-TW': '未索引', en: 'not indexed' },
  waiting: { 'zh-CN': '等待索引', 'zh-TW': '等待索引', en: 'waiting for indexing' },
  indexing: { 'zh-CN': '索引中', 'zh-TW': '索引中', en: 'indexing' },
  indexed: { 'zh-CN': '已索引', 'zh-TW': '已索引', en: 'indexed' },
  failed: { 'zh-CN': '索引失败', 'zh-TW': '索引失敗', en: 'indexing failed' },
  canceled: { 'zh-CN': '已取消索引', 'zh-TW': '已取消索引', en: 'indexing canceled' },
};

/** UNIT_STATE_CONFLICT naming the unit's status in the caller's language. */
export const stateConflict = (status: string, language: Language) =>
  new AppError('UNIT_STATE_CONFLICT', { status: STATUS_LABELS[status as UnitStatus]?.[language] ?? status });

/** What a Q&A segment is embedded and matched by: its question; other segments by their content. */
export const embeddingTextOf = (segment: { question: string; answer: string; content: string }) =>
  segment.question ? segment.question : segment.content;

/** What full text indexes: a Q&A segment's question apart (matched on it), and its answer as the body. */
export const searchColumnsOf = (segment: { question: string; answer: string; content: string }) => ({
  searchQuestion: searchTextOf(segment.question),
  searchBody: searchTextOf(segment.question ? segment.answer : segment.content),
});

export function toUnit(row: UnitRow, language: Language): KnowledgeUnit {
  const code = row.errorCode;
  return {
    id: row.id,
    knowledge_id: row.knowledgeId,
    file_name: row.fileName,
    file_kind: row.fileKind as KnowledgeFileKind,
    size: row.size,
    content_hash: row.contentHash,
    status: row.status as UnitStatus,
    progress: row.progress,
    error: code
      ? {
          code,
          message: isErrorKey(code)
            ? formatMessage(code, language, { detail: row.errorDetail ?? '' })
            : (row.errorDetail ?? code),
        }
      : null,
    chunking: row.chunking as Chunking,
    table_mode: (row.tableMode as TableMode | null) ?? null,
    segment_count: row.segmentCount,
    token_count: row.tokenCount,
    columns: row.columns ?? null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    indexed_at: row.indexedAt?.toISOString() ?? null,
  };
}

/**
 * Lookups shared by the knowledge services. Every one is scoped by space: an id from another
 * space, a malformed id and a missing id all answer NOT_FOUND.
 */
export function createKnowledgeRepo(deps: { db: Db; vectors: VectorStore }) {
  const { db, vectors } = deps;

  async function findBase(spaceId: string, id: string) {
    if (!isUuid(id)) throw new AppError('NOT_FOUND');
    const [row] = await db
      .select()
      .from(knowledgeBases)
      .where(and(eq(knowledgeBases.id, id), eq(knowledgeBases.spaceId, spaceId)))
      .limit(1);
    if (!row) throw new AppError('NOT_FOUND');
    return row;
  }

  async function findUnit(spaceId: string, id: string) {
    if (!isUuid(id)) throw new AppError('NOT_FOUND');
    const [row] = await db
      .select({ unit: knowledgeUnits, base: knowledgeBases })
      .from(knowledgeUnits)
      .innerJoin(knowledgeBases, eq(knowledgeBases.id, knowledgeUnits.knowledgeId))
      .where(and(eq(knowledgeUnits.id, id), eq(knowledgeBases.spaceId, spaceId)))
      .limit(1);
    if (!row) throw new AppError('NOT_FOUND');
    return row;
  }

  async function findSegment(spaceId: string, id: string) {
    if (!isUuid(id)) throw new AppError('NOT_FOUND');
    const [row] = await db
      .select({ segment: knowledgeSegments, unit: knowledgeUnits, base: knowledgeBases })
      .from(knowledgeSegments)
      .innerJoin(knowledgeUnits, eq(knowledgeUnits.id, knowledgeSegments.unitId))
      .innerJoin(knowledgeBases, eq(knowledgeBases.id, knowledgeSegments.knowledgeId))
      .where(and(eq(knowledgeSegments.id, id), eq(knowledgeBases.spaceId, spaceId)))
      .limit(1);
    if (!row) throw new AppError('NOT_FOUND');
    return row;
  }

  /** Edits of a base and everything in it (units, segments) follow `knowledge.edit`. */
  const canEdit = (ctx: AuthContext, base: BaseRow) =>
    authorize(ctx, 'knowledge.edit', { isOwner: base.createdBy === ctx.userId });

  /** Segments as the contract shows them, `embedded` meaning a vector for the base's current key. */
  async function toSegments(
    rows: { segment: SegmentRow; fileName: string }[],
    embeddingKeyOf: (knowledgeId: string) => string | null,
  ): Promise<Segment[]> {
    const byKey = new Map<string, string[]>();
    for (const { segment } of rows) {
      const key = embeddingKeyOf(segment.knowledgeId);
      if (key) byKey.set(key, [...(byKey.get(key) ?? []), segment.id]);
    }
    const embedded = new Set<string>();
    for (const [key, ids] of byKey) for (const id of await vectors.embeddedAmong(ids, key)) embedded.add(id);
    const hits = new Map<string, number>();
    if (rows.length > 0) {
      const counted = await db
        .select()
        .from(knowledgeSegmentHits)
        .where(
          inArray(
            knowledgeSegmentHits.segmentId,
            rows.map(({ segment }) => segment.id),
          ),
        );
      for (const row of counted) hits.set(row.segmentId, row.hits);
    }
    return rows.map(({ segment, fileName }) => ({
      id: segment.id,
      knowledge_id: segment.knowledgeId,
      unit_id: segment.unitId,
      file_name: fileName,
      position: segment.position,
      question: segment.question,
      answer: segment.answer,
      content: segment.content,
      enabled: segment.enabled,
      tokens: segment.tokens,
      hit_count: hits.get(segment.id) ?? 0,
      embedded: embedded.has(segment.id),
      manual: segment.manual,
      updated_at: segment.updatedAt.toISOString(),
    }));
  }

  /** Re-derives a unit's segment and token counts from its segments (after a hand edit). */
  async function recount(tx: Tx, unitId: string) {
    await tx
      .update(knowledgeUnits)
      .set({
        segmentCount: sql`(SELECT count(*)::int FROM ${knowledgeSegments} WHERE ${knowledgeSegments.unitId} = ${unitId}::uuid)`,
        tokenCount: sql`(SELECT coalesce(sum(${knowledgeSegments.tokens}), 0)::int FROM ${knowledgeSegments} WHERE ${knowledgeSegments.unitId} = ${unitId}::uuid)`,
        updatedAt: sql`now()`,
      })
      .where(eq(knowledgeUnits.id, unitId));
  }

  /**
   * Writes a unit's segments from `position` on, in one statement over column arrays (a multi-row
   * VALUES list costs a third more); positions already there are skipped, so a resumed run never
   * duplicates.
   */
  async function insertSegments(tx: Tx, unit: UnitRow, position: number, chunks: Chunk[]) {
    const search = chunks.map(searchColumnsOf);
    await tx.execute(sql`
      INSERT INTO knowledge_segments
        (space_id, knowledge_id, unit_id, position, question, answer, content, search_question, search_body, tokens)
      SELECT ${unit.spaceId}::uuid, ${unit.knowledgeId}::uuid, ${unit.id}::uuid, t.*
      FROM unnest(${param(chunks.map((_, offset) => position + offset))}::int[],
        ${param(chunks.map((c) => c.question))}::text[], ${param(chunks.map((c) => c.answer))}::text[],
        ${param(chunks.map((c) => c.content))}::text[], ${param(search.map((c) => c.searchQuestion))}::text[],
        ${param(search.map((c) => c.searchBody))}::text[], ${param(chunks.map((c) => c.tokens))}::int[]) AS t
      ON CONFLICT (unit_id, position) DO NOTHING`);
  }

  return { findBase, findUnit, findSegment, canEdit, toSegments, recount, insertSegments };
}
