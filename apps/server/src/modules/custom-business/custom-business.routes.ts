import {
  ATTACHMENT_DOWNLOAD_PATH,
  ATTACHMENT_MAX_BYTES,
  ATTACHMENT_NAME_HEADER,
  attachmentDownloadBody,
  attachmentUpload,
  customBusinessRoutes as routes,
} from '@athena/contract';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../platform/http/app-error.ts';
import { authedFileRoute, authedRoute } from '../../platform/http/route.ts';
import { uploadRoute } from '../../platform/http/upload-route.ts';
import type { AttachmentService } from './attachments.ts';
import type { CustomBusinessService } from './custom-business.service.ts';
import { contentDisposition } from './file-check.ts';

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

  authedFileRoute(
    app,
    {
      path: ATTACHMENT_DOWNLOAD_PATH,
      summary: 'Download an attachment (members of its space, or operators): the file itself, or the error envelope',
      tag: 'custom_business',
      body: attachmentDownloadBody,
    },
    async (body, ctx, reply) => {
      const file = await attachments.open(ctx, body.id);
      return reply
        .header('content-type', file.contentType)
        .header('content-disposition', contentDisposition(file.name))
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .header('cache-control', 'private, no-store')
        .send(file.bytes);
    },
  );

  uploadRoute(app, attachmentUpload, {
    // Before the body is read, so a caller without a space cannot make us buffer 10 MB.
    before: (ctx) => {
      if (!ctx.space) throw new AppError('SPACE_UNAVAILABLE');
    },
    handle: ({ bytes, headers }, ctx) => {
      if (bytes.length > ATTACHMENT_MAX_BYTES) throw new AppError('ATTACHMENT_TOO_LARGE');
      return attachments.store(ctx, bytes, headers[ATTACHMENT_NAME_HEADER]);
    },
  });
}
