import { and, asc, count, eq } from 'drizzle-orm';
import { type AuthContext, authorize } from '../../platform/auth-guard.ts';
import { isUuid } from '../../platform/crypto.ts';
import type { Db } from '../../platform/db/database.ts';
import { AppError } from '../../platform/http/app-error.ts';
import { knowledgeBases, knowledgeGroups } from './knowledge.schema.ts';

export type KnowledgeGroupService = ReturnType<typeof createKnowledgeGroupService>;
type GroupRow = typeof knowledgeGroups.$inferSelect;

/**
 * Groups sort a space's knowledge bases. Anyone who may create a base may create a group; renaming
 * and deleting follow the base rules (`knowledge.edit` / `knowledge.delete`: members their own).
 * Deleting a group leaves its bases ungrouped.
 */
export function createKnowledgeGroupService(deps: { db: Db }) {
  const { db } = deps;

  const toGroup = (row: GroupRow, knowledgeCount: number) => ({
    id: row.id,
    name: row.name,
    knowledge_count: knowledgeCount,
    created_by: { id: row.createdBy },
    created_at: row.createdAt.toISOString(),
  });

  async function find(spaceId: string, id: string) {
    if (!isUuid(id)) throw new AppError('NOT_FOUND');
    const [row] = await db
      .select()
      .from(knowledgeGroups)
      .where(and(eq(knowledgeGroups.id, id), eq(knowledgeGroups.spaceId, spaceId)))
      .limit(1);
    if (!row) throw new AppError('NOT_FOUND');
    return row;
  }

  async function countIn(groupId: string) {
    const [row] = await db.select({ n: count() }).from(knowledgeBases).where(eq(knowledgeBases.groupId, groupId));
    return row?.n ?? 0;
  }

  async function findForChange(ctx: AuthContext, id: string, action: 'knowledge.edit' | 'knowledge.delete') {
    const space = authorize(ctx, 'member.view');
    const row = await find(space.id, id);
    authorize(ctx, action, { isOwner: row.createdBy === ctx.userId });
    return row;
  }

  return {
    find,

    async list(ctx: AuthContext) {
      const space = authorize(ctx, 'member.view');
      const rows = await db
        .select({ group: knowledgeGroups, n: count(knowledgeBases.id) })
        .from(knowledgeGroups)
        .leftJoin(knowledgeBases, eq(knowledgeBases.groupId, knowledgeGroups.id))
        .where(eq(knowledgeGroups.spaceId, space.id))
        .groupBy(knowledgeGroups.id)
        .orderBy(asc(knowledgeGroups.createdAt));
      return { items: rows.map((row) => toGroup(row.group, row.n)) };
    },

    async create(ctx: AuthContext, name: string) {
      const space = authorize(ctx, 'knowledge.create');
      const [row] = await db
        .insert(knowledgeGroups)
        .values({ spaceId: space.id, name, createdBy: ctx.userId })
        .returning();
      return toGroup(row, 0);
    },

    async rename(ctx: AuthContext, id: string, name: string) {
      const group = await findForChange(ctx, id, 'knowledge.edit');
      const [row] = await db.update(knowledgeGroups).set({ name }).where(eq(knowledgeGroups.id, group.id)).returning();
      return toGroup(row, await countIn(group.id));
    },

    /** The bases stay, ungrouped (the foreign key sets their group to null). */
    async remove(ctx: AuthContext, id: string) {
      const group = await findForChange(ctx, id, 'knowledge.delete');
      await db.delete(knowledgeGroups).where(eq(knowledgeGroups.id, group.id));
    },
  };
}
