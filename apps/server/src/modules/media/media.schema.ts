import { sql } from 'drizzle-orm';
import { bigint, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from '../../platform/db/columns.ts';
import { users } from '../auth/auth.schema.ts';
import { spaces } from '../space/space.schema.ts';

// Tables of the media module (docs/media.md). Other modules may join them in queries.

const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

/** A named shelf for libraries; deleting one leaves its libraries ungrouped. */
export const mediaGroups = pgTable(
  'media_groups',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    spaceId: uuid('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    createdBy: uuid('created_by')
      .notNull()
      .references(() => users.id),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('media_groups_space_name_idx').on(t.spaceId, t.name)],
);

export const mediaLibraries = pgTable(
  'media_libraries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    spaceId: uuid('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    groupId: uuid('group_id').references(() => mediaGroups.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    createdBy: uuid('created_by')
      .notNull()
      .references(() => users.id),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('media_libraries_space_idx').on(t.spaceId, t.createdAt),
    index('media_libraries_group_idx').on(t.groupId),
  ],
);

/** One uploaded file. Rows exist from the end of the upload on: `processing`, then `ready` or `failed`. */
export const mediaItems = pgTable(
  'media_items',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    spaceId: uuid('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    libraryId: uuid('library_id')
      .notNull()
      .references(() => mediaLibraries.id, { onDelete: 'cascade' }),
    /** The name the uploader gave, cleaned of paths and control characters; shown, never a path. */
    name: text('name').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    /** Sniffed from the magic bytes. */
    mimeType: text('mime_type').notNull(),
    /** video | audio | image | document | other */
    kind: text('kind').notNull(),
    /** processing | ready | failed */
    status: text('status').notNull(),
    statusReason: text('status_reason'),
    description: text('description').notNull().default(''),
    /** pending | ready | none: the preview made by the processing job (docs/media.md). */
    preview: text('preview').notNull().default('pending'),
    previewReason: text('preview_reason'),
    /** The generated thumbnail (WebP): a video's poster frame, an image's, an audio waveform. */
    thumbKey: text('thumb_key'),
    /** The cover the person chose (jpg/png, re-encoded without its metadata); shown instead. */
    auxImageKey: text('aux_image_key'),
    /** Where the bytes are: random, never derived from the name. */
    storageKey: text('storage_key').notNull(),
    sha256: text('sha256'),
    durationMs: integer('duration_ms'),
    width: integer('width'),
    height: integer('height'),
    createdBy: uuid('created_by')
      .notNull()
      .references(() => users.id),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    /** Set while in the trash; a purge deletes the row and the file. */
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [
    // The listing: a library's live (or trashed) items by time, name or size.
    index('media_items_library_time_idx').on(t.libraryId, t.createdAt, t.id),
    index('media_items_library_name_idx').on(t.libraryId, t.name),
    index('media_items_library_size_idx').on(t.libraryId, t.size),
    // The quota: a space's bytes.
    index('media_items_space_idx').on(t.spaceId),
    index('media_items_trash_idx').on(t.deletedAt).where(sql`${t.deletedAt} is not null`),
    // The processing sweep: items whose preview was never made (a crash, jobs not yet running).
    index('media_items_preview_pending_idx').on(t.createdAt).where(sql`${t.preview} = 'pending'`),
  ],
);

/** A tus upload in flight: its bytes count against the quota until it finishes or expires. */
export const mediaUploads = pgTable(
  'media_uploads',
  {
    /** The tus upload id (also the file's name in the upload directory). */
    id: text('id').primaryKey(),
    spaceId: uuid('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    libraryId: uuid('library_id')
      .notNull()
      .references(() => mediaLibraries.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    name: text('name').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    /** The offset last seen; the store's file is the truth. */
    offset: bigint('offset', { mode: 'number' }).notNull().default(0),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('media_uploads_space_idx').on(t.spaceId), index('media_uploads_expires_idx').on(t.expiresAt)],
);
