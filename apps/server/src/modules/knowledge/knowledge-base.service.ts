import { type KnowledgeBase, type RetrievalSettings, UNIT_STATUSES, type UnitStatus } from '@athena/contract';
import { and, desc, eq, ilike, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { type AuthContext, authorize } from '../../platform/auth-guard.ts';
import type { InvalidationBus } from '../../platform/cache.ts';
import { isUuid } from '../../platform/crypto.ts';
import type { Db } from '../../platform/db/database.ts';
import { escapeLike } from '../../platform/db/like.ts';
import type { Tx } from '../../platform/db/sql.ts';
import { AppError } from '../../platform/http/app-error.ts';
import type { ObjectStorage } from '../../platform/storage.ts';
import { users } from '../auth/auth.schema.ts';
import type { ModelKeyQueries } from '../model-key/index.ts';
import type { KnowledgeGroupService } from './group.service.ts';
import type { IndexQueue } from './index-queue.ts';
import type { BaseRow, KnowledgeRepo } from './knowledge.repo.ts';
import { knowledgeBases, knowledgeUnits } from './knowledge.schema.ts';
import { announce, baseKey, beginRun } from './transitions.ts';
import type { VectorStore } from './vectors.ts';

export type KnowledgeBaseService = ReturnType<typeof createKnowledgeBaseService>;

export interface BaseFields {
  name: string;
  description: string;
  group_id: string | null;
  embedding_model_key_id?: string | null;
  retrieval: RetrievalSettings;
}

/** Units a new embedding model queues again; a unit someone cancelled stays cancelled. */
const REEMBED: UnitStatus[] = ['waiting', 'indexing', 'indexed', 'failed'];
/** Units re-indexing queues again: every one that was ever started. */
const REINDEX: UnitStatus[] = [...REEMBED, 'canceled'];

/**
 * Knowledge bases of a space. Everyone may create one; members edit and delete only their own.
 * Changing the embedding model drops the base's vectors and queues its units again: their
 * segments (and any hand edits) stay, only the vectors are made anew.
 */
export function createKnowledgeBaseService(deps: {
  db: Db;
  repo: KnowledgeRepo;
  groups: KnowledgeGroupService;
  vectors: VectorStore;
  queue: IndexQueue;
  storage: ObjectStorage;
  bus: InvalidationBus;
  log: FastifyBaseLogger;
  modelKeys: Pick<ModelKeyQueries, 'embeddingKeyFor' | 'keyLabels'>;
}) {
  const { db, repo, vectors, queue, bus } = deps;

  const rows = () =>
    db
      .select({
        base: knowledgeBases,
        creator: { id: users.id, nickname: users.nickname },
      })
      .from(knowledgeBases)
      .innerJoin(users, eq(users.id, knowledgeBases.createdBy));
  type Joined = Awaited<ReturnType<ReturnType<typeof rows>['execute']>>[number];

  async function present(joined: Joined[]): Promise<KnowledgeBase[]> {
    const ids = joined.map((row) => row.base.id);
    const [labelOf, counts] = await Promise.all([
      deps.modelKeys.keyLabels(joined.flatMap((row) => row.base.embeddingModelKeyId ?? [])),
      ids.length
        ? db
            .select({
              knowledgeId: knowledgeUnits.knowledgeId,
              status: knowledgeUnits.status,
              units: sql<number>`count(*)::int`,
              segments: sql<number>`coalesce(sum(${knowledgeUnits.segmentCount}), 0)::int`,
            })
            .from(knowledgeUnits)
            .where(inArray(knowledgeUnits.knowledgeId, ids))
            .groupBy(knowledgeUnits.knowledgeId, knowledgeUnits.status)
        : [],
    ]);
    return joined.map(({ base, creator }) => {
      const statusCounts = Object.fromEntries(UNIT_STATUSES.map((s) => [s, 0])) as Record<UnitStatus, number>;
      let unitCount = 0;
      let segmentCount = 0;
      for (const row of counts) {
        if (row.knowledgeId !== base.id) continue;
        if (row.status in statusCounts) statusCounts[row.status as UnitStatus] += row.units;
        unitCount += row.units;
        segmentCount += row.segments;
      }
      return {
        id: base.id,
        name: base.name,
        description: base.description,
        type: base.type as KnowledgeBase['type'],
        group_id: base.groupId,
        embedding_model_key_id: base.embeddingModelKeyId,
        embedding_model_label: (base.embeddingModelKeyId && labelOf.get(base.embeddingModelKeyId)) ?? null,
        retrieval: base.retrieval,
        unit_count: unitCount,
        segment_count: segmentCount,
        status_counts: statusCounts,
        created_by: creator,
        created_at: base.createdAt.toISOString(),
        updated_at: base.updatedAt.toISOString(),
      };
    });
  }

  async function getOne(spaceId: string, id: string) {
    const [row] = await rows()
      .where(and(eq(knowledgeBases.id, id), eq(knowledgeBases.spaceId, spaceId)))
      .limit(1);
    if (!row) throw new AppError('NOT_FOUND');
    return (await present([row]))[0];
  }

  async function groupFor(spaceId: string, groupId: string | null) {
    if (groupId === null) return null;
    return (await deps.groups.find(spaceId, groupId)).id;
  }

  async function findForChange(ctx: AuthContext, id: string, action: 'knowledge.edit' | 'knowledge.delete') {
    const space = authorize(ctx, 'member.view');
    const base = await repo.findBase(space.id, id);
    authorize(ctx, action, { isOwner: base.createdBy === ctx.userId });
    return base;
  }

  /**
   * Starts a new run for these units, then drops the base's vectors; segments (and edits) stay.
   * In that order: the run bump locks the unit rows first, so a worker's vector write that comes
   * in after our delete waits for the lock and then finds its run gone, instead of slipping an
   * old-model vector in between the delete and the bump.
   */
  async function reembed(base: BaseRow, statuses: UnitStatus[], apply?: (tx: Tx) => Promise<void>) {
    const jobs = await db.transaction(async (tx) => {
      await apply?.(tx);
      const started = await beginRun(
        tx,
        and(eq(knowledgeUnits.knowledgeId, base.id), inArray(knowledgeUnits.status, statuses))!,
      );
      await vectors.deleteForBase(tx, base.id);
      return started;
    });
    await announce(bus, [baseKey(base.id)]);
    await queue.enqueue(base.spaceId, jobs);
    return jobs.length;
  }

  return {
    async list(ctx: AuthContext, filter: { group_id?: string; keyword?: string } = {}) {
      const space = authorize(ctx, 'member.view');
      const conditions: SQL[] = [eq(knowledgeBases.spaceId, space.id)];
      if (filter.group_id === 'ungrouped') conditions.push(isNull(knowledgeBases.groupId));
      else if (filter.group_id) {
        if (!isUuid(filter.group_id)) return { items: [] };
        conditions.push(eq(knowledgeBases.groupId, filter.group_id));
      }
      if (filter.keyword) conditions.push(ilike(knowledgeBases.name, `%${escapeLike(filter.keyword)}%`));
      const joined = await rows()
        .where(and(...conditions))
        .orderBy(desc(knowledgeBases.updatedAt));
      return { items: await present(joined) };
    },

    async get(ctx: AuthContext, id: string) {
      const space = authorize(ctx, 'member.view');
      if (!isUuid(id)) throw new AppError('NOT_FOUND');
      return getOne(space.id, id);
    },

    async create(ctx: AuthContext, fields: BaseFields & { type: 'normal' | 'graph' }) {
      const space = authorize(ctx, 'knowledge.create');
      const groupId = await groupFor(space.id, fields.group_id);
      const keyId = await deps.modelKeys.embeddingKeyFor(space.id, fields.embedding_model_key_id);
      const [row] = await db
        .insert(knowledgeBases)
        .values({
          spaceId: space.id,
          groupId,
          name: fields.name,
          description: fields.description,
          type: fields.type,
          embeddingModelKeyId: keyId,
          retrieval: fields.retrieval,
          createdBy: ctx.userId,
        })
        .returning({ id: knowledgeBases.id });
      return getOne(space.id, row.id);
    },

    async update(ctx: AuthContext, id: string, fields: BaseFields) {
      const base = await findForChange(ctx, id, 'knowledge.edit');
      const groupId = await groupFor(base.spaceId, fields.group_id);
      const keyId =
        fields.embedding_model_key_id === base.embeddingModelKeyId
          ? base.embeddingModelKeyId
          : await deps.modelKeys.embeddingKeyFor(base.spaceId, fields.embedding_model_key_id ?? null);
      const set = {
        name: fields.name,
        description: fields.description,
        groupId,
        retrieval: fields.retrieval,
        embeddingModelKeyId: keyId,
        updatedAt: sql`now()`,
      };
      if (keyId === base.embeddingModelKeyId) {
        await db.update(knowledgeBases).set(set).where(eq(knowledgeBases.id, base.id));
      } else {
        await reembed(base, REEMBED, async (tx) => {
          await tx.update(knowledgeBases).set(set).where(eq(knowledgeBases.id, base.id));
        });
      }
      return getOne(base.spaceId, base.id);
    },

    /** Every started unit again: vectors are made anew, segments and hand edits are kept. */
    async reindex(ctx: AuthContext, id: string) {
      const base = await findForChange(ctx, id, 'knowledge.edit');
      return { queued: await reembed(base, REINDEX) };
    },

    async remove(ctx: AuthContext, id: string) {
      const base = await findForChange(ctx, id, 'knowledge.delete');
      // The units are deleted here rather than by cascade so their file keys come back from the
      // same statement. Locking the base first makes an upload in flight either commit before
      // (its unit is returned here) or wait and then fail on the missing base (and remove its own
      // file): its foreign-key check needs a share lock on the base row.
      const files = await db.transaction(async (tx) => {
        await tx
          .select({ id: knowledgeBases.id })
          .from(knowledgeBases)
          .where(eq(knowledgeBases.id, base.id))
          .for('update');
        const units = await tx
          .delete(knowledgeUnits)
          .where(eq(knowledgeUnits.knowledgeId, base.id))
          .returning({ key: knowledgeUnits.storageKey });
        // Segments and vectors go with their units and base (foreign keys cascade).
        await tx.delete(knowledgeBases).where(eq(knowledgeBases.id, base.id));
        return units;
      });
      await announce(bus, [baseKey(base.id)]);
      // After the commit: a file removed for a rolled-back delete could never be brought back.
      for (const { key } of files) {
        await deps.storage.remove(key).catch((error) => deps.log.error({ err: error, key }, 'could not remove a file'));
      }
    },
  };
}
