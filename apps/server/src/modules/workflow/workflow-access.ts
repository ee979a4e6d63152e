import { can } from '@athena/contract';
import { type AuthContext, authorize } from '../../platform/auth-guard.ts';
import { AppError } from '../../platform/http/app-error.ts';
import type { WorkflowRepo, Writer } from './workflow.repo.ts';

export type WorkflowAccess = ReturnType<typeof createWorkflowAccess>;
type ChangeAction = 'workflow.edit' | 'workflow.delete' | 'workflow.publish';

/**
 * Finding a workflow for a caller: scoped by their space (another team's id reads as missing),
 * then the permission, then the lock. A locked workflow refuses every change, from anyone, admins
 * included, until it is unlocked; reading, running, exporting and copying it stay allowed.
 */
export function createWorkflowAccess(repo: WorkflowRepo) {
  async function load(ctx: AuthContext, id: string, writer?: Writer) {
    const space = authorize(ctx, 'member.view');
    const row = await repo.find(space.id, id, writer);
    if (!row) throw new AppError('WORKFLOW_NOT_FOUND');
    return { space, row };
  }

  return {
    load,

    async forChange(ctx: AuthContext, id: string, action: ChangeAction, writer?: Writer) {
      const found = await load(ctx, id, writer);
      authorize(ctx, action, { isOwner: found.row.workflow.createdBy === ctx.userId });
      if (found.row.workflow.locked) throw new AppError('WORKFLOW_LOCKED');
      return found;
    },

    /** Locking has its own refusal, so the UI can say who may lock instead of a bare "forbidden". */
    async forLock(ctx: AuthContext, id: string) {
      const found = await load(ctx, id);
      const isOwner = found.row.workflow.createdBy === ctx.userId;
      if (!can(found.space.role, 'workflow.lock', { isOwner })) throw new AppError('WORKFLOW_LOCK_FORBIDDEN');
      return found;
    },
  };
}

/**
 * The bytes a document takes as JSON: the limit is on what is stored and sent, not on node counts
 * alone. Free-form parts (a JSON schema, default outputs) may nest deeper than JSON.stringify can
 * walk; such a document counts as over any limit rather than failing the request.
 */
export function documentBytes(value: unknown) {
  try {
    return Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8');
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}
