import type { AppModule, PlatformDeps } from '../../platform/module.ts';
import { createDraftService } from './draft.service.ts';
import { createWorkflowGroupService } from './group.service.ts';
import { createTemplateService } from './template.service.ts';
import { createTransferService } from './transfer.service.ts';
import { registerWorkflowRoutes } from './workflow.routes.ts';
import { createWorkflowService } from './workflow.service.ts';

export type WorkflowModule = ReturnType<typeof createWorkflowModule>;

/**
 * Workflows: groups, drafts with revisions, published versions, effective and locked states,
 * templates, and export/import of our own file. docs/workflows.md describes them.
 */
export function createWorkflowModule(deps: PlatformDeps) {
  const { db, now } = deps;
  const groups = createWorkflowGroupService({ db });
  const workflows = createWorkflowService({
    db,
    groups,
    now,
    templateGraph: (spaceId, id) => templates.graphOf(spaceId, id),
  });
  const templates = createTemplateService({ db, workflows });
  const drafts = createDraftService({ db, workflows, now });
  const transfer = createTransferService({ workflows });
  const module: AppModule = {
    name: 'workflow',
    routes: (app) => registerWorkflowRoutes(app, { workflows, drafts, groups, templates, transfer }),
  };
  return { module, workflows, drafts };
}
