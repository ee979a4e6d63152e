import { can, type Language, type WorkflowTemplate } from '@athena/contract';
import { type AuthContext, authorize } from '../../platform/auth-guard.ts';
import type { Db } from '../../platform/db/database.ts';
import { AppError } from '../../platform/http/app-error.ts';
import { createTemplateRepo, type TemplateRow } from './template.repo.ts';
import { BUILTIN_TEMPLATES, builtinGraph, builtinInLanguage } from './templates/index.ts';
import { type WorkflowService, withoutSecrets } from './workflow.service.ts';

export type TemplateService = ReturnType<typeof createTemplateService>;

/**
 * Templates: the built-in ones (in the caller's language) and those a team saved from its
 * workflows. Any member may save one, from any workflow they can read, locked ones included;
 * deleting follows the workflow rules (members their own).
 */
export function createTemplateService(deps: { db: Db; workflows: WorkflowService }) {
  const repo = createTemplateRepo(deps.db);

  const toTemplate = ({ template, creator }: TemplateRow, ctx: AuthContext): WorkflowTemplate => ({
    id: template.id,
    builtin: false,
    name: template.name,
    description: template.description,
    category: 'team',
    node_count: template.graph.nodes.length,
    graph: template.graph,
    created_by: { id: creator.id, nickname: creator.nickname },
    can_delete: can(ctx.space?.role ?? 3, 'workflow.delete', { isOwner: template.createdBy === ctx.userId }),
  });

  return {
    /** The graph to create a workflow from: a built-in template's (in the creator's language), or one of this space's. */
    async graphOf(spaceId: string, id: string, language: Language) {
      return builtinGraph(id, language) ?? (await repo.find(spaceId, id))?.template.graph;
    },

    async list(ctx: AuthContext) {
      const space = authorize(ctx, 'member.view');
      const builtin = BUILTIN_TEMPLATES.map((template) => builtinInLanguage(template, ctx.language));
      const own = (await repo.list(space.id)).map((row) => toTemplate(row, ctx));
      return { items: [...builtin, ...own] };
    },

    async save(ctx: AuthContext, fields: { workflow_id: string; name: string; description: string }) {
      const space = authorize(ctx, 'workflow.create');
      const { row } = await deps.workflows.access.load(ctx, fields.workflow_id);
      const draft = await deps.workflows.repo.draftOf(row.workflow.id);
      if (!draft) throw new AppError('WORKFLOW_NOT_FOUND');
      const id = await repo.insert({
        spaceId: space.id,
        name: fields.name,
        description: fields.description,
        graph: withoutSecrets(draft.draft),
        createdBy: ctx.userId,
      });
      const saved = await repo.find(space.id, id);
      if (!saved) throw new AppError('WORKFLOW_TEMPLATE_NOT_FOUND');
      return toTemplate(saved, ctx);
    },

    async remove(ctx: AuthContext, id: string) {
      const space = authorize(ctx, 'member.view');
      const found = await repo.find(space.id, id);
      if (!found) throw new AppError('WORKFLOW_TEMPLATE_NOT_FOUND');
      authorize(ctx, 'workflow.delete', { isOwner: found.template.createdBy === ctx.userId });
      await repo.remove(found.template.id);
    },
  };
}
