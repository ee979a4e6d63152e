import type { WorkflowGroup } from '@athena/contract';
import { type AuthContext, authorize } from '../../platform/auth-guard.ts';
import type { Db } from '../../platform/db/database.ts';
import { AppError } from '../../platform/http/app-error.ts';
import { createGroupRepo, type GroupRow } from './group.repo.ts';

export type WorkflowGroupService = ReturnType<typeof createWorkflowGroupService>;

/**
 * Groups sort a space's workflows. Anyone who may create a workflow may create a group; renaming
 * and deleting follow the workflow rules (members their own). Deleting a group leaves its
 * workflows ungrouped, locked ones included: the group is not part of what a lock protects.
 */
export function createWorkflowGroupService(deps: { db: Db }) {
  const repo = createGroupRepo(deps.db);

  const toGroup = (row: GroupRow, workflowCount: number): WorkflowGroup => ({
    id: row.id,
    name: row.name,
    workflow_count: workflowCount,
    created_by: { id: row.createdBy },
    created_at: row.createdAt.toISOString(),
  });

  async function findForChange(ctx: AuthContext, id: string, action: 'workflow.edit' | 'workflow.delete') {
    const space = authorize(ctx, 'member.view');
    const row = await repo.find(space.id, id);
    if (!row) throw new AppError('WORKFLOW_GROUP_NOT_FOUND');
    authorize(ctx, action, { isOwner: row.createdBy === ctx.userId });
    return row;
  }

  return {
    /** A group id a workflow is put in must be this space's; null is "ungrouped". */
    async check(spaceId: string, id: string | null) {
      if (id !== null && !(await repo.find(spaceId, id))) throw new AppError('WORKFLOW_GROUP_NOT_FOUND');
      return id;
    },

    async list(ctx: AuthContext) {
      const space = authorize(ctx, 'member.view');
      const { rows, ungrouped } = await repo.list(space.id);
      return { items: rows.map((row) => toGroup(row.group, row.n)), ungrouped_count: ungrouped };
    },

    async create(ctx: AuthContext, name: string) {
      const space = authorize(ctx, 'workflow.create');
      return toGroup(await repo.insert({ spaceId: space.id, name, createdBy: ctx.userId }), 0);
    },

    async rename(ctx: AuthContext, id: string, name: string) {
      const group = await findForChange(ctx, id, 'workflow.edit');
      return toGroup(await repo.rename(group.id, name), await repo.countIn(group.id));
    },

    async remove(ctx: AuthContext, id: string) {
      const group = await findForChange(ctx, id, 'workflow.delete');
      await repo.remove(group.id);
    },
  };
}
