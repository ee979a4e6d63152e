import { ERRORS, formatMessage, MEDIA_FILE_PATH, MEDIA_UPLOAD_PATH } from '@athena/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { authenticate } from '../../platform/auth-guard.ts';
import { AppError } from '../../platform/http/app-error.ts';
import { languageOf } from '../../platform/http/error-handler.ts';
import { contextOf } from '../../platform/http/request-context.ts';
import { hijack } from '../../platform/http/security-headers.ts';
import { dispositionOf, parseRange } from './delivery.ts';
import type { ItemService } from './item.service.ts';
import type { MediaFiles } from './media-files.ts';
import { CHECKSUM_ALGORITHMS, type TusUploads, toTusError } from './tus-upload.ts';

const INLINE_KINDS = new Set(['video', 'audio', 'image']);

/**
 * The tus endpoint and the file delivery: neither is a POST JSON route, so both stay out of the
 * OpenAPI document (docs/media.md describes them).
 */
export function registerUploadRoutes(
  app: FastifyInstance,
  deps: { tus: TusUploads; items: ItemService; files: MediaFiles },
) {
  const { tus, items, files } = deps;

  // A scope of its own, so the request body is never parsed: tus streams it to disk.
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null));
    const handler = async (request: FastifyRequest, reply: FastifyReply) => {
      if (request.method === 'OPTIONS') {
        reply.raw.setHeader('Tus-Checksum-Algorithm', CHECKSUM_ALGORITHMS.join(','));
        hijack(reply);
        return tus.serve(request.raw, reply.raw);
      }
      let ctx: Awaited<ReturnType<typeof authenticate>>;
      try {
        ctx = await authenticate(request, contextOf(request));
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        const answer = toTusError(error) as { status_code: number; body: string };
        return reply.status(answer.status_code).header('content-type', 'application/json').send(answer.body);
      }
      const checksum = request.headers['upload-checksum'];
      hijack(reply);
      await tus.handle({ ctx, checksum: typeof checksum === 'string' ? checksum : null }, () =>
        tus.serve(request.raw, reply.raw),
      );
    };
    const methods = ['POST', 'PATCH', 'HEAD', 'DELETE', 'OPTIONS'] as const;
    scope.route({ method: [...methods], url: MEDIA_UPLOAD_PATH, schema: { hide: true }, handler });
    scope.route({ method: [...methods], url: `${MEDIA_UPLOAD_PATH}:uploadId`, schema: { hide: true }, handler });
  });

  app.get<{ Params: { itemId: string }; Querystring: { exp?: string; sig?: string } }>(
    `${MEDIA_FILE_PATH}:itemId`,
    { schema: { hide: true } },
    async (request, reply) => {
      const { exp = '', sig = '' } = request.query;
      const opened = await items.openSigned(request.params.itemId, String(exp), String(sig));
      if (opened && files.presignedUrl) {
        // The bucket serves the bytes (ranges, ETags) itself; they never pass through here.
        const { row, left } = opened;
        const kind = INLINE_KINDS.has(row.kind) ? 'inline' : 'attachment';
        const target = await files.presignedUrl(row.storageKey, {
          contentType: row.mimeType,
          disposition: dispositionOf(kind, row.name),
        });
        return reply
          .status(302)
          .header('location', target.url)
          .header('cache-control', `private, max-age=${Math.min(left, target.cacheSeconds)}`)
          .send();
      }
      const stat = opened ? await files.stat(opened.row.storageKey) : null;
      if (!opened || !stat) {
        return reply.status(404).send({
          code: ERRORS.NOT_FOUND.code,
          msg: formatMessage('NOT_FOUND', languageOf(request)),
          request_id: request.id,
        });
      }
      const { row, left } = opened;
      // Stored files never change in place, so the key and size identify these bytes.
      const etag = `"${row.storageKey.split('/')[1]}-${stat.size.toString(16)}"`;
      reply
        .header('etag', etag)
        .header('accept-ranges', 'bytes')
        .header('cache-control', `private, max-age=${left}`)
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .header('content-type', row.mimeType)
        .header('content-disposition', dispositionOf(INLINE_KINDS.has(row.kind) ? 'inline' : 'attachment', row.name));
      if (request.headers['if-none-match']?.split(/\s*,\s*/).includes(etag)) return reply.status(304).send();
      const ifRange = request.headers['if-range'];
      const range = ifRange && ifRange !== etag ? null : parseRange(request.headers.range, stat.size);
      if (range === 'unsatisfiable') {
        return reply.status(416).header('content-range', `bytes */${stat.size}`).send();
      }
      if (!range) return reply.header('content-length', stat.size).send(files.read(row.storageKey));
      return reply
        .status(206)
        .header('content-range', `bytes ${range.start}-${range.end}/${stat.size}`)
        .header('content-length', range.end - range.start + 1)
        .send(files.read(row.storageKey, range));
    },
  );
}
