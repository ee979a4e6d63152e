import { AVATAR_MAX_BYTES, AVATAR_TYPES, avatarUpload, type UploadData } from '@athena/contract';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../platform/http/app-error.ts';
import { uploadRoute } from '../../platform/http/upload-route.ts';

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
 * POST the raw image as the body with `content-type: image/jpeg|image/png`. Every content type
 * reaches the handler as bytes, so a GIF or a PDF gets AVATAR_INVALID rather than a complaint
 * about JSON.
 */
export function registerAvatarUpload(
  app: FastifyInstance,
  store: (userId: string, bytes: Buffer, type: AvatarType) => Promise<UploadData<typeof avatarUpload>>,
) {
  uploadRoute(app, avatarUpload, {
    handle: async ({ bytes, contentType }, ctx) => {
      if (bytes.length > AVATAR_MAX_BYTES) throw new AppError('AVATAR_TOO_LARGE');
      const type = sniffAvatar(bytes);
      if (!type || !(AVATAR_TYPES as readonly string[]).includes(contentType)) throw new AppError('AVATAR_INVALID');
      // Stored as what the bytes are (a PNG sent as image/jpeg is kept and served as a PNG).
      return store(ctx.userId, bytes, type);
    },
  });
}
