import { and, asc, eq } from 'drizzle-orm';
import { isUuid } from '../../platform/crypto.ts';
import type { Db } from '../../platform/db/database.ts';
import { users } from '../auth/auth.schema.ts';
import { workflowTemplates } from './workflow.schema.ts';

export type TemplateRow = Awaited<ReturnType<ReturnType<typeof createTemplateRepo>['list']>>[number];

/** A team's own templates; the built-in ones live in code (templates/). */
export function createTemplateRepo(db: Db) {
  const rows = () =>
    db
      .select({ template: workflowTemplates, creator: { id: users.id, nickname: users.nickname } })
      .from(workflowTemplates)
      .innerJoin(users, eq(users.id, workflowTemplates.createdBy));

  return {
    list: (spaceId: string) =>
      rows().where(eq(workflowTemplates.spaceId, spaceId)).orderBy(asc(workflowTemplates.createdAt)),

    async find(spaceId: string, id: string) {
      if (!isUuid(id)) return undefined;
      const [row] = await rows()
        .where(and(eq(workflowTemplates.id, id), eq(workflowTemplates.spaceId, spaceId)))
        .limit(1);
      return row;
    },

    async insert(values: typeof workflowTemplates.$inferInsert) {
      const [row] = await db.insert(workflowTemplates).values(values).returning({ id: workflowTemplates.id });
      return row.id;
    },

    async remove(id: string) {
      await db.delete(workflowTemplates).where(eq(workflowTemplates.id, id));
    },
  };
}
