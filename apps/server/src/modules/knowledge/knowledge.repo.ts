import type { Chunk } from '@athena/knowledge-core';
import { and, eq, inArray, param, sql } from 'drizzle-orm';
import { isUuid } from '../../platform/crypto.ts';
import type { Db } from '../../platform/db/database.ts';
import type { Tx } from '../../platform/db/sql.ts';
import { AppError } from '../../platform/http/app-error.ts';
import { knowledgeBases, knowledgeSegmentHits, knowledgeSegments, knowledgeUnits } from './knowledge.schema.ts';
import { searchColumnsOf } from './segment-text.ts';
import type { VectorStore } from './vectors.ts';

export type BaseRow = typeof knowledgeBases.$inferSelect;
export type UnitRow = typeof knowledgeUnits.$inferSelect;
export type SegmentRow = typeof knowledgeSegments.$inferSelect;
export type KnowledgeRepo = ReturnType<typeof createKnowledgeRepo>;
export interface SegmentFacts {
  embedded: Set<string>;
  hits: Map<string, number>;
}

/**
 * The knowledge module's shared queries. Every lookup is scoped by space: an id from another
 * space, a malformed id and a missing id all answer NOT_FOUND. Shapes for the contract are in
 * knowledge.presenters.ts.
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

  /**
   * What a segment list shows beyond the rows: which segments have a vector for their base's
   * current key, and how often each was hit.
   */
  async function segmentFacts(
    rows: { segment: SegmentRow }[],
    embeddingKeyOf: (knowledgeId: string) => string | null,
  ): Promise<SegmentFacts> {
    const segments = rows.map(({ segment }) => segment);
    const byKey = new Map<string, string[]>();
    for (const segment of segments) {
      const key = embeddingKeyOf(segment.knowledgeId);
      if (key) byKey.set(key, [...(byKey.get(key) ?? []), segment.id]);
    }
    const embedded = new Set<string>();
    for (const [key, ids] of byKey) for (const id of await vectors.embeddedAmong(ids, key)) embedded.add(id);
    const hits = new Map<string, number>();
    if (segments.length > 0) {
      const counted = await db
        .select()
        .from(knowledgeSegmentHits)
        .where(
          inArray(
            knowledgeSegmentHits.segmentId,
            segments.map((segment) => segment.id),
          ),
        );
      for (const row of counted) hits.set(row.segmentId, row.hits);
    }
    return { embedded, hits };
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

  return { findBase, findUnit, findSegment, segmentFacts, recount, insertSegments };
}
