import { countTokens } from '@athena/knowledge-core';
import { and, asc, count, eq, ilike, or, type SQL, sql } from 'drizzle-orm';
import { type AuthContext, authorize } from '../../platform/auth-guard.ts';
import type { Db } from '../../platform/db/database.ts';
import { escapeLike } from '../../platform/db/like.ts';
import type { Tx } from '../../platform/db/sql.ts';
import { AppError } from '../../platform/http/app-error.ts';
import { classifyLlmError, type LlmGateway } from '../../platform/llm/llm-gateway.ts';
import type { ModelKeyService } from '../model-key/model-key.service.ts';
import { stateConflict, toSegments } from './knowledge.presenters.ts';
import type { BaseRow, KnowledgeRepo, UnitRow } from './knowledge.repo.ts';
import { knowledgeSegments, knowledgeUnits } from './knowledge.schema.ts';
import { authorizeEdit } from './knowledge-access.ts';
import { embeddingTextOf, searchColumnsOf } from './segment-text.ts';
import type { VectorStore } from './vectors.ts';

export type SegmentService = ReturnType<typeof createSegmentService>;

interface SegmentText {
  question: string;
  answer: string;
  content: string;
}

/**
 * Browsing and hand-editing segments. An edit re-embeds only that segment: the vector is computed
 * first, then text and vector are written in one transaction, so a failed model call changes
 * nothing. Adding, editing and deleting need an indexed unit (a unit being indexed belongs to its
 * worker), checked when the request comes in and again, under the unit's row lock, in the write
 * transaction: the model call can take seconds, and a unit started meanwhile has had its segments
 * replaced. Enabling and disabling work at any time.
 */
export function createSegmentService(deps: {
  db: Db;
  repo: KnowledgeRepo;
  vectors: VectorStore;
  gateway: LlmGateway;
  modelKeys: ModelKeyService;
}) {
  const { db, repo, vectors } = deps;

  const joined = () =>
    db
      .select({ segment: knowledgeSegments, fileName: knowledgeUnits.fileName })
      .from(knowledgeSegments)
      .innerJoin(knowledgeUnits, eq(knowledgeUnits.id, knowledgeSegments.unitId));

  async function present(base: BaseRow, id: string) {
    const rows = await joined().where(eq(knowledgeSegments.id, id));
    if (!rows.length) throw new AppError('NOT_FOUND');
    return toSegments(rows, await repo.segmentFacts(rows, () => base.embeddingModelKeyId))[0];
  }

  /** Q&A segments need question and answer; the others need content. */
  function checkText(isQa: boolean, text: SegmentText): SegmentText {
    if (isQa) {
      if (!text.question || !text.answer) throw new AppError('SEGMENT_CONTENT_REQUIRED');
      return text;
    }
    if (!text.content) throw new AppError('SEGMENT_CONTENT_REQUIRED');
    return { question: '', answer: '', content: text.content };
  }

  const columnsOf = (text: SegmentText) => ({
    ...text,
    ...searchColumnsOf(text),
    tokens: countTokens(text.question ? `${text.question}\n${text.answer}` : text.content),
    updatedAt: sql`now()`,
  });

  /** The vector for this text with the base's model, or null when the base has none. */
  async function embedFor(base: BaseRow, text: SegmentText, userId: string) {
    const keyId = base.embeddingModelKeyId;
    if (!keyId || !(await vectors.available())) return null;
    const key = await deps.modelKeys.resolveForUse(base.spaceId, { id: keyId, purpose: 'embedding' });
    if (!key) throw new AppError('NO_EMBEDDING_MODEL');
    try {
      const [embedding] = await deps.gateway.embed({
        key,
        input: [embeddingTextOf(text)],
        usage: { spaceId: base.spaceId, userId, source: 'knowledge.embed' },
      });
      if (!embedding?.length) throw new Error('the endpoint returned no embedding');
      return { keyId, embedding };
    } catch (error) {
      throw new AppError('MODEL_CALL_FAILED', { detail: classifyLlmError(error) });
    }
  }

  async function forChange(ctx: AuthContext, id: string) {
    const space = authorize(ctx, 'member.view');
    const row = await repo.findSegment(space.id, id);
    authorizeEdit(ctx, row.base);
    return row;
  }

  const needIndexed = (ctx: AuthContext, unit: UnitRow) => {
    if (unit.status !== 'indexed') throw stateConflict(unit.status, ctx.language);
  };

  /**
   * Inside the write transaction: locks the unit row (serialising edits of one unit, and holding
   * off a start until we commit) and checks it is still indexed on the run we read before.
   */
  async function lockIndexed(tx: Tx, ctx: AuthContext, unit: UnitRow) {
    const [row] = await tx
      .select({ status: knowledgeUnits.status, runId: knowledgeUnits.runId })
      .from(knowledgeUnits)
      .where(eq(knowledgeUnits.id, unit.id))
      .for('update');
    if (!row) throw new AppError('NOT_FOUND');
    if (row.status !== 'indexed' || row.runId !== unit.runId) throw stateConflict(row.status, ctx.language);
  }

  return {
    async list(
      ctx: AuthContext,
      query: { knowledge_id: string; unit_id?: string; keyword?: string; page: number; page_size: number },
    ) {
      const space = authorize(ctx, 'member.view');
      const base = await repo.findBase(space.id, query.knowledge_id);
      const conditions: SQL[] = [eq(knowledgeSegments.knowledgeId, base.id)];
      if (query.unit_id) {
        const { unit } = await repo.findUnit(space.id, query.unit_id);
        conditions.push(eq(knowledgeSegments.unitId, unit.id));
      }
      if (query.keyword) {
        const pattern = `%${escapeLike(query.keyword)}%`;
        conditions.push(
          or(
            ilike(knowledgeSegments.question, pattern),
            ilike(knowledgeSegments.answer, pattern),
            ilike(knowledgeSegments.content, pattern),
          )!,
        );
      }
      const where = and(...conditions);
      const [{ total }] = await db.select({ total: count() }).from(knowledgeSegments).where(where);
      const rows = await joined()
        .where(where)
        .orderBy(asc(knowledgeUnits.createdAt), asc(knowledgeUnits.id), asc(knowledgeSegments.position))
        .limit(query.page_size)
        .offset((query.page - 1) * query.page_size);
      return { items: toSegments(rows, await repo.segmentFacts(rows, () => base.embeddingModelKeyId)), total };
    },

    /** A hand-written segment at the end of the unit, indexed at once. */
    async create(ctx: AuthContext, unitId: string, body: SegmentText) {
      const space = authorize(ctx, 'member.view');
      const { unit, base } = await repo.findUnit(space.id, unitId);
      authorizeEdit(ctx, base);
      needIndexed(ctx, unit);
      const text = checkText(Boolean(body.question || body.answer), body);
      const vector = await embedFor(base, text, ctx.userId);
      const id = await db.transaction(async (tx) => {
        // The row lock also serialises concurrent additions to one unit, so positions never collide.
        await lockIndexed(tx, ctx, unit);
        const [{ next }] = await tx
          .select({ next: sql<number>`coalesce(max(${knowledgeSegments.position}) + 1, 0)::int` })
          .from(knowledgeSegments)
          .where(eq(knowledgeSegments.unitId, unit.id));
        const [row] = await tx
          .insert(knowledgeSegments)
          .values({
            spaceId: unit.spaceId,
            knowledgeId: unit.knowledgeId,
            unitId: unit.id,
            position: next,
            manual: true,
            ...columnsOf(text),
          })
          .returning({ id: knowledgeSegments.id });
        if (vector)
          await vectors.upsert(tx, base.id, vector.keyId, [{ segmentId: row.id, embedding: vector.embedding }]);
        await repo.recount(tx, unit.id);
        return row.id;
      });
      return present(base, id);
    },

    async update(ctx: AuthContext, id: string, body: SegmentText) {
      const { segment, unit, base } = await forChange(ctx, id);
      needIndexed(ctx, unit);
      const text = checkText(segment.question !== '', body);
      const vector = await embedFor(base, text, ctx.userId);
      await db.transaction(async (tx) => {
        await lockIndexed(tx, ctx, unit);
        const [row] = await tx
          .update(knowledgeSegments)
          .set(columnsOf(text))
          .where(eq(knowledgeSegments.id, segment.id))
          .returning({ id: knowledgeSegments.id });
        // Deleted by someone else while the model answered.
        if (!row) throw new AppError('NOT_FOUND');
        if (vector) {
          await vectors.upsert(tx, base.id, vector.keyId, [{ segmentId: segment.id, embedding: vector.embedding }]);
        }
        await repo.recount(tx, unit.id);
      });
      return present(base, segment.id);
    },

    async setEnabled(ctx: AuthContext, id: string, enabled: boolean) {
      const { segment, base } = await forChange(ctx, id);
      await db
        .update(knowledgeSegments)
        .set({ enabled, updatedAt: sql`now()` })
        .where(eq(knowledgeSegments.id, segment.id));
      return present(base, segment.id);
    },

    async remove(ctx: AuthContext, id: string) {
      const { segment, unit } = await forChange(ctx, id);
      needIndexed(ctx, unit);
      await db.transaction(async (tx) => {
        await lockIndexed(tx, ctx, unit);
        // Its vector goes with it (foreign key cascade).
        await tx.delete(knowledgeSegments).where(eq(knowledgeSegments.id, segment.id));
        await repo.recount(tx, unit.id);
      });
    },
  };
}
