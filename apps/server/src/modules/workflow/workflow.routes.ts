import { workflowRoutes as r, WORKFLOW_LIMITS } from '@athena/contract';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../platform/http/app-error.ts';
import { authedRoute } from '../../platform/http/route.ts';
import type { DraftService } from './draft.service.ts';
import type { WorkflowGroupService } from './group.service.ts';
import type { TemplateService } from './template.service.ts';
import type { TransferService } from './transfer.service.ts';
import type { WorkflowService } from './workflow.service.ts';
import { documentBytes } from './workflow-access.ts';

export interface WorkflowRouteDeps {
  workflows: WorkflowService;
  drafts: DraftService;
  groups: WorkflowGroupService;
  templates: TemplateService;
  transfer: TransferService;
}

/**
 * Routes that carry a whole document take bodies past the server's usual limit, so that a
 * document over WORKFLOW_LIMITS reaches the size check and is refused as WORKFLOW_TOO_LARGE, in
 * the reader's language, before the contract's schema walks thousands of nodes. Past this ceiling
 * the body is refused unread (PAYLOAD_TOO_LARGE).
 */
const DOCUMENT_BODY_LIMIT = 16 * 1024 * 1024;
const DOCUMENT_SLACK_BYTES = 64 * 1024;

function registerDocumentRoutes(app: FastifyInstance, deps: WorkflowRouteDeps) {
  const { drafts, transfer } = deps;
  app.addHook('onRoute', (options) => {
    options.bodyLimit = DOCUMENT_BODY_LIMIT;
  });
  // Parsed JSON, not yet validated: a draft's graph or an import's text is measured in bytes.
  app.addHook('preValidation', async (request) => {
    const body = request.body as { graph?: unknown; content?: unknown } | null;
    const length = Number(request.headers['content-length'] ?? 0);
    if (length <= WORKFLOW_LIMITS.maxDocumentBytes + DOCUMENT_SLACK_BYTES) return;
    const document = typeof body?.content === 'string' ? body.content : body?.graph;
    const bytes = typeof document === 'string' ? Buffer.byteLength(document, 'utf8') : documentBytes(document ?? null);
    if (bytes > WORKFLOW_LIMITS.maxDocumentBytes) throw new AppError('WORKFLOW_TOO_LARGE');
  });
  authedRoute(app, r.draftSave, (body, ctx) => drafts.save(ctx, body.id, body.graph, body.base_revision));
  authedRoute(app, r.import, (body, ctx) => transfer.importFile(ctx, body));
}

export async function registerWorkflowRoutes(app: FastifyInstance, deps: WorkflowRouteDeps) {
  const { workflows, drafts, groups, templates, transfer } = deps;
  const none = () => null;

  authedRoute(app, r.groupList, (_body, ctx) => groups.list(ctx));
  authedRoute(app, r.groupCreate, (body, ctx) => groups.create(ctx, body.name));
  authedRoute(app, r.groupRename, (body, ctx) => groups.rename(ctx, body.id, body.name));
  authedRoute(app, r.groupDelete, (body, ctx) => groups.remove(ctx, body.id).then(none));

  authedRoute(app, r.list, (body, ctx) =>
    workflows.list(ctx, {
      groupId: body?.group_id,
      keyword: body?.keyword,
      effective: body?.effective,
      locked: body?.locked,
      lastResult: body?.last_result,
      page: body?.page ?? 1,
      pageSize: body?.page_size ?? 20,
    }),
  );
  authedRoute(app, r.create, (body, ctx) => workflows.create(ctx, body));
  authedRoute(app, r.detail, (body, ctx) => workflows.detail(ctx, body.id));
  authedRoute(app, r.update, (body, ctx) => {
    const { id, ...fields } = body;
    return workflows.update(ctx, id, fields);
  });
  authedRoute(app, r.delete, (body, ctx) => workflows.remove(ctx, body.id).then(none));
  authedRoute(app, r.duplicate, (body, ctx) => workflows.duplicate(ctx, body.id));
  authedRoute(app, r.lock, (body, ctx) => workflows.setLocked(ctx, body.id, body.locked));
  authedRoute(app, r.effectiveSet, (body, ctx) => workflows.setEffective(ctx, body.id, body.effective));

  authedRoute(app, r.publish, (body, ctx) => drafts.publish(ctx, body.id, body.note));
  authedRoute(app, r.versionList, (body, ctx) => drafts.versions(ctx, body.workflow_id));
  authedRoute(app, r.versionDetail, (body, ctx) => drafts.version(ctx, body.id));
  authedRoute(app, r.versionRestore, (body, ctx) => drafts.restore(ctx, body.id, body.base_revision));

  authedRoute(app, r.templateList, (_body, ctx) => templates.list(ctx));
  authedRoute(app, r.templateSave, (body, ctx) => templates.save(ctx, body));
  authedRoute(app, r.templateDelete, (body, ctx) => templates.remove(ctx, body.id).then(none));

  authedRoute(app, r.export, (body, ctx) => transfer.exportFile(ctx, body.id));
  await app.register(async (scope) => registerDocumentRoutes(scope, deps));
}
