import { ERRORS, formatMessage, MEDIA_THUMB_PATH, mediaAuxImageUpload } from '@athena/contract';
import type { FastifyInstance } from 'fastify';
import { languageOf } from '../../platform/http/error-handler.ts';
import { uploadRoute } from '../../platform/http/upload-route.ts';
import { imageTypeOf } from './cover.ts';
import type { ItemService } from './item.service.ts';
import type { MediaFiles } from './media-files.ts';

/**
 * Thumbnails and covers: the signed GET an <img> loads (a small file, read whole), and the cover
 * upload (raw JPEG or PNG bytes). docs/media.md, "Previews" and "Covers".
 */
export function registerPreviewRoutes(app: FastifyInstance, deps: { items: ItemService; files: MediaFiles }) {
  const { items, files } = deps;

  uploadRoute(app, mediaAuxImageUpload, {
    // Who may not change the item never gets to send 10 MB.
    before: (ctx, request) => items.checkEditable(ctx, (request.query as Record<string, unknown>).id),
    handle: ({ bytes, query }, ctx) => items.setCover(ctx, query.id, bytes),
  });

  app.get<{ Params: { itemId: string; version: string }; Querystring: { exp?: string; sig?: string } }>(
    `${MEDIA_THUMB_PATH}:itemId/:version`,
    { schema: { hide: true } },
    async (request, reply) => {
      const { itemId, version } = request.params;
      const opened = await items.openThumb(
        itemId,
        version,
        String(request.query.exp ?? ''),
        String(request.query.sig ?? ''),
      );
      const chunks: Buffer[] = [];
      if (opened) {
        try {
          for await (const chunk of files.read(opened.key)) chunks.push(chunk as Buffer);
        } catch {
          chunks.length = 0;
        }
      }
      const bytes = Buffer.concat(chunks);
      if (!opened || bytes.length === 0) {
        return reply.status(404).send({
          code: ERRORS.NOT_FOUND.code,
          msg: formatMessage('NOT_FOUND', languageOf(request)),
          request_id: request.id,
        });
      }
      // The URL names this very file (a new cover is a new URL): it may be cached as long as it is good.
      return reply
        .header('cache-control', `private, max-age=${opened.left}, immutable`)
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .header('content-type', imageTypeOf(bytes))
        .send(bytes);
    },
  );
}
