import { and, asc, count, desc, eq, ilike, isNotNull, isNull, lt, ne, type SQL, sql } from 'drizzle-orm';
import { isUuid } from '../../platform/crypto.ts';
import type { Db } from '../../platform/db/database.ts';
import { escapeLike } from '../../platform/db/like.ts';
import { AppError } from '../../platform/http/app-error.ts';
import { users } from '../auth/auth.schema.ts';
import { mediaGroups, mediaItems, mediaLibraries, mediaUploads } from './media.schema.ts';

export type GroupRow = typeof mediaGroups.$inferSelect;
export type LibraryRow = typeof mediaLibraries.$inferSelect;
export type ItemRow = typeof mediaItems.$inferSelect;
export type UploadRow = typeof mediaUploads.$inferSelect;
export interface LibraryFacts {
  itemCount: number;
  totalBytes: number;
}

const SORT_COLUMNS = { time: mediaItems.createdAt, name: mediaItems.name, size: mediaItems.size } as const;

/** Every lookup is scoped by space; a foreign or malformed id is NOT_FOUND, like a missing one. */
export function createMediaRepo(db: Db) {
  const found = <T>(row: T | undefined): T => {
    if (!row) throw new AppError('NOT_FOUND');
    return row;
  };
  const one = async <T>(spaceId: string, id: string, find: () => Promise<T[]>) =>
    found(isUuid(id) && isUuid(spaceId) ? (await find())[0] : undefined);

  return {
    findGroup: (spaceId: string, id: string) =>
      one(spaceId, id, () =>
        db
          .select()
          .from(mediaGroups)
          .where(and(eq(mediaGroups.spaceId, spaceId), eq(mediaGroups.id, id))),
      ),
    findLibrary: (spaceId: string, id: string) =>
      one(spaceId, id, () =>
        db
          .select()
          .from(mediaLibraries)
          .where(and(eq(mediaLibraries.spaceId, spaceId), eq(mediaLibraries.id, id))),
      ),
    findItem: (spaceId: string, id: string) =>
      one(spaceId, id, () =>
        db
          .select()
          .from(mediaItems)
          .where(and(eq(mediaItems.spaceId, spaceId), eq(mediaItems.id, id))),
      ),
    /** For the signed file URL, which carries no space: the signature already names the item. */
    itemById: async (id: string) =>
      isUuid(id) ? (await db.select().from(mediaItems).where(eq(mediaItems.id, id)))[0] : undefined,

    async listGroups(spaceId: string) {
      const libraries = db
        .select({ groupId: mediaLibraries.groupId, n: count().as('n') })
        .from(mediaLibraries)
        .where(eq(mediaLibraries.spaceId, spaceId))
        .groupBy(mediaLibraries.groupId)
        .as('l');
      return db
        .select({ group: mediaGroups, libraryCount: sql<number>`coalesce(${libraries.n}, 0)::int` })
        .from(mediaGroups)
        .leftJoin(libraries, eq(libraries.groupId, mediaGroups.id))
        .where(eq(mediaGroups.spaceId, spaceId))
        .orderBy(asc(mediaGroups.name));
    },
    async groupNameTaken(spaceId: string, name: string, exceptId?: string) {
      const where = [eq(mediaGroups.spaceId, spaceId), eq(mediaGroups.name, name)];
      if (exceptId) where.push(ne(mediaGroups.id, exceptId));
      const [row] = await db
        .select({ id: mediaGroups.id })
        .from(mediaGroups)
        .where(and(...where));
      return Boolean(row);
    },
    async libraryCount(groupId: string) {
      const [row] = await db.select({ n: count() }).from(mediaLibraries).where(eq(mediaLibraries.groupId, groupId));
      return row?.n ?? 0;
    },

    async listLibraries(spaceId: string, filter: { groupId?: string | null; keyword?: string }, page: Page) {
      const where: SQL[] = [eq(mediaLibraries.spaceId, spaceId)];
      if (filter.groupId) where.push(eq(mediaLibraries.groupId, filter.groupId));
      if (filter.keyword) where.push(ilike(mediaLibraries.name, `%${escapeLike(filter.keyword)}%`));
      const [rows, [total]] = await Promise.all([
        db
          .select()
          .from(mediaLibraries)
          .where(and(...where))
          .orderBy(desc(mediaLibraries.createdAt), desc(mediaLibraries.id))
          .limit(page.size)
          .offset((page.page - 1) * page.size),
        db
          .select({ n: count() })
          .from(mediaLibraries)
          .where(and(...where)),
      ]);
      return { rows, total: total?.n ?? 0 };
    },
    /** Live items and their bytes per library. */
    async libraryFacts(libraryIds: string[]): Promise<Map<string, LibraryFacts>> {
      const facts = new Map<string, LibraryFacts>();
      if (libraryIds.length === 0) return facts;
      const rows = await db
        .select({
          libraryId: mediaItems.libraryId,
          n: count(),
          bytes: sql<string>`coalesce(sum(${mediaItems.size}), 0)`,
        })
        .from(mediaItems)
        .where(and(sql`${mediaItems.libraryId} in ${libraryIds}`, isNull(mediaItems.deletedAt)))
        .groupBy(mediaItems.libraryId);
      for (const row of rows) facts.set(row.libraryId, { itemCount: row.n, totalBytes: Number(row.bytes) });
      return facts;
    },

    async listItems(
      libraryId: string,
      filter: { kind?: string; keyword?: string; trash: boolean },
      sort: { by: keyof typeof SORT_COLUMNS; order: 'asc' | 'desc' },
      page: Page,
    ) {
      const where: SQL[] = [
        eq(mediaItems.libraryId, libraryId),
        filter.trash ? isNotNull(mediaItems.deletedAt) : isNull(mediaItems.deletedAt),
      ];
      if (filter.kind) where.push(eq(mediaItems.kind, filter.kind));
      if (filter.keyword) where.push(ilike(mediaItems.name, `%${escapeLike(filter.keyword)}%`));
      const direction = sort.order === 'asc' ? asc : desc;
      const [rows, [total]] = await Promise.all([
        db
          .select()
          .from(mediaItems)
          .where(and(...where))
          // The id breaks ties, so pages never repeat or skip an item.
          .orderBy(direction(SORT_COLUMNS[sort.by]), direction(mediaItems.id))
          .limit(page.size)
          .offset((page.page - 1) * page.size),
        db
          .select({ n: count() })
          .from(mediaItems)
          .where(and(...where)),
      ]);
      return { rows, total: total?.n ?? 0 };
    },

    /** Bytes a space holds: items (trash included) and the declared size of uploads in flight. */
    async usedBytes(spaceId: string) {
      const [[items], [uploads]] = await Promise.all([
        db
          .select({ bytes: sql<string>`coalesce(sum(${mediaItems.size}), 0)` })
          .from(mediaItems)
          .where(eq(mediaItems.spaceId, spaceId)),
        db
          .select({ bytes: sql<string>`coalesce(sum(${mediaUploads.size}), 0)` })
          .from(mediaUploads)
          .where(eq(mediaUploads.spaceId, spaceId)),
      ]);
      return Number(items?.bytes ?? 0) + Number(uploads?.bytes ?? 0);
    },

    /**
     * An upload's row and the bytes the rest of its space holds (items, trash included, and the
     * other uploads in flight): what every chunk is checked against, in one statement. As three,
     * each chunk waited for two turns of the embedded database's thread.
     */
    async findUpload(id: string) {
      const others = sql<string>`(select coalesce(sum(${mediaItems.size}), 0) from ${mediaItems}
          where ${mediaItems.spaceId} = ${mediaUploads.spaceId})
        + (select coalesce(sum(other.size), 0) from ${mediaUploads} other
          where other.space_id = ${mediaUploads.spaceId} and other.id <> ${mediaUploads.id})`;
      const [row] = await db
        .select({ upload: mediaUploads, othersBytes: others })
        .from(mediaUploads)
        .where(eq(mediaUploads.id, id));
      return row && { ...row.upload, othersBytes: Number(row.othersBytes) };
    },
    expiredUploads: (now: Date) =>
      db.select({ id: mediaUploads.id }).from(mediaUploads).where(lt(mediaUploads.expiresAt, now)).limit(500),
    deleteUpload: (id: string) => db.delete(mediaUploads).where(eq(mediaUploads.id, id)),
    /** Keys of a library's files (thumbnails and covers too), for removing them once the rows are gone. */
    async libraryStorageKeys(libraryId: string) {
      const rows = await db
        .select({ file: mediaItems.storageKey, thumb: mediaItems.thumbKey, cover: mediaItems.auxImageKey })
        .from(mediaItems)
        .where(eq(mediaItems.libraryId, libraryId));
      return rows.flatMap((row) => keysOf({ storageKey: row.file, thumbKey: row.thumb, auxImageKey: row.cover }));
    },
    /** The uploaders' nicknames as they are now. */
    async nicknames(userIds: string[]) {
      const unique = [...new Set(userIds)];
      if (unique.length === 0) return new Map<string, string>();
      const rows = await db
        .select({ id: users.id, nickname: users.nickname })
        .from(users)
        .where(sql`${users.id} in ${unique}`);
      return new Map(rows.map((row) => [row.id, row.nickname]));
    },
  };
}

/** Every stored file an item has: the original, its thumbnail and its cover. */
export const keysOf = (row: Pick<ItemRow, 'storageKey' | 'thumbKey' | 'auxImageKey'>) =>
  [row.storageKey, row.thumbKey, row.auxImageKey].filter((key): key is string => Boolean(key));

export interface Page {
  page: number;
  size: number;
}
export type MediaRepo = ReturnType<typeof createMediaRepo>;
