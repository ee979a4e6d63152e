import { and, asc, count, eq, isNull } from 'drizzle-orm';
import { isUuid } from '../../platform/crypto.ts';
import type { Db } from '../../platform/db/database.ts';
import { workflowGroups, workflows } from './workflow.schema.ts';

export type GroupRow = typeof workflowGroups.$inferSelect;

export function createGroupRepo(db: Db) {
  return {
    async find(spaceId: string, id: string) {
      if (!isUuid(id)) return undefined;
      const [row] = await db
        .select()
        .from(workflowGroups)
        .where(and(eq(workflowGroups.id, id), eq(workflowGroups.spaceId, spaceId)))
        .limit(1);
      return row;
    },

    async list(spaceId: string) {
      const rows = await db
        .select({ group: workflowGroups, n: count(workflows.id) })
        .from(workflowGroups)
        .leftJoin(workflows, eq(workflows.groupId, workflowGroups.id))
        .where(eq(workflowGroups.spaceId, spaceId))
        .groupBy(workflowGroups.id)
        .orderBy(asc(workflowGroups.createdAt));
      const [ungrouped] = await db
        .select({ n: count() })
        .from(workflows)
        .where(and(eq(workflows.spaceId, spaceId), isNull(workflows.groupId)));
      return { rows, ungrouped: ungrouped?.n ?? 0 };
    },

    async countIn(groupId: string) {
      const [row] = await db.select({ n: count() }).from(workflows).where(eq(workflows.groupId, groupId));
      return row?.n ?? 0;
    },

    async insert(values: typeof workflowGroups.$inferInsert) {
      const [row] = await db.insert(workflowGroups).values(values).returning();
      return row;
    },

    async rename(id: string, name: string) {
      const [row] = await db.update(workflowGroups).set({ name }).where(eq(workflowGroups.id, id)).returning();
      return row;
    },

    /** The foreign key sets the group of its workflows to null: they become ungrouped. */
    async remove(id: string) {
      await db.delete(workflowGroups).where(eq(workflowGroups.id, id));
    },
  };
}
