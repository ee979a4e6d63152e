import type { AuditAction } from '@athena/contract';
import type { Db } from '../../platform/db/database.ts';
import type { AuditRepo } from '../team/index.ts';

type WorkflowAuditAction = Extract<AuditAction, `workflow.${string}`>;

/**
 * Writes a team audit entry for a workflow change, in the caller's transaction when there is one,
 * so an entry exists exactly when the change does. The name is copied: the entry outlives the
 * workflow.
 */
export async function auditWorkflow(
  audit: AuditRepo,
  writer: Pick<Db, 'insert'>,
  event: {
    spaceId: string;
    actorId: string;
    action: WorkflowAuditAction;
    workflow: { id: string; name: string };
    details?: Record<string, string | number | boolean | null>;
  },
) {
  await audit.record(
    {
      spaceId: event.spaceId,
      actorId: event.actorId,
      action: event.action,
      details: { workflow_id: event.workflow.id, name: event.workflow.name, ...event.details },
    },
    writer,
  );
}
