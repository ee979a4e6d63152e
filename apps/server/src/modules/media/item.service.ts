import type { MediaItem } from '@athena/contract';
import {
  can,
  MEDIA_FILE_PATH,
  MEDIA_THUMB_PATH,
  MEDIA_TRASH_DAYS,
  type mediaRoutes,
  type RouteBody,
} from '@athena/contract';
import { eq, inArray, lt } from 'drizzle-orm';
import { type AuthContext, authorize } from '../../platform/auth-guard.ts';
import type { Db } from '../../platform/db/database.ts';
import { AppError } from '../../platform/http/app-error.ts';
import { createUrlSigner } from '../../platform/signed-url.ts';
import { encodeCover } from './cover.ts';
import { type DeliveryCache, deliverable } from './delivery-cache.ts';
import { toItem } from './media.presenters.ts';
import { type ItemRow, keysOf, type MediaRepo } from './media.repo.ts';
import { mediaItems } from './media.schema.ts';
import type { MediaFiles } from './media-files.ts';
import type { PreviewCandidate } from './previews.ts';

type Routes = typeof mediaRoutes;

/** Items of a library: listing, editing, the trash, and signed URLs of their bytes. */
export function createItemService(deps: {
  db: Db;
  repo: MediaRepo;
  files: MediaFiles;
  masterKey: Buffer;
  quotaBytes: number;
  now: () => Date;
  /** Queues the making of an item's preview (the preview jobs). */
  queuePreview: (item: PreviewCandidate) => Promise<void>;
  delivery: DeliveryCache;
}) {
  const { db, repo, now } = deps;
  const signer = createUrlSigner(deps.masterKey, 'media-file-url', now);
  const thumbSigner = createUrlSigner(deps.masterKey, 'media-thumb-url', now);
  const mayEdit = (ctx: AuthContext, row: ItemRow) =>
    Boolean(ctx.space && can(ctx.space.role, 'media.edit', { isOwner: row.createdBy === ctx.userId }));
  /**
   * The cover wins over the generated thumbnail. The URL names the stored file's random part, so
   * a new cover is a new URL (no stale cache) and an old URL stops working when its file goes.
   */
  const thumbnailUrl = (row: ItemRow) => {
    const key = row.auxImageKey ?? row.thumbKey;
    if (!key) return null;
    const subject = `${row.id}/${key.split('/')[1]}`;
    return `${MEDIA_THUMB_PATH}${subject}?${thumbSigner.sign(subject).query}`;
  };
  const presentAll = async (ctx: AuthContext, rows: ItemRow[]) => {
    const names = await repo.nicknames(rows.map((row) => row.createdBy));
    return rows.map((row) =>
      toItem(row, {
        canEdit: mayEdit(ctx, row),
        thumbnailUrl: thumbnailUrl(row),
        creatorName: names.get(row.createdBy) ?? '',
      }),
    );
  };
  const present = async (ctx: AuthContext, row: ItemRow) => (await presentAll(ctx, [row]))[0] as MediaItem;
  const find = async (ctx: AuthContext, id: string) => {
    const space = authorize(ctx, 'media.create');
    return repo.findItem(space.id, id);
  };
  /** Ownership needs the row, so the permission check follows the (space-scoped) lookup. */
  const editable = async (ctx: AuthContext, id: string, action: 'media.edit' | 'media.delete') => {
    const row = await find(ctx, id);
    authorize(ctx, action, { isOwner: row.createdBy === ctx.userId });
    return row;
  };
  const save = async (ctx: AuthContext, row: ItemRow, change: Partial<ItemRow>) => {
    const [saved] = await db
      .update(mediaItems)
      .set({ ...change, updatedAt: now() })
      .where(eq(mediaItems.id, row.id))
      .returning();
    await deps.delivery.itemChanged(row.id);
    return present(ctx, saved ?? row);
  };

  return {
    async list(ctx: AuthContext, body: RouteBody<Routes['itemList']>) {
      const space = authorize(ctx, 'media.create');
      const library = await repo.findLibrary(space.id, body.library_id);
      const { rows, total } = await repo.listItems(
        library.id,
        { kind: body.kind, keyword: body.keyword, trash: body.trash ?? false },
        { by: body.sort ?? 'time', order: body.order ?? 'desc' },
        { page: body.page ?? 1, size: body.page_size ?? 20 },
      );
      return { items: await presentAll(ctx, rows), total };
    },
    async get(ctx: AuthContext, id: string) {
      return present(ctx, await find(ctx, id));
    },
    async url(ctx: AuthContext, id: string) {
      const row = await find(ctx, id);
      if (row.status === 'processing' || row.deletedAt) throw new AppError('MEDIA_ITEM_NOT_READY');
      const { query, seconds } = signer.sign(row.id);
      return { url: `${MEDIA_FILE_PATH}${row.id}?${query}`, expires_in: seconds };
    },
    /** The item a signed URL names, or null when the URL is forged or expired or the item is gone. */
    async openSigned(id: string, exp: string, sig: string) {
      const left = signer.check(id, exp, sig);
      if (left === null) return null;
      const row = await deps.delivery.read(id, () => repo.itemById(id));
      return row && deliverable(row) ? { row, left } : null;
    },
    async update(ctx: AuthContext, id: string, description: string) {
      return save(ctx, await editable(ctx, id, 'media.edit'), { description });
    },
    async move(ctx: AuthContext, id: string, libraryId: string) {
      const row = await editable(ctx, id, 'media.edit');
      const target = await repo.findLibrary(row.spaceId, libraryId);
      return save(ctx, row, { libraryId: target.id });
    },
    async trash(ctx: AuthContext, id: string) {
      const row = await editable(ctx, id, 'media.delete');
      return save(ctx, row, { deletedAt: row.deletedAt ?? now() });
    },
    async restore(ctx: AuthContext, id: string) {
      const row = await editable(ctx, id, 'media.delete');
      if (!row.deletedAt) throw new AppError('MEDIA_ITEM_NOT_IN_TRASH');
      return save(ctx, row, { deletedAt: null });
    },
    async purge(ctx: AuthContext, id: string) {
      const row = await editable(ctx, id, 'media.delete');
      if (!row.deletedAt) throw new AppError('MEDIA_ITEM_NOT_IN_TRASH');
      await db.delete(mediaItems).where(eq(mediaItems.id, row.id));
      await deps.delivery.itemChanged(row.id);
      for (const key of keysOf(row)) await deps.files.remove(key);
      return { ok: true as const };
    },
    /** The stored key a signed thumbnail URL names, or null when forged, expired or replaced. */
    async openThumb(id: string, version: string, exp: string, sig: string) {
      const left = thumbSigner.check(`${id}/${version}`, exp, sig);
      if (left === null) return null;
      const row = await repo.itemById(id);
      const key = row?.auxImageKey ?? row?.thumbKey;
      return row && key?.split('/')[1] === version ? { key, left } : null;
    },
    /** Sets the cover: checked and re-encoded (encodeCover) before anything is stored. */
    async setCover(ctx: AuthContext, id: string, bytes: Buffer) {
      const row = await editable(ctx, id, 'media.edit');
      const cover = await encodeCover(bytes);
      const key = deps.files.newKey(row.spaceId);
      await deps.files.put(key, cover);
      const saved = await save(ctx, row, { auxImageKey: key });
      if (row.auxImageKey) await deps.files.remove(row.auxImageKey);
      return saved;
    },
    async clearCover(ctx: AuthContext, id: string) {
      const row = await editable(ctx, id, 'media.edit');
      const saved = await save(ctx, row, { auxImageKey: null });
      if (row.auxImageKey) await deps.files.remove(row.auxImageKey);
      return saved;
    },
    /** Makes the preview again (after a failure, or a better decoder): back to pending, queued. */
    async reprocess(ctx: AuthContext, id: string) {
      const row = await editable(ctx, id, 'media.edit');
      if (row.preview === 'pending') return present(ctx, row);
      const saved = await save(ctx, row, { preview: 'pending', previewReason: null });
      await deps.queuePreview(row);
      return saved;
    },
    /** For the cover route's `before`: may this person change the item at all (before the body is read). */
    checkEditable: (ctx: AuthContext, id: unknown) => editable(ctx, typeof id === 'string' ? id : '', 'media.edit'),
    /** Deletes for good what sat in the trash longer than MEDIA_TRASH_DAYS (a daily job). */
    async purgeOldTrash() {
      const before = new Date(now().getTime() - MEDIA_TRASH_DAYS * 86_400_000);
      let purged = 0;
      for (;;) {
        const rows = await db
          .delete(mediaItems)
          .where(
            inArray(
              mediaItems.id,
              db.select({ id: mediaItems.id }).from(mediaItems).where(lt(mediaItems.deletedAt, before)).limit(200),
            ),
          )
          .returning();
        for (const row of rows) for (const key of keysOf(row)) await deps.files.remove(key);
        purged += rows.length;
        if (rows.length === 0) return purged;
      }
    },
    async usage(ctx: AuthContext) {
      const space = authorize(ctx, 'media.create');
      return { used_bytes: await repo.usedBytes(space.id), quota_bytes: deps.quotaBytes };
    },
  };
}

export type ItemService = ReturnType<typeof createItemService>;
