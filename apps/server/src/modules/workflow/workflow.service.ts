import {
  can,
  KEPT_SECRET,
  type Language,
  WORKFLOW_LIMITS,
  type WorkflowDetail,
  type WorkflowGraph,
  workflowGraphSchema,
} from '@athena/contract';
import { type AuthContext, authorize } from '../../platform/auth-guard.ts';
import type { Db } from '../../platform/db/database.ts';
import { AppError } from '../../platform/http/app-error.ts';
import type { AuditRepo } from '../team/index.ts';
import { type GraphReferences, graphProblems } from './graph-check.ts';
import type { WorkflowGroupService } from './group.service.ts';
import { toSummary } from './workflow.presenters.ts';
import { createWorkflowRepo, type ListFilter, type SummaryRow, type Writer } from './workflow.repo.ts';
import { createWorkflowAccess, documentBytes } from './workflow-access.ts';
import { auditWorkflow } from './workflow-audit.ts';

export type WorkflowService = ReturnType<typeof createWorkflowService>;

export interface WorkflowFields {
  name: string;
  description: string;
  group_id: string | null;
}

const BLANK_TITLES: Record<Language, { start: string; end: string }> = {
  'zh-CN': { start: '开始', end: '结束' },
  'zh-TW': { start: '開始', end: '結束' },
  en: { start: 'Start', end: 'End' },
};

/** What a blank workflow starts as: a start node joined to an end node, titled in the creator's language. */
export const blankGraph = (language: Language): WorkflowGraph =>
  workflowGraphSchema.parse({
    nodes: [
      {
        id: 'start',
        type: 'start',
        title: BLANK_TITLES[language].start,
        position: { x: 0, y: 0 },
        data: { inputs: [] },
      },
      { id: 'end', type: 'end', title: BLANK_TITLES[language].end, position: { x: 400, y: 0 }, data: { outputs: [] } },
    ],
    edges: [{ id: 'start-end', source: 'start', target: 'end' }],
  });

/** The copy of a graph that leaves the workflow (export, templates): secrets keep their names, not their values. */
export const withoutSecrets = (graph: WorkflowGraph): WorkflowGraph => ({
  ...graph,
  environment: graph.environment.map((variable) =>
    variable.type === 'secret' ? { ...variable, value: '' } : variable,
  ),
});

/** The graph as a browser sees it: a saved secret's value is KEPT_SECRET, never the value. */
export const maskedSecrets = (graph: WorkflowGraph): WorkflowGraph => ({
  ...graph,
  environment: graph.environment.map((variable) =>
    variable.type === 'secret' && variable.value !== '' ? { ...variable, value: KEPT_SECRET } : variable,
  ),
});

/** A graph coming back from a browser: KEPT_SECRET takes the value saved under that name. */
export const keptSecrets = (graph: WorkflowGraph, saved: WorkflowGraph): WorkflowGraph => ({
  ...graph,
  environment: graph.environment.map((variable) => {
    if (variable.type !== 'secret' || variable.value !== KEPT_SECRET) return variable;
    const before = saved.environment.find((old) => old.name === variable.name && old.type === 'secret');
    return { ...variable, value: before?.value ?? '' };
  }),
});

export const assertDocumentSize = (graph: WorkflowGraph) => {
  if (documentBytes(graph) > WORKFLOW_LIMITS.maxDocumentBytes) throw new AppError('WORKFLOW_TOO_LARGE');
};

/**
 * Workflows of a space: listing and filtering, creating (blank, from a template, from an import),
 * renaming, deleting, copying, locking and switching effective. Drafts and versions are in
 * draft.service.ts.
 */
export function createWorkflowService(deps: {
  db: Db;
  /** The team's audit log: creating, renaming, deleting and locking a workflow are recorded. */
  audit: AuditRepo;
  groups: WorkflowGroupService;
  now: () => Date;
  /** A built-in or team template's graph, for creating from it; undefined when there is none. */
  templateGraph: (spaceId: string, id: string, language: Language) => Promise<WorkflowGraph | undefined>;
  /** What a graph names that other modules own (graph-check.ts). */
  references: GraphReferences;
}) {
  const { db, groups, now } = deps;
  const repo = createWorkflowRepo(db);
  const access = createWorkflowAccess(repo);

  async function detailOf(ctx: AuthContext, row: SummaryRow): Promise<WorkflowDetail> {
    const draft = await repo.draftOf(row.workflow.id);
    if (!draft) throw new AppError('WORKFLOW_NOT_FOUND');
    return {
      ...toSummary(row, ctx),
      draft: maskedSecrets(draft.draft),
      draft_revision: draft.revision,
      draft_saved_at: draft.savedAt.toISOString(),
      problems: await graphProblems(deps.references, db, row.workflow.spaceId, draft.draft, row.workflow.id),
    };
  }

  async function reload(ctx: AuthContext, id: string) {
    return (await access.load(ctx, id)).row;
  }

  /** Why a write guarded by the lock changed nothing: locked since the check, or deleted since. */
  async function refusal(id: string, writer: Writer = db): Promise<never> {
    const current = await repo.lockedState(id, writer);
    throw new AppError(current ? 'WORKFLOW_LOCKED' : 'WORKFLOW_NOT_FOUND');
  }

  /** A new workflow of the caller's in their space, with this graph as its draft. */
  async function createWith(ctx: AuthContext, fields: WorkflowFields, graph: WorkflowGraph) {
    const space = authorize(ctx, 'workflow.create');
    assertDocumentSize(graph);
    const groupId = await groups.check(space.id, fields.group_id);
    const id = await db.transaction(async (tx) => {
      const created = await repo.insert(
        {
          spaceId: space.id,
          groupId,
          name: fields.name,
          description: fields.description,
          draft: graph,
          createdBy: ctx.userId,
        },
        tx,
      );
      await auditWorkflow(deps.audit, tx, {
        spaceId: space.id,
        actorId: ctx.userId,
        action: 'workflow.create',
        workflow: { id: created, name: fields.name },
      });
      return created;
    });
    return detailOf(ctx, await reload(ctx, id));
  }

  return {
    access,
    repo,
    detailOf,
    createWith,

    async list(ctx: AuthContext, filter: ListFilter) {
      const space = authorize(ctx, 'member.view');
      const { rows, total } = await repo.list(space.id, filter);
      return { items: rows.map((row) => toSummary(row, ctx)), total };
    },

    async detail(ctx: AuthContext, id: string) {
      return detailOf(ctx, (await access.load(ctx, id)).row);
    },

    async create(ctx: AuthContext, fields: WorkflowFields & { template_id?: string }) {
      const space = authorize(ctx, 'workflow.create');
      let graph = blankGraph(ctx.language);
      if (fields.template_id) {
        const found = await deps.templateGraph(space.id, fields.template_id, ctx.language);
        if (!found) throw new AppError('WORKFLOW_TEMPLATE_NOT_FOUND');
        graph = found;
      }
      return createWith(ctx, fields, graph);
    },

    async update(ctx: AuthContext, id: string, fields: WorkflowFields) {
      const { space, row } = await access.forChange(ctx, id, 'workflow.edit');
      const groupId = await groups.check(space.id, fields.group_id);
      const written = await repo.updateUnlocked(row.workflow.id, {
        name: fields.name,
        description: fields.description,
        groupId,
        updatedAt: now(),
      });
      if (!written) await refusal(row.workflow.id);
      return toSummary(await reload(ctx, id), ctx);
    },

    async remove(ctx: AuthContext, id: string) {
      const { space, row } = await access.forChange(ctx, id, 'workflow.delete');
      await db.transaction(async (tx) => {
        if (!(await repo.removeUnlocked(row.workflow.id, tx))) await refusal(row.workflow.id, tx);
        await auditWorkflow(deps.audit, tx, {
          spaceId: space.id,
          actorId: ctx.userId,
          action: 'workflow.delete',
          workflow: { id: row.workflow.id, name: row.workflow.name },
        });
      });
    },

    /**
     * Anyone who may create may copy: the copy is theirs, unpublished and unlocked, in the same group.
     * Secrets' values come along only for whoever may edit the original (the editor's rule): anyone
     * else would own a copy that can send them anywhere, so theirs has the names with empty values.
     */
    async duplicate(ctx: AuthContext, id: string) {
      const { space, row } = await access.load(ctx, id);
      const draft = await repo.draftOf(row.workflow.id);
      if (!draft) throw new AppError('WORKFLOW_NOT_FOUND');
      const mayEdit = can(space.role, 'workflow.edit', { isOwner: row.workflow.createdBy === ctx.userId });
      const name = `${row.workflow.name} (copy)`.slice(0, 50);
      return createWith(
        ctx,
        { name, description: row.workflow.description, group_id: row.workflow.groupId },
        mayEdit ? draft.draft : withoutSecrets(draft.draft),
      );
    },

    async setLocked(ctx: AuthContext, id: string, locked: boolean) {
      const { space, row } = await access.forLock(ctx, id);
      if (row.workflow.locked !== locked) {
        const at = now();
        await db.transaction(async (tx) => {
          await repo.update(
            row.workflow.id,
            { locked, lockedBy: locked ? ctx.userId : null, lockedAt: locked ? at : null },
            tx,
          );
          await auditWorkflow(deps.audit, tx, {
            spaceId: space.id,
            actorId: ctx.userId,
            action: locked ? 'workflow.lock' : 'workflow.unlock',
            workflow: { id: row.workflow.id, name: row.workflow.name },
          });
        });
      }
      return toSummary(await reload(ctx, id), ctx);
    },

    /** Only a published workflow can be effective: there must be a version to run. */
    async setEffective(ctx: AuthContext, id: string, effective: boolean) {
      const { space, row } = await access.forChange(ctx, id, 'workflow.publish');
      if (effective && !row.workflow.publishedVersionId) throw new AppError('WORKFLOW_NOT_PUBLISHED');
      if (row.workflow.effective !== effective) {
        await db.transaction(async (tx) => {
          const written = await repo.updateUnlocked(row.workflow.id, { effective, updatedAt: now() }, tx);
          if (!written) await refusal(row.workflow.id, tx);
          await auditWorkflow(deps.audit, tx, {
            spaceId: space.id,
            actorId: ctx.userId,
            action: 'workflow.effective',
            workflow: { id: row.workflow.id, name: row.workflow.name },
            details: { effective },
          });
        });
      }
      return toSummary(await reload(ctx, id), ctx);
    },
  };
}
