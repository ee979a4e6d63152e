import { and, desc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.ts';
import { namesById } from '../../platform/db/owned-rows.ts';
import { workflows, workflowVersions } from './workflow.schema.ts';

/** What other modules may read of workflows, each read scoped by space (front door: `workflow.queries`). */
export function createWorkflowQueries(db: Db) {
  return {
    /** Workflow names by id, as they are now. */
    workflowNames: (ids: string[]) => namesById(db, workflows, ids),

    /**
     * The team's workflows (or these of them), last changed first, as a tool that runs them needs
     * them: whether each is effective or locked, and its effective version's graph.
     */
    workflowsForTools: (spaceId: string, ids?: string[]) =>
      db
        .select({
          id: workflows.id,
          name: workflows.name,
          description: workflows.description,
          effective: workflows.effective,
          locked: workflows.locked,
          graph: workflowVersions.graph,
        })
        .from(workflows)
        .leftJoin(workflowVersions, eq(workflowVersions.id, workflows.publishedVersionId))
        .where(and(eq(workflows.spaceId, spaceId), ids ? inArray(workflows.id, ids) : undefined))
        .orderBy(desc(workflows.updatedAt)),
  };
}

export type WorkflowQueries = ReturnType<typeof createWorkflowQueries>;
