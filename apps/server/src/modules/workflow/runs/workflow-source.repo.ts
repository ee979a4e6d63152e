import type { RunResult, WorkflowGraph } from '@athena/contract';
import { and, eq, isNull, lte, or } from 'drizzle-orm';
import { isUuid } from '../../../platform/crypto.ts';
import type { Db } from '../../../platform/db/database.ts';
import { AppError } from '../../../platform/http/app-error.ts';
import { workflows, workflowVersions } from '../workflow.schema.ts';

/** The graph a run executes, and which version it is (null: the draft). */
export interface RunnableGraph {
  workflowId: string;
  versionId: string | null;
  graph: WorkflowGraph;
}

/** How many published versions' graphs a process keeps (a version never changes once published). */
const VERSION_CACHE_SIZE = 500;

/**
 * What runs read of workflows: the draft, a version, the effective one; and where the last run lands.
 * The workflow's row is read on every run, so a deleted or moved workflow stops running at once;
 * the draft is read only to run the draft, and a version's graph once per process.
 */
export function createWorkflowSource(db: Db) {
  const versions = new Map<string, { workflowId: string; graph: WorkflowGraph }>();

  async function findWorkflow(spaceId: string, workflowId: string) {
    if (!isUuid(workflowId)) throw new AppError('WORKFLOW_NOT_FOUND');
    const [row] = await db
      .select({ id: workflows.id, effective: workflows.effective, publishedVersionId: workflows.publishedVersionId })
      .from(workflows)
      .where(and(eq(workflows.spaceId, spaceId), eq(workflows.id, workflowId)))
      .limit(1);
    if (!row) throw new AppError('WORKFLOW_NOT_FOUND');
    return row;
  }

  async function draftOf(spaceId: string, workflowId: string) {
    if (!isUuid(workflowId)) throw new AppError('WORKFLOW_NOT_FOUND');
    const [row] = await db
      .select({ draft: workflows.draft })
      .from(workflows)
      .where(and(eq(workflows.spaceId, spaceId), eq(workflows.id, workflowId)))
      .limit(1);
    if (!row) throw new AppError('WORKFLOW_NOT_FOUND');
    return row.draft;
  }

  async function versionGraph(workflowId: string, versionId: string) {
    if (!isUuid(versionId)) throw new AppError('NOT_FOUND');
    const cached = versions.get(versionId);
    if (cached) {
      if (cached.workflowId !== workflowId) throw new AppError('NOT_FOUND');
      return cached.graph;
    }
    const [version] = await db
      .select({ graph: workflowVersions.graph })
      .from(workflowVersions)
      .where(and(eq(workflowVersions.workflowId, workflowId), eq(workflowVersions.id, versionId)))
      .limit(1);
    if (!version) throw new AppError('NOT_FOUND');
    if (versions.size >= VERSION_CACHE_SIZE) versions.delete(versions.keys().next().value as string);
    versions.set(versionId, { workflowId, graph: version.graph });
    return version.graph;
  }

  return {
    /** The saved draft, or one published version of the workflow. */
    async forTestRun(spaceId: string, workflowId: string, versionId: string | null): Promise<RunnableGraph> {
      if (!versionId) return { workflowId, versionId: null, graph: await draftOf(spaceId, workflowId) };
      await findWorkflow(spaceId, workflowId);
      return { workflowId, versionId, graph: await versionGraph(workflowId, versionId) };
    },

    /** Whether the workflow is the space's (WORKFLOW_NOT_FOUND otherwise), without reading its draft. */
    async check(spaceId: string, workflowId: string) {
      await findWorkflow(spaceId, workflowId);
    },

    /** The effective version: what the API, triggers and sub-workflow nodes run. */
    async effective(spaceId: string, workflowId: string): Promise<RunnableGraph> {
      const workflow = await findWorkflow(spaceId, workflowId);
      if (!workflow.effective || !workflow.publishedVersionId) throw new AppError('WORKFLOW_NOT_EFFECTIVE');
      const versionId = workflow.publishedVersionId;
      return { workflowId, versionId, graph: await versionGraph(workflowId, versionId) };
    },

    /** The list shows each workflow's latest result; an older run finishing late does not overwrite it. */
    async recordLastRun(workflowId: string, result: RunResult, startedAt: Date) {
      await db
        .update(workflows)
        .set({ lastRunResult: result, lastRunAt: startedAt })
        .where(and(eq(workflows.id, workflowId), or(isNull(workflows.lastRunAt), lte(workflows.lastRunAt, startedAt))));
    },
  };
}
export type WorkflowSource = ReturnType<typeof createWorkflowSource>;
