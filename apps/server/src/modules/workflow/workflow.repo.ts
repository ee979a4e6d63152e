import type { WorkflowGraph } from '@athena/contract';
import { and, count, desc, eq, getTableColumns, ilike, isNull, max, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { isUuid } from '../../platform/crypto.ts';
import type { Db } from '../../platform/db/database.ts';
import { users } from '../auth/auth.schema.ts';
import { spaceMembers } from '../space/space.schema.ts';
import { workflows, workflowVersions } from './workflow.schema.ts';

export type WorkflowRepo = ReturnType<typeof createWorkflowRepo>;
/** A transaction or the database. */
export type Writer = Pick<Db, 'select' | 'insert' | 'update' | 'delete'>;

export interface ListFilter {
  groupId?: string | 'ungrouped';
  keyword?: string;
  effective?: boolean;
  locked?: boolean;
  lastResult?: string;
  page: number;
  pageSize: number;
}

const creator = alias(users, 'creator');
const locker = alias(users, 'locker');
const publisher = alias(users, 'publisher');
const { draft: _draft, ...summaryColumns } = getTableColumns(workflows);

const like = (keyword: string) => `%${keyword.replace(/[\\%_]/g, '\\$&')}%`;

/** Workflows and their published versions; every query is scoped by space. */
export function createWorkflowRepo(db: Db) {
  // The list never loads drafts: a draft may be megabytes, and a page holds up to a hundred rows.
  const summaries = (writer: Writer = db) =>
    writer
      .select({
        workflow: summaryColumns,
        creator: { id: creator.id, nickname: creator.nickname },
        membership: spaceMembers.userId,
        locker: { id: locker.id, nickname: locker.nickname },
        versionNumber: workflowVersions.number,
      })
      .from(workflows)
      .innerJoin(creator, eq(creator.id, workflows.createdBy))
      .leftJoin(
        spaceMembers,
        and(eq(spaceMembers.spaceId, workflows.spaceId), eq(spaceMembers.userId, workflows.createdBy)),
      )
      .leftJoin(locker, eq(locker.id, workflows.lockedBy))
      .leftJoin(workflowVersions, eq(workflowVersions.id, workflows.publishedVersionId));

  const versions = () =>
    db
      .select({
        version: {
          id: workflowVersions.id,
          workflowId: workflowVersions.workflowId,
          number: workflowVersions.number,
          note: workflowVersions.note,
          publishedAt: workflowVersions.publishedAt,
        },
        nodeCount: sql<number>`jsonb_array_length(${workflowVersions.graph}->'nodes')`.mapWith(Number),
        publisher: { id: publisher.id, nickname: publisher.nickname },
        membership: spaceMembers.userId,
        current: sql<boolean>`${workflows.publishedVersionId} = ${workflowVersions.id}`.mapWith(Boolean),
      })
      .from(workflowVersions)
      .innerJoin(workflows, eq(workflows.id, workflowVersions.workflowId))
      .innerJoin(publisher, eq(publisher.id, workflowVersions.publishedBy))
      .leftJoin(
        spaceMembers,
        and(eq(spaceMembers.spaceId, workflowVersions.spaceId), eq(spaceMembers.userId, workflowVersions.publishedBy)),
      );

  return {
    async find(spaceId: string, id: string, writer: Writer = db) {
      if (!isUuid(id)) return undefined;
      const [row] = await summaries(writer)
        .where(and(eq(workflows.id, id), eq(workflows.spaceId, spaceId)))
        .limit(1);
      return row;
    },

    async draftOf(id: string, writer: Writer = db) {
      const [row] = await writer
        .select({ draft: workflows.draft, revision: workflows.draftRevision, savedAt: workflows.draftSavedAt })
        .from(workflows)
        .where(eq(workflows.id, id))
        .limit(1);
      return row;
    },

    async lockedState(id: string, writer: Writer = db) {
      const [row] = await writer
        .select({ locked: workflows.locked })
        .from(workflows)
        .where(eq(workflows.id, id))
        .limit(1);
      return row;
    },

    /** The row, held until the transaction ends, so a publish and a draft save do not interleave. */
    async lockRow(writer: Writer, id: string) {
      const [row] = await writer.select().from(workflows).where(eq(workflows.id, id)).for('update').limit(1);
      return row;
    },

    async list(spaceId: string, filter: ListFilter) {
      // Like a group of another space, an id that cannot name a group matches nothing (and a
      // uuid column compared with arbitrary text is an error in PostgreSQL, not a miss).
      if (filter.groupId && filter.groupId !== 'ungrouped' && !isUuid(filter.groupId)) return { rows: [], total: 0 };
      const conditions: SQL[] = [eq(workflows.spaceId, spaceId)];
      if (filter.groupId === 'ungrouped') conditions.push(isNull(workflows.groupId));
      else if (filter.groupId) conditions.push(eq(workflows.groupId, filter.groupId));
      if (filter.keyword) conditions.push(ilike(workflows.name, like(filter.keyword)));
      if (filter.effective !== undefined) conditions.push(eq(workflows.effective, filter.effective));
      if (filter.locked !== undefined) conditions.push(eq(workflows.locked, filter.locked));
      if (filter.lastResult === 'never') conditions.push(isNull(workflows.lastRunResult));
      else if (filter.lastResult) conditions.push(eq(workflows.lastRunResult, filter.lastResult));
      const where = and(...conditions);
      const rows = await summaries()
        .where(where)
        .orderBy(desc(workflows.updatedAt), desc(workflows.id))
        .limit(filter.pageSize)
        .offset((filter.page - 1) * filter.pageSize);
      const [{ total }] = await db.select({ total: count() }).from(workflows).where(where);
      return { rows, total };
    },

    async insert(values: typeof workflows.$inferInsert, writer: Writer = db) {
      const [row] = await writer.insert(workflows).values(values).returning({ id: workflows.id });
      return row.id;
    },

    async update(id: string, values: Partial<typeof workflows.$inferInsert>, writer: Writer = db) {
      await writer.update(workflows).set(values).where(eq(workflows.id, id));
    },

    /**
     * A change the lock protects, written only if the workflow is still unlocked: the caller's lock
     * check came earlier, and an admin may have locked it since. false when nothing was written.
     */
    async updateUnlocked(id: string, values: Partial<typeof workflows.$inferInsert>, writer: Writer = db) {
      const rows = await writer
        .update(workflows)
        .set(values)
        .where(and(eq(workflows.id, id), eq(workflows.locked, false)))
        .returning({ id: workflows.id });
      return rows.length > 0;
    },

    /**
     * Writes the draft only if nobody saved since `base` and the workflow is still unlocked, in one
     * statement, so two saves from the same revision cannot both win. undefined when it did not.
     */
    async saveDraft(id: string, base: number, graph: WorkflowGraph, at: Date) {
      const [row] = await db
        .update(workflows)
        .set({ draft: graph, draftRevision: sql`${workflows.draftRevision} + 1`, draftSavedAt: at, updatedAt: at })
        .where(and(eq(workflows.id, id), eq(workflows.draftRevision, base), eq(workflows.locked, false)))
        .returning({ revision: workflows.draftRevision, savedAt: workflows.draftSavedAt });
      return row;
    },

    /** Deletes only if still unlocked, like updateUnlocked; false when nothing was deleted. */
    async removeUnlocked(id: string, writer: Writer = db) {
      const rows = await writer
        .delete(workflows)
        .where(and(eq(workflows.id, id), eq(workflows.locked, false)))
        .returning({ id: workflows.id });
      return rows.length > 0;
    },

    async nextVersionNumber(writer: Writer, workflowId: string) {
      const [row] = await writer
        .select({ n: max(workflowVersions.number) })
        .from(workflowVersions)
        .where(eq(workflowVersions.workflowId, workflowId));
      return (row?.n ?? 0) + 1;
    },

    async insertVersion(writer: Writer, values: typeof workflowVersions.$inferInsert) {
      const [row] = await writer.insert(workflowVersions).values(values).returning({ id: workflowVersions.id });
      return row.id;
    },

    async versions(workflowId: string) {
      return versions().where(eq(workflowVersions.workflowId, workflowId)).orderBy(desc(workflowVersions.number));
    },

    async version(spaceId: string, id: string) {
      if (!isUuid(id)) return undefined;
      const [row] = await versions()
        .where(and(eq(workflowVersions.id, id), eq(workflowVersions.spaceId, spaceId)))
        .limit(1);
      return row;
    },

    async versionGraph(id: string) {
      const [row] = await db
        .select({ graph: workflowVersions.graph })
        .from(workflowVersions)
        .where(eq(workflowVersions.id, id))
        .limit(1);
      return row?.graph;
    },
  };
}

export type SummaryRow = NonNullable<Awaited<ReturnType<WorkflowRepo['find']>>>;
export type VersionRow = NonNullable<Awaited<ReturnType<WorkflowRepo['version']>>>;
