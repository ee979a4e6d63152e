import {
  errorEnvelope,
  KNOWLEDGE_MAX_FILE_BYTES,
  KNOWLEDGE_UPLOAD_PATH,
  knowledgeUnitSchema,
  okEnvelope,
  knowledgeRoutes as routes,
} from '@athena/contract';
import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type AuthContext, authenticate } from '../../platform/auth-guard.ts';
import { AppError } from '../../platform/http/app-error.ts';
import { sendError } from '../../platform/http/error-handler.ts';
import { authedRoute, contextOf } from '../../platform/http/route.ts';
import type { KnowledgeGroupService } from './group.service.ts';
import type { KnowledgeBaseService } from './knowledge-base.service.ts';
import type { RetrievalService } from './retrieval.service.ts';
import type { SegmentService } from './segment.service.ts';
import type { UnitService } from './unit.service.ts';

/**
 * The reader stops a little above the limit so a far bigger body is never buffered; the service,
 * which counts exactly, answers the ones just over it. Both say FILE_SIZE_EXCEEDED.
 */
const BODY_LIMIT = KNOWLEDGE_MAX_FILE_BYTES + 64 * 1024;

export interface KnowledgeRouteDeps {
  knowledgeGroups: KnowledgeGroupService;
  knowledgeBases: KnowledgeBaseService;
  knowledgeUnits: UnitService;
  knowledgeSegments: SegmentService;
  knowledgeRetrieval: RetrievalService;
}

export function registerKnowledgeRoutes(app: FastifyInstance, deps: KnowledgeRouteDeps) {
  const { knowledgeGroups: groups, knowledgeBases: bases, knowledgeUnits: units } = deps;
  const { knowledgeSegments: segments, knowledgeRetrieval: retrieval } = deps;
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

  // The upload is a binary call, so its body parser lives in a scope of its own: elsewhere JSON
  // stays the only accepted body.
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: BODY_LIMIT }, (_request, body, done) =>
      done(null, body),
    );
    scope.setErrorHandler((error: FastifyError, request, reply) => {
      if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return sendError(request, reply, 'FILE_SIZE_EXCEEDED');
      throw error; // the application's handler shapes everything else
    });

    const sessions = new WeakMap<FastifyRequest, AuthContext>();
    scope.withTypeProvider<ZodTypeProvider>().post(
      KNOWLEDGE_UPLOAD_PATH,
      {
        bodyLimit: BODY_LIMIT,
        schema: {
          summary:
            'Upload one file to a knowledge base: the raw bytes (PDF, TXT, DOCX, XLSX or CSV, at most 20 MB) as the body, checked by content; the unit starts as not_indexed',
          tags: ['knowledge'],
          consumes: ['application/octet-stream'],
          querystring: z.object({
            knowledge_id: z.string().max(64),
            /** The file's name, percent-encoded. */
            file_name: z.string().max(4096),
            /** The files uploaded together (the upload page makes one id per visit): at most 10 per batch. */
            batch_id: z.string().uuid().optional(),
          }),
          response: { 200: okEnvelope(knowledgeUnitSchema).or(errorEnvelope) },
        },
        // Checked before the body is read, so a caller who may not upload never makes us buffer 20 MB.
        onRequest: async (request) => {
          const ctx = await authenticate(request, contextOf(request));
          await units.checkUploadTarget(ctx, (request.query as Record<string, unknown>).knowledge_id);
          sessions.set(request, ctx);
        },
      },
      async (request) => {
        const ctx = sessions.get(request);
        if (!ctx) throw new AppError('LOGIN_EXPIRED');
        const bytes = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const { knowledge_id, file_name, batch_id } = request.query;
        const data = await units.upload(ctx, knowledge_id, file_name, bytes, batch_id);
        return { code: 0 as const, msg: 'ok', data };
      },
    );
  });
}
