import {
  ATTACHMENT_DOWNLOAD_PATH,
  ATTACHMENT_MAX_BYTES,
  ATTACHMENT_NAME_HEADER,
  ATTACHMENT_UPLOAD_PATH,
  attachmentDownloadBody,
  attachmentSchema,
  errorEnvelope,
  okEnvelope,
  customBusinessRoutes as routes,
} from '@athena/contract';
import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { type AuthContext, authenticate } from '../../platform/auth-guard.ts';
import { AppError } from '../../platform/http/app-error.ts';
import { sendError } from '../../platform/http/error-handler.ts';
import { authedRoute, contextOf } from '../../platform/http/route.ts';
import type { AttachmentService } from './attachments.ts';
import type { CustomBusinessService } from './custom-business.service.ts';
import { contentDisposition } from './file-check.ts';

/**
 * The reader stops a little above the limit so a far bigger body is never buffered, while the
 * handler, which counts exactly, answers the ones just over it. Both say ATTACHMENT_TOO_LARGE.
 */
const BODY_LIMIT = ATTACHMENT_MAX_BYTES + 16 * 1024;

export function registerCustomBusinessRoutes(
  app: FastifyInstance,
  deps: { customBusiness: CustomBusinessService; attachments: AttachmentService },
) {
  const { customBusiness: service, attachments } = deps;

  authedRoute(app, routes.create, (body, ctx) => service.create(ctx, body));
  authedRoute(app, routes.list, (body, ctx) => service.list(ctx, body));
  authedRoute(app, routes.get, (body, ctx) => service.get(ctx, body.id));
  authedRoute(app, routes.cancel, (body, ctx) => service.cancel(ctx, body.id, body.note));
  authedRoute(app, routes.accept, (body, ctx) => service.accept(ctx, body.id));
  authedRoute(app, routes.operatorList, (body, ctx) => service.operatorList(ctx, body));
  authedRoute(app, routes.operatorGet, (body, ctx) => service.operatorGet(ctx, body.id));
  authedRoute(app, routes.operatorUpdateStatus, (body, ctx) => service.operatorUpdate(ctx, body));

  app.withTypeProvider<ZodTypeProvider>().post(
    ATTACHMENT_DOWNLOAD_PATH,
    {
      schema: {
        summary: 'Download an attachment (members of its space, or operators): the file itself, or the error envelope',
        tags: ['custom_business'],
        body: attachmentDownloadBody,
      },
    },
    async (request, reply) => {
      const ctx = await authenticate(request, contextOf(request));
      const file = await attachments.open(ctx, request.body.id);
      return reply
        .header('content-type', file.contentType)
        .header('content-disposition', contentDisposition(file.name))
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .header('cache-control', 'private, no-store')
        .send(file.bytes);
    },
  );

  // The upload is a binary call, so its body parser lives in a scope of its own (as the avatar's):
  // elsewhere JSON stays the only accepted body.
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: BODY_LIMIT }, (_request, body, done) =>
      done(null, body),
    );
    scope.setErrorHandler((error: FastifyError, request, reply) => {
      if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return sendError(request, reply, 'ATTACHMENT_TOO_LARGE');
      throw error; // the application's handler shapes everything else
    });

    const sessions = new WeakMap<FastifyRequest, AuthContext>();
    scope.post(
      ATTACHMENT_UPLOAD_PATH,
      {
        bodyLimit: BODY_LIMIT,
        schema: {
          summary: `Upload one attachment for a request: the raw file (PDF, DOCX, XLSX, PNG or JPG, at most 10 MB) as the body, its name percent-encoded in the ${ATTACHMENT_NAME_HEADER} header`,
          tags: ['custom_business'],
          consumes: ['application/octet-stream'],
          response: { 200: okEnvelope(attachmentSchema).or(errorEnvelope) },
        },
        // Checked before the body is read, so a stranger cannot make us buffer 10 MB.
        onRequest: async (request) => {
          const ctx = await authenticate(request, contextOf(request));
          if (!ctx.space) throw new AppError('SPACE_UNAVAILABLE');
          sessions.set(request, ctx);
        },
      },
      async (request) => {
        const ctx = sessions.get(request);
        if (!ctx) throw new AppError('LOGIN_EXPIRED');
        const bytes = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        if (bytes.length > ATTACHMENT_MAX_BYTES) throw new AppError('ATTACHMENT_TOO_LARGE');
        const data = await attachments.store(ctx, bytes, request.headers[ATTACHMENT_NAME_HEADER]);
        return { code: 0 as const, msg: 'ok', data };
      },
    );
  });
}
