import { can, type RunResult, type WorkflowSummary, type WorkflowVersion } from '@athena/contract';
import type { AuthContext } from '../../platform/auth-guard.ts';
import type { SummaryRow, VersionRow } from './workflow.repo.ts';

const iso = (at: Date | null) => (at ? at.toISOString() : null);

/** A workflow as the list and detail show it, with what the caller may do to it. */
export function toSummary(row: SummaryRow, ctx: AuthContext): WorkflowSummary {
  const { workflow, creator, membership, locker, versionNumber } = row;
  const role = ctx.space?.role ?? 3;
  const isOwner = workflow.createdBy === ctx.userId;
  return {
    id: workflow.id,
    name: workflow.name,
    description: workflow.description,
    group_id: workflow.groupId,
    locked: workflow.locked,
    locked_by: workflow.locked && locker ? { id: locker.id, nickname: locker.nickname } : null,
    locked_at: workflow.locked ? iso(workflow.lockedAt) : null,
    effective: workflow.effective,
    published_version: versionNumber ?? null,
    last_run:
      workflow.lastRunResult && workflow.lastRunAt
        ? { result: workflow.lastRunResult as RunResult, at: workflow.lastRunAt.toISOString() }
        : null,
    // Removing a member keeps their workflows; the list says they have left.
    created_by: { id: creator.id, nickname: creator.nickname, former_member: membership === null },
    created_at: workflow.createdAt.toISOString(),
    updated_at: workflow.updatedAt.toISOString(),
    can_edit: can(role, 'workflow.edit', { isOwner }),
    can_lock: can(role, 'workflow.lock', { isOwner }),
  };
}

export function toVersion(row: VersionRow): WorkflowVersion {
  const { version, publisher, membership } = row;
  return {
    id: version.id,
    workflow_id: version.workflowId,
    number: version.number,
    note: version.note,
    current: row.current,
    node_count: row.nodeCount,
    published_by: { id: publisher.id, nickname: publisher.nickname, former_member: membership === null },
    published_at: version.publishedAt.toISOString(),
  };
}
