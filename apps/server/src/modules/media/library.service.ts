import { can, type mediaRoutes, type RouteBody } from '@athena/contract';
import { eq } from 'drizzle-orm';
import { type AuthContext, authorize } from '../../platform/auth-guard.ts';
import type { Db } from '../../platform/db/database.ts';
import { AppError } from '../../platform/http/app-error.ts';
import type { DeliveryCache } from './delivery-cache.ts';
import { toGroup, toLibrary } from './media.presenters.ts';
import type { LibraryRow, MediaRepo } from './media.repo.ts';
import { mediaGroups, mediaLibraries, mediaUploads } from './media.schema.ts';
import type { MediaFiles } from './media-files.ts';

type Routes = typeof mediaRoutes;

/** Groups and libraries. Each follows media.* (docs/permissions.md). */
export function createLibraryService(deps: {
  db: Db;
  repo: MediaRepo;
  files: MediaFiles;
  delivery: DeliveryCache;
  now: () => Date;
}) {
  const { db, repo, now } = deps;
  const mayEdit = (ctx: AuthContext, row: { createdBy: string }) =>
    Boolean(ctx.space && can(ctx.space.role, 'media.edit', { isOwner: row.createdBy === ctx.userId }));
  const present = async (ctx: AuthContext, row: LibraryRow) =>
    toLibrary(row, (await repo.libraryFacts([row.id])).get(row.id), mayEdit(ctx, row));
  /** Ownership needs the row, so the permission check follows the (space-scoped) lookup. */
  const editable = async (ctx: AuthContext, id: string, action: 'media.edit' | 'media.delete') => {
    const space = authorize(ctx, 'media.create');
    const row = await repo.findLibrary(space.id, id);
    authorize(ctx, action, { isOwner: row.createdBy === ctx.userId });
    return row;
  };
  const checkGroup = async (spaceId: string, groupId: string | null | undefined) => {
    if (groupId) await repo.findGroup(spaceId, groupId);
    return groupId ?? null;
  };

  return {
    async listGroups(ctx: AuthContext) {
      const space = authorize(ctx, 'media.create');
      const rows = await repo.listGroups(space.id);
      return { items: rows.map((row) => toGroup(row.group, row.libraryCount, mayEdit(ctx, row.group))) };
    },
    async createGroup(ctx: AuthContext, name: string) {
      const space = authorize(ctx, 'media.create');
      if (await repo.groupNameTaken(space.id, name)) throw new AppError('MEDIA_GROUP_NAME_TAKEN');
      const [row] = await db
        .insert(mediaGroups)
        .values({ spaceId: space.id, name, createdBy: ctx.userId })
        .onConflictDoNothing()
        .returning();
      if (!row) throw new AppError('MEDIA_GROUP_NAME_TAKEN');
      return toGroup(row, 0, mayEdit(ctx, row));
    },
    async renameGroup(ctx: AuthContext, id: string, name: string) {
      const space = authorize(ctx, 'media.create');
      const group = await repo.findGroup(space.id, id);
      authorize(ctx, 'media.edit', { isOwner: group.createdBy === ctx.userId });
      if (await repo.groupNameTaken(space.id, name, id)) throw new AppError('MEDIA_GROUP_NAME_TAKEN');
      const [row] = await db.update(mediaGroups).set({ name }).where(eq(mediaGroups.id, group.id)).returning();
      return toGroup(row ?? group, await repo.libraryCount(group.id), mayEdit(ctx, group));
    },
    async deleteGroup(ctx: AuthContext, id: string) {
      const space = authorize(ctx, 'media.create');
      const group = await repo.findGroup(space.id, id);
      authorize(ctx, 'media.delete', { isOwner: group.createdBy === ctx.userId });
      // The foreign key sets the libraries' group to null: they stay, ungrouped.
      await db.delete(mediaGroups).where(eq(mediaGroups.id, group.id));
      return { ok: true as const };
    },

    async list(ctx: AuthContext, body: RouteBody<Routes['libraryList']>) {
      const space = authorize(ctx, 'media.create');
      const groupId = await checkGroup(space.id, body.group_id);
      const page = { page: body.page ?? 1, size: body.page_size ?? 20 };
      const { rows, total } = await repo.listLibraries(space.id, { groupId, keyword: body.keyword }, page);
      const facts = await repo.libraryFacts(rows.map((row) => row.id));
      return { items: rows.map((row) => toLibrary(row, facts.get(row.id), mayEdit(ctx, row))), total };
    },
    async get(ctx: AuthContext, id: string) {
      const space = authorize(ctx, 'media.create');
      return present(ctx, await repo.findLibrary(space.id, id));
    },
    async create(ctx: AuthContext, body: RouteBody<Routes['libraryCreate']>) {
      const space = authorize(ctx, 'media.create');
      const groupId = await checkGroup(space.id, body.group_id);
      const [row] = await db
        .insert(mediaLibraries)
        .values({
          spaceId: space.id,
          groupId,
          name: body.name,
          description: body.description ?? '',
          createdBy: ctx.userId,
        })
        .returning();
      if (!row) throw new Error('media: library insert returned nothing');
      return present(ctx, row);
    },
    async update(ctx: AuthContext, body: RouteBody<Routes['libraryUpdate']>) {
      const library = await editable(ctx, body.id, 'media.edit');
      const [row] = await db
        .update(mediaLibraries)
        .set({
          name: body.name ?? library.name,
          description: body.description ?? library.description,
          updatedAt: now(),
        })
        .where(eq(mediaLibraries.id, library.id))
        .returning();
      return present(ctx, row ?? library);
    },
    async move(ctx: AuthContext, id: string, groupId: string | null) {
      const library = await editable(ctx, id, 'media.edit');
      const group = await checkGroup(library.spaceId, groupId);
      const [row] = await db
        .update(mediaLibraries)
        .set({ groupId: group, updatedAt: now() })
        .where(eq(mediaLibraries.id, library.id))
        .returning();
      return present(ctx, row ?? library);
    },
    async remove(ctx: AuthContext, id: string) {
      const library = await editable(ctx, id, 'media.delete');
      const keys = await repo.libraryStorageKeys(library.id);
      const uploads = await db.select({ id: mediaUploads.id }).from(mediaUploads).where(eq(mediaUploads.libraryId, id));
      // Rows first (items and uploads cascade): a file without a row is unreachable, never the reverse.
      await db.delete(mediaLibraries).where(eq(mediaLibraries.id, library.id));
      await deps.delivery.libraryRemoved(library.id);
      for (const key of keys) await deps.files.remove(key);
      for (const upload of uploads) await deps.files.removeUpload(upload.id);
      return { ok: true as const };
    },
  };
}

export type LibraryService = ReturnType<typeof createLibraryService>;
