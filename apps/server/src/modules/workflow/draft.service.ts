import type { WorkflowGraph } from '@athena/contract';
import { type AuthContext, authorize } from '../../platform/auth-guard.ts';
import type { Db } from '../../platform/db/database.ts';
import { AppError } from '../../platform/http/app-error.ts';
import type { AuditRepo } from '../team/index.ts';
import { type GraphReferences, graphProblems, invalidGraph } from './graph-check.ts';
import { toVersion } from './workflow.presenters.ts';
import { assertDocumentSize, keptSecrets, maskedSecrets, type WorkflowService } from './workflow.service.ts';
import { auditWorkflow } from './workflow-audit.ts';

export type DraftService = ReturnType<typeof createDraftService>;

/**
 * The draft and the published versions. A draft save names the revision it started from and wins
 * only if nobody saved since (one UPDATE … WHERE revision = base), so a second tab gets
 * WORKFLOW_DRAFT_CONFLICT instead of silently overwriting. Publishing freezes the draft as the next
 * numbered version and makes it the effective one.
 */
export function createDraftService(deps: {
  db: Db;
  audit: AuditRepo;
  workflows: WorkflowService;
  now: () => Date;
  references: GraphReferences;
}) {
  const { db, now } = deps;
  const { access, repo } = deps.workflows;

  /** Why a compare-and-set did not write: locked in between, or someone else saved first. */
  async function refusal(id: string): Promise<never> {
    const current = await repo.lockedState(id);
    if (!current) throw new AppError('WORKFLOW_NOT_FOUND');
    throw new AppError(current.locked ? 'WORKFLOW_LOCKED' : 'WORKFLOW_DRAFT_CONFLICT');
  }

  async function writeDraft(id: string, spaceId: string, base: number, graph: WorkflowGraph) {
    assertDocumentSize(graph);
    const saved = await repo.saveDraft(id, base, graph, now());
    if (!saved) return refusal(id);
    return {
      revision: saved.revision,
      saved_at: saved.savedAt.toISOString(),
      problems: await graphProblems(deps.references, db, spaceId, graph, id),
    };
  }

  /** A published version of a workflow in the caller's space (another team's reads as missing). */
  async function versionFor(ctx: AuthContext, id: string) {
    const space = authorize(ctx, 'member.view');
    const version = await repo.version(space.id, id);
    if (!version) throw new AppError('WORKFLOW_NOT_FOUND');
    return version;
  }

  return {
    async save(ctx: AuthContext, id: string, graph: WorkflowGraph, base: number) {
      const { space, row } = await access.forChange(ctx, id, 'workflow.edit');
      // Read before the compare-and-set: if another save lands in between, the write conflicts.
      const saved = await repo.draftOf(row.workflow.id);
      return writeDraft(row.workflow.id, space.id, base, saved ? keptSecrets(graph, saved.draft) : graph);
    },

    async publish(ctx: AuthContext, id: string, note: string) {
      const { space, row } = await access.forChange(ctx, id, 'workflow.publish');
      const versionId = await db.transaction(async (tx) => {
        // Held to the end: a save or another publish waits, so what is checked is what is frozen.
        const current = await repo.lockRow(tx, row.workflow.id);
        if (!current) throw new AppError('WORKFLOW_NOT_FOUND');
        if (current.locked) throw new AppError('WORKFLOW_LOCKED');
        const problems = await graphProblems(deps.references, tx, space.id, current.draft, current.id);
        if (problems.length > 0) throw invalidGraph(problems);
        const number = await repo.nextVersionNumber(tx, current.id);
        const at = now();
        const created = await repo.insertVersion(tx, {
          workflowId: current.id,
          spaceId: space.id,
          number,
          graph: current.draft,
          note,
          publishedBy: ctx.userId,
          publishedAt: at,
        });
        await repo.update(current.id, { publishedVersionId: created, effective: true, updatedAt: at }, tx);
        await auditWorkflow(deps.audit, tx, {
          spaceId: space.id,
          actorId: ctx.userId,
          action: 'workflow.publish',
          workflow: { id: current.id, name: current.name },
          details: { version: number },
        });
        return created;
      });
      const version = await repo.version(space.id, versionId);
      if (!version) throw new AppError('WORKFLOW_NOT_FOUND');
      return toVersion(version);
    },

    async versions(ctx: AuthContext, workflowId: string) {
      const { row } = await access.load(ctx, workflowId);
      return { items: (await repo.versions(row.workflow.id)).map(toVersion) };
    },

    async version(ctx: AuthContext, id: string) {
      const version = await versionFor(ctx, id);
      const graph = await repo.versionGraph(version.version.id);
      if (!graph) throw new AppError('WORKFLOW_NOT_FOUND');
      return { ...toVersion(version), graph: maskedSecrets(graph) };
    },

    /** The version's graph becomes the draft (a normal draft save: it conflicts like one). */
    async restore(ctx: AuthContext, id: string, base: number) {
      const version = await versionFor(ctx, id);
      const { space, row } = await access.forChange(ctx, version.version.workflowId, 'workflow.edit');
      const graph = await repo.versionGraph(version.version.id);
      if (!graph) throw new AppError('WORKFLOW_NOT_FOUND');
      await writeDraft(row.workflow.id, space.id, base, graph);
      return deps.workflows.detail(ctx, row.workflow.id);
    },
  };
}
