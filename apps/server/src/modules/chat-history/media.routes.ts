import { ERRORS, formatMessage } from '@athena/contract';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../platform/db/database.ts';
import { languageOf } from '../../platform/http/error-handler.ts';
import type { ObjectStorage } from '../../platform/storage.ts';
import { chatMessages } from './chat-history.schema.ts';
import { isInlineMedia } from './media-type.ts';
import { CHAT_MEDIA_PATH, type MediaUrls } from './media-url.ts';

/**
 * GET a message's stored media by its signed URL (media-url.ts). Images, MP4 video and MP3 audio
 * are shown in place; anything else downloads under its file name. Never sniffed by the browser,
 * never run as a page.
 */
export function registerMediaRoute(app: FastifyInstance, deps: { db: Db; storage: ObjectStorage; urls: MediaUrls }) {
  app.get<{ Params: { messageId: string }; Querystring: { exp?: string; sig?: string } }>(
    `${CHAT_MEDIA_PATH}:messageId`,
    { schema: { hide: true } },
    async (request, reply) => {
      const { messageId } = request.params;
      const left = deps.urls.check(messageId, String(request.query.exp ?? ''), String(request.query.sig ?? ''));
      const [row] =
        left === null
          ? []
          : await deps.db
              .select({ key: chatMessages.mediaKey, payload: chatMessages.payload })
              .from(chatMessages)
              .where(eq(chatMessages.id, Number(messageId)));
      const object = row?.key ? await deps.storage.get(row.key) : null;
      if (!object || left === null) {
        return reply.status(404).send({
          code: ERRORS.NOT_FOUND.code,
          msg: formatMessage('NOT_FOUND', languageOf(request)),
          request_id: request.id,
        });
      }
      const name = (row?.payload.file_name ?? 'file').replace(/["\\\r\n]/g, '_');
      return reply
        .header('content-type', object.contentType)
        .header(
          'content-disposition',
          isInlineMedia(object.contentType) ? 'inline' : `attachment; filename*=UTF-8''${encodeURIComponent(name)}`,
        )
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .header('cache-control', `private, max-age=${left}`)
        .send(object.bytes);
    },
  );
}
