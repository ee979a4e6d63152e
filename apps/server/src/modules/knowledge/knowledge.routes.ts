import { knowledgeUpload, knowledgeRoutes as routes } from '@athena/contract';
import type { FastifyInstance } from 'fastify';
import { authedRoute } from '../../platform/http/route.ts';
import { uploadRoute } from '../../platform/http/upload-route.ts';
import type { KnowledgeGroupService } from './group.service.ts';
import type { KnowledgeBaseService } from './knowledge-base.service.ts';
import type { RetrievalService } from './retrieval.service.ts';
import type { SegmentService } from './segment.service.ts';
import type { UnitService } from './unit.service.ts';
import type { createUnitFromMedia } from './unit-from-media.command.ts';

export interface KnowledgeRouteDeps {
  groups: KnowledgeGroupService;
  bases: KnowledgeBaseService;
  units: UnitService;
  fromMedia: ReturnType<typeof createUnitFromMedia>;
  segments: SegmentService;
  retrieval: RetrievalService;
}

export function registerKnowledgeRoutes(app: FastifyInstance, deps: KnowledgeRouteDeps) {
  const { groups, bases, units, fromMedia, segments, retrieval } = deps;
  const none = () => null;

  authedRoute(app, routes.groupList, (_body, ctx) => groups.list(ctx));
  authedRoute(app, routes.groupCreate, (body, ctx) => groups.create(ctx, body.name));
  authedRoute(app, routes.groupRename, (body, ctx) => groups.rename(ctx, body.id, body.name));
  authedRoute(app, routes.groupDelete, (body, ctx) => groups.remove(ctx, body.id).then(none));

  authedRoute(app, routes.list, (body, ctx) => bases.list(ctx, body ?? {}));
  authedRoute(app, routes.get, (body, ctx) => bases.get(ctx, body.id));
  authedRoute(app, routes.create, (body, ctx) => bases.create(ctx, body));
  authedRoute(app, routes.update, (body, ctx) => {
    const { id, ...fields } = body;
    return bases.update(ctx, id, fields);
  });
  authedRoute(app, routes.delete, (body, ctx) => bases.remove(ctx, body.id).then(none));
  authedRoute(app, routes.reindex, (body, ctx) => bases.reindex(ctx, body.id));

  authedRoute(app, routes.unitList, (body, ctx) => units.list(ctx, body));
  authedRoute(app, routes.unitGet, (body, ctx) => units.get(ctx, body.id));
  authedRoute(app, routes.unitFromMedia, (body, ctx) => fromMedia(ctx, body));
  authedRoute(app, routes.unitPreview, (body, ctx) => units.preview(ctx, body));
  authedRoute(app, routes.unitStart, (body, ctx) => units.start(ctx, body));
  authedRoute(app, routes.unitCancel, (body, ctx) => units.cancel(ctx, body.id));
  authedRoute(app, routes.unitRetry, (body, ctx) => units.retry(ctx, body.id));
  authedRoute(app, routes.unitDelete, (body, ctx) => units.remove(ctx, body.id).then(none));

  authedRoute(app, routes.segmentList, (body, ctx) => segments.list(ctx, body));
  authedRoute(app, routes.segmentCreate, (body, ctx) => {
    const { unit_id, ...text } = body;
    return segments.create(ctx, unit_id, text);
  });
  authedRoute(app, routes.segmentUpdate, (body, ctx) => {
    const { id, ...text } = body;
    return segments.update(ctx, id, text);
  });
  authedRoute(app, routes.segmentSetEnabled, (body, ctx) => segments.setEnabled(ctx, body.id, body.enabled));
  authedRoute(app, routes.segmentDelete, (body, ctx) => segments.remove(ctx, body.id).then(none));

  authedRoute(app, routes.search, (body, ctx) => retrieval.search(ctx, body));

  uploadRoute(app, knowledgeUpload, {
    before: (ctx, request) => units.checkUploadTarget(ctx, (request.query as Record<string, unknown>).knowledge_id),
    handle: ({ bytes, query }, ctx) => units.upload(ctx, query.knowledge_id, query.file_name, bytes, query.batch_id),
  });
}
