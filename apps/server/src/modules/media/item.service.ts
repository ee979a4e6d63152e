import { can, MEDIA_FILE_PATH, type mediaRoutes, type RouteBody } from '@athena/contract';
import { eq } from 'drizzle-orm';
import { type AuthContext, authorize } from '../../platform/auth-guard.ts';
import type { Db } from '../../platform/db/database.ts';
import { AppError } from '../../platform/http/app-error.ts';
import { createUrlSigner } from '../../platform/signed-url.ts';
import { toItem } from './media.presenters.ts';
import type { ItemRow, MediaRepo } from './media.repo.ts';
import { mediaItems } from './media.schema.ts';
import type { MediaFiles } from './media-files.ts';

type Routes = typeof mediaRoutes;

/** Items of a library: listing, editing, the trash, and signed URLs of their bytes. */
export function createItemService(deps: {
  db: Db;
  repo: MediaRepo;
  files: MediaFiles;
  masterKey: Buffer;
  quotaBytes: number;
  now: () => Date;
}) {
  const { db, repo, now } = deps;
  const signer = createUrlSigner(deps.masterKey, 'media-file-url', now);
  const mayEdit = (ctx: AuthContext, row: ItemRow) =>
    Boolean(ctx.space && can(ctx.space.role, 'media.edit', { isOwner: row.createdBy === ctx.userId }));
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
    return toItem(saved ?? row, mayEdit(ctx, saved ?? row));
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
      return { items: rows.map((row) => toItem(row, mayEdit(ctx, row))), total };
    },
    async get(ctx: AuthContext, id: string) {
      const row = await find(ctx, id);
      return toItem(row, mayEdit(ctx, row));
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
      const row = await repo.itemById(id);
      return row && !row.deletedAt && row.status !== 'processing' ? { row, left } : null;
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
      await deps.files.remove(row.storageKey);
      return { ok: true as const };
    },
    async usage(ctx: AuthContext) {
      const space = authorize(ctx, 'media.create');
      return { used_bytes: await repo.usedBytes(space.id), quota_bytes: deps.quotaBytes };
    },
  };
}

export type ItemService = ReturnType<typeof createItemService>;
