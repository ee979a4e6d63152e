import { can, type WorkflowGroup, type WorkflowSummary } from '@athena/contract';
import { useUserStore } from '../../stores/user-store.ts';

/** Who may create workflows and manage groups (docs/permissions.md: members only the groups they made). */
export function useWorkflowGroupPermissions() {
  const team = useUserStore((s) => s.team);
  const userId = useUserStore((s) => s.userinfo?.id);
  const mine = (group: Pick<WorkflowGroup, 'created_by'>) => group.created_by.id === userId;
  return {
    create: team ? can(team.role, 'workflow.create') : false,
    rename: (group: Pick<WorkflowGroup, 'created_by'>) =>
      team ? can(team.role, 'workflow.edit', { isOwner: mine(group) }) : false,
    delete: (group: Pick<WorkflowGroup, 'created_by'>) =>
      team ? can(team.role, 'workflow.delete', { isOwner: mine(group) }) : false,
  };
}

export type WorkflowRights = ReturnType<typeof workflowRights>;

/**
 * What a person may do with one workflow, from the server's `can_edit` / `can_lock`. A locked
 * workflow refuses every change, from anyone, until it is unlocked (requirements.md, Roles), so
 * the changes are offered but disabled with the reason while it is locked.
 */
export function workflowRights(
  workflow: Pick<WorkflowSummary, 'can_edit' | 'can_lock' | 'locked'>,
  canCreate: boolean,
) {
  const change = workflow.can_edit;
  return {
    /** Shown at all (rename, move, effective, delete). */
    change,
    /** Enabled: shown and not locked. */
    changeNow: change && !workflow.locked,
    lock: workflow.can_lock,
    /** Copies and templates are new things of the caller's, allowed while locked. */
    copy: canCreate,
  };
}
