import {
  AVATAR_MAX_BYTES,
  AVATAR_TYPES,
  AVATAR_UPLOAD_PATH,
  avatarUploadData,
  errorEnvelope,
  okEnvelope,
} from '@athena/contract';
import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { type AuthContext, authenticate } from '../../platform/auth-guard.ts';
import { AppError } from '../../platform/http/app-error.ts';
import { sendError } from '../../platform/http/error-handler.ts';
import { contextOf } from '../../platform/http/route.ts';

export type AvatarType = (typeof AVATAR_TYPES)[number];

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const JPEG_SIGNATURE = Buffer.from([0xff, 0xd8, 0xff]);

/** The image type the bytes themselves announce; a file's name or declared type proves nothing. */
export function sniffAvatar(bytes: Buffer): AvatarType | null {
  if (bytes.length > PNG_SIGNATURE.length && bytes.subarray(0, 8).equals(PNG_SIGNATURE)) return 'image/png';
  if (bytes.length > JPEG_SIGNATURE.length && bytes.subarray(0, 3).equals(JPEG_SIGNATURE)) return 'image/jpeg';
  return null;
}

/**
 * The reader stops a little above the limit so that a body that is far too big is never buffered,
 * while the handler, which counts exactly, answers the ones just over it. Both say AVATAR_TOO_LARGE.
 */
const BODY_LIMIT = AVATAR_MAX_BYTES + 16 * 1024;

const declaredType = (request: FastifyRequest) =>
  (request.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();

/**
 * POST AVATAR_UPLOAD_PATH with the raw image as the body and `content-type: image/jpeg|image/png`.
 * The only binary call, so its body parser lives in a scope of its own: elsewhere JSON stays the
 * only accepted body.
 */
export function registerAvatarUpload(
  app: FastifyInstance,
  store: (userId: string, bytes: Buffer, type: AvatarType) => Promise<z.output<typeof avatarUploadData>>,
) {
  app.register(async (scope) => {
    // Every content type reaches the handler as bytes, so a GIF or a PDF gets AVATAR_INVALID
    // rather than a complaint about JSON.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: BODY_LIMIT }, (_request, body, done) =>
      done(null, body),
    );
    scope.setErrorHandler((error: FastifyError, request, reply) => {
      if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return sendError(request, reply, 'AVATAR_TOO_LARGE');
      throw error; // the application's handler shapes everything else
    });

    const sessions = new WeakMap<FastifyRequest, AuthContext>();
    scope.post(
      AVATAR_UPLOAD_PATH,
      {
        bodyLimit: BODY_LIMIT,
        schema: {
          summary: 'Upload my avatar: the raw JPEG or PNG bytes (at most 2 MB) as the body',
          tags: ['account'],
          consumes: [...AVATAR_TYPES],
          response: { 200: okEnvelope(avatarUploadData).or(errorEnvelope) },
        },
        // Checked before the body is read, so a stranger cannot make us buffer 2 MB.
        onRequest: async (request) => {
          sessions.set(request, await authenticate(request, contextOf(request)));
        },
      },
      async (request) => {
        const ctx = sessions.get(request);
        if (!ctx) throw new AppError('LOGIN_EXPIRED');
        const bytes = Buffer.isBuffer(request.body) ? request.body : null;
        if (bytes && bytes.length > AVATAR_MAX_BYTES) throw new AppError('AVATAR_TOO_LARGE');
        const type = bytes ? sniffAvatar(bytes) : null;
        if (!bytes || !type || !(AVATAR_TYPES as readonly string[]).includes(declaredType(request))) {
          throw new AppError('AVATAR_INVALID');
        }
        // Stored as what the bytes are (a PNG sent as image/jpeg is kept and served as a PNG).
        return { code: 0 as const, msg: 'ok', data: await store(ctx.userId, bytes, type) };
      },
    );
  });
}
