import { randomBytes } from 'node:crypto';
import type { CustomBusinessAttachment } from '@athena/contract';
import type { AuthContext } from '../../platform/auth-guard.ts';
import { isUuid } from '../../platform/crypto.ts';
import { AppError } from '../../platform/http/app-error.ts';
import { extensionFor, type ObjectStorage } from '../../platform/storage.ts';
import type { CustomBusinessRepo } from './custom-business.repo.ts';
import { cleanFileName, sniffAttachment } from './file-check.ts';

export type AttachmentService = ReturnType<typeof createAttachmentService>;

/** Uploads not yet part of a request that one person may hold per day (abandoned forms). */
export const LOOSE_UPLOADS_PER_DAY = 30;

/**
 * Attachment files: checked by content, stored through ObjectStorage under a key with a random
 * secret (the public /files/ route can therefore never be pointed at one), and read back only by
 * members of the space that owns them, or by platform operators.
 */
export function createAttachmentService(deps: {
  repo: CustomBusinessRepo;
  storage: ObjectStorage;
  isOperator: (userId: string) => Promise<boolean>;
  now: () => Date;
}) {
  const { repo, storage, now } = deps;

  return {
    async store(ctx: AuthContext, bytes: Buffer, nameHeader: string | string[] | undefined) {
      if (!ctx.space) throw new AppError('SPACE_UNAVAILABLE');
      const name = cleanFileName(nameHeader);
      if (!name) throw new AppError('BAD_REQUEST', { detail: 'x-file-name: the percent-encoded file name is missing' });
      const type = sniffAttachment(bytes);
      if (!type) throw new AppError('ATTACHMENT_INVALID');
      const since = new Date(now().getTime() - 86_400_000);
      if ((await repo.countLooseUploads(ctx.userId, since)) >= LOOSE_UPLOADS_PER_DAY)
        throw new AppError('RATE_LIMITED');

      const key = `custom-business/${ctx.space.id}/${randomBytes(24).toString('hex')}.${extensionFor(type)}`;
      await storage.put(key, bytes, type);
      const row = await repo.insertAttachment({
        spaceId: ctx.space.id,
        uploadedBy: ctx.userId,
        name,
        size: bytes.length,
        contentType: type,
        storageKey: key,
        createdAt: now(),
      });
      return { id: row.id, name: row.name, size: row.size, content_type: type } satisfies CustomBusinessAttachment;
    },

    /**
     * The file for a download. Members of the owning space (named by the space-id header) may read
     * a submitted request's files, and their own uploads before submitting; operators read any.
     * Everything else looks exactly like a missing file.
     */
    async open(ctx: AuthContext, id: string) {
      const row = isUuid(id) ? await repo.getAttachment(id) : null;
      if (!row) throw new AppError('NOT_FOUND');
      const member = ctx.space?.id === row.spaceId && (row.requestId !== null || row.uploadedBy === ctx.userId);
      if (!member && !(await deps.isOperator(ctx.userId))) throw new AppError('NOT_FOUND');
      const object = await storage.get(row.storageKey);
      if (!object) throw new AppError('NOT_FOUND');
      return { name: row.name, bytes: object.bytes, contentType: object.contentType };
    },
  };
}
