import { z } from 'zod';
import { defineRoute, defineUpload, emptyBody, noParams } from './envelope.ts';
import { text } from './text.ts';

/**
 * Media libraries (/medialib): groups of libraries, libraries of uploaded files (video, audio,
 * image, document). Files arrive over tus at MEDIA_UPLOAD_PATH and are read back through signed,
 * expiring URLs under MEDIA_FILE_PATH. docs/media.md explains the flow.
 */
const tag = 'media';
const base = (action: string) => `/api/athena/v1/media/${action}`;

/** requirements.md, Limits: a media file is at most 5 GB. */
export const MEDIA_FILE_MAX_BYTES = 5 * 1024 ** 3;
export const MEDIA_NAME_MAX = 100;
export const MEDIA_FILE_NAME_MAX = 255;
export const MEDIA_DESCRIPTION_MAX = 2000;
/** The tus endpoint (creation, PATCH, HEAD, DELETE); not a POST JSON route. */
export const MEDIA_UPLOAD_PATH = '/api/athena/v1/media/upload/';
/** Where an item's bytes are served from a signed URL (`media/item/url`). */
export const MEDIA_FILE_PATH = '/api/athena/v1/media/file/';
/** Where an item's thumbnail (its cover when one is set) is served from a signed URL. */
export const MEDIA_THUMB_PATH = '/api/athena/v1/media/thumb/';
/** A cover (auxiliary image) is a JPEG or PNG of at most 10 MB. */
export const MEDIA_AUX_IMAGE_TYPES = ['image/jpeg', 'image/png'] as const;
export const MEDIA_AUX_IMAGE_MAX_BYTES = 10 * 1024 ** 2;
export const MEDIA_AUX_IMAGE_PATH = base('item/aux_image');
/** Keys of the tus Upload-Metadata header the server reads. */
export const MEDIA_UPLOAD_METADATA = { library: 'library_id', name: 'filename' } as const;

export const MEDIA_KINDS = ['video', 'audio', 'image', 'document', 'other'] as const;
export type MediaKind = (typeof MEDIA_KINDS)[number];
export const MEDIA_STATUSES = ['processing', 'ready', 'failed'] as const;
export type MediaStatus = (typeof MEDIA_STATUSES)[number];
/** Items stay this many days in the trash, then a daily job deletes them for good. */
export const MEDIA_TRASH_DAYS = 30;
export const MEDIA_SORTS = ['time', 'name', 'size'] as const;
/**
 * The preview (thumbnail, poster frame, waveform) made after an upload: `pending` until the
 * processing job ran, `ready`, or `none` with a reason; the item is usable in every case.
 */
export const MEDIA_PREVIEWS = ['pending', 'ready', 'none'] as const;
export type MediaPreview = (typeof MEDIA_PREVIEWS)[number];
/**
 * Why an item has no preview: `unsupported` (a document or a type without one), `too_large` (an
 * image beyond MEDIA_PREVIEW_MAX_PIXELS, refused before decoding: a decompression bomb costs
 * nothing), `unreadable` (damaged, truncated, or content that does not match its type), `timeout`.
 * The pages say each in the reader's language.
 */
export const MEDIA_PREVIEW_REASONS = ['unsupported', 'too_large', 'unreadable', 'timeout'] as const;
export type MediaPreviewReason = (typeof MEDIA_PREVIEW_REASONS)[number];
export const MEDIA_PREVIEW_MAX_PIXELS = 100_000_000;

const idField = text().min(1).max(64);
const nameField = text({ error: 'MEDIA_NAME_INVALID' })
  .trim()
  .min(1, { error: 'MEDIA_NAME_INVALID' })
  .max(MEDIA_NAME_MAX, { error: 'MEDIA_NAME_INVALID' });
const descriptionField = text({ error: 'MEDIA_DESCRIPTION_INVALID' })
  .trim()
  .max(MEDIA_DESCRIPTION_MAX, { error: 'MEDIA_DESCRIPTION_INVALID' });
const keywordField = text().trim().max(MEDIA_NAME_MAX).optional();
const page = { page: z.number().int().min(1).default(1), page_size: z.number().int().min(1).max(100).default(20) };

export const mediaGroupSchema = z.object({
  id: text(),
  name: text(),
  library_count: z.number().int(),
  /** Whether the reader may rename or delete it (its creator, the team's creator and admins). */
  can_edit: z.boolean(),
  created_at: text(),
});
export type MediaGroup = z.infer<typeof mediaGroupSchema>;

export const mediaLibrarySchema = z.object({
  id: text(),
  group_id: text().nullable(),
  name: text(),
  description: text(),
  created_by: text(),
  /** Items not in the trash, and their bytes. */
  item_count: z.number().int(),
  total_bytes: z.number().int(),
  can_edit: z.boolean(),
  created_at: text(),
  updated_at: text(),
});
export type MediaLibrary = z.infer<typeof mediaLibrarySchema>;

export const mediaItemSchema = z.object({
  id: text(),
  library_id: text(),
  name: text(),
  size: z.number().int(),
  /** Sniffed from the bytes, never the name or the declared type. */
  mime_type: text(),
  kind: z.enum(MEDIA_KINDS),
  status: z.enum(MEDIA_STATUSES),
  /** Why processing failed or what looked wrong (a name that lies about the content). */
  status_reason: text().nullable(),
  description: text(),
  duration_ms: z.number().int().nullable(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  preview: z.enum(MEDIA_PREVIEWS),
  /** Why there is no preview (see MEDIA_PREVIEW_REASONS); null otherwise. */
  preview_reason: z.enum(MEDIA_PREVIEW_REASONS).nullable(),
  /** The cover if one is set, else the generated thumbnail: a signed URL, or null when neither. */
  thumbnail_url: text().nullable(),
  /** Whether the person set a cover (auxiliary image), which replaces the generated thumbnail. */
  has_aux_image: z.boolean(),
  created_by: text(),
  /** The uploader's nickname as it is now. */
  created_by_name: text(),
  can_edit: z.boolean(),
  /** Set while the item is in the trash. */
  deleted_at: text().nullable(),
  created_at: text(),
  updated_at: text(),
});
export type MediaItem = z.infer<typeof mediaItemSchema>;

const okSchema = z.object({ ok: z.literal(true) });

export const mediaRoutes = {
  groupList: defineRoute({
    path: base('group/list'),
    body: emptyBody,
    data: z.object({ items: z.array(mediaGroupSchema) }),
    auth: true,
    summary: "The space's media library groups, by name",
    tag,
  }),
  groupCreate: defineRoute({
    path: base('group/create'),
    body: z.object({ name: nameField }),
    data: mediaGroupSchema,
    auth: true,
    summary: 'Create a group of media libraries (any member)',
    tag,
  }),
  groupRename: defineRoute({
    path: base('group/rename'),
    body: z.object({ id: idField, name: nameField }),
    data: mediaGroupSchema,
    auth: true,
    summary: 'Rename a group (creator and admins)',
    tag,
  }),
  groupDelete: defineRoute({
    path: base('group/delete'),
    body: z.object({ id: idField }),
    data: okSchema,
    auth: true,
    summary: 'Delete a group; its libraries stay, ungrouped (creator and admins)',
    tag,
  }),
  libraryList: defineRoute({
    path: base('library/list'),
    body: z.object({ group_id: idField.optional(), keyword: keywordField, ...page }),
    data: z.object({ items: z.array(mediaLibrarySchema), total: z.number().int() }),
    auth: true,
    summary: "The space's media libraries, newest first; filter by group and name",
    tag,
  }),
  libraryGet: defineRoute({
    path: base('library/get'),
    body: z.object({ id: idField }),
    data: mediaLibrarySchema,
    auth: true,
    summary: 'One media library',
    tag,
  }),
  libraryCreate: defineRoute({
    path: base('library/create'),
    body: z.object({
      name: nameField,
      description: descriptionField.default(''),
      group_id: idField.nullable().default(null),
    }),
    data: mediaLibrarySchema,
    auth: true,
    summary: 'Create a media library (any member)',
    tag,
  }),
  libraryUpdate: defineRoute({
    path: base('library/update'),
    body: z.object({ id: idField, name: nameField.optional(), description: descriptionField.optional() }),
    data: mediaLibrarySchema,
    auth: true,
    summary: "Rename a library or change its description (its creator, the team's creator and admins)",
    tag,
  }),
  libraryMove: defineRoute({
    path: base('library/move'),
    body: z.object({ id: idField, group_id: idField.nullable() }),
    data: mediaLibrarySchema,
    auth: true,
    summary: 'Put a library into a group, or take it out (null)',
    tag,
  }),
  libraryDelete: defineRoute({
    path: base('library/delete'),
    body: z.object({ id: idField }),
    data: okSchema,
    auth: true,
    summary: 'Delete a library and every file in it',
    tag,
  }),
  itemList: defineRoute({
    path: base('item/list'),
    body: z.object({
      library_id: idField,
      kind: z.enum(MEDIA_KINDS).optional(),
      keyword: keywordField,
      sort: z.enum(MEDIA_SORTS).default('time'),
      order: z.enum(['asc', 'desc']).default('desc'),
      /** Items in the trash instead of the live ones. */
      trash: z.boolean().default(false),
      ...page,
    }),
    data: z.object({ items: z.array(mediaItemSchema), total: z.number().int() }),
    auth: true,
    summary: "A library's items: filter by kind and name, sort by time, name or size",
    tag,
  }),
  itemGet: defineRoute({
    path: base('item/get'),
    body: z.object({ id: idField }),
    data: mediaItemSchema,
    auth: true,
    summary: 'One media item',
    tag,
  }),
  itemUrl: defineRoute({
    path: base('item/url'),
    body: z.object({ id: idField }),
    data: z.object({ url: text(), expires_in: z.number().int() }),
    auth: true,
    summary: 'A signed, expiring URL of the file for <video>, <img> or a download',
    tag,
  }),
  itemUpdate: defineRoute({
    path: base('item/update'),
    body: z.object({ id: idField, description: descriptionField }),
    data: mediaItemSchema,
    auth: true,
    summary: "Change an item's description (its uploader, the team's creator and admins)",
    tag,
  }),
  itemMove: defineRoute({
    path: base('item/move'),
    body: z.object({ id: idField, library_id: idField }),
    data: mediaItemSchema,
    auth: true,
    summary: 'Move an item to another library of the space',
    tag,
  }),
  itemDelete: defineRoute({
    path: base('item/delete'),
    body: z.object({ id: idField }),
    data: mediaItemSchema,
    auth: true,
    summary: 'Move an item to the trash (restore undoes it)',
    tag,
  }),
  itemRestore: defineRoute({
    path: base('item/restore'),
    body: z.object({ id: idField }),
    data: mediaItemSchema,
    auth: true,
    summary: 'Take an item out of the trash',
    tag,
  }),
  itemPurge: defineRoute({
    path: base('item/purge'),
    body: z.object({ id: idField }),
    data: okSchema,
    auth: true,
    summary: 'Delete an item in the trash for good, its file included',
    tag,
  }),
  itemAuxImageClear: defineRoute({
    path: base('item/aux_image/clear'),
    body: z.object({ id: idField }),
    data: mediaItemSchema,
    auth: true,
    summary: "Remove an item's cover; the generated thumbnail shows again",
    tag,
  }),
  itemReprocess: defineRoute({
    path: base('item/reprocess'),
    body: z.object({ id: idField }),
    data: mediaItemSchema,
    auth: true,
    summary: "Make an item's preview again (after a failure)",
    tag,
  }),
  usage: defineRoute({
    path: base('usage'),
    body: emptyBody,
    data: z.object({ used_bytes: z.number().int(), quota_bytes: z.number().int() }),
    auth: true,
    summary: "The team's media storage used (trash and unfinished uploads included) against its quota",
    tag,
  }),
};

/** Set an item's cover (auxiliary image): the raw JPEG or PNG bytes as the body, checked by content. */
export const mediaAuxImageUpload = defineUpload({
  path: MEDIA_AUX_IMAGE_PATH,
  query: z.object({ id: idField }),
  headers: noParams,
  contentTypes: MEDIA_AUX_IMAGE_TYPES,
  maxBytes: MEDIA_AUX_IMAGE_MAX_BYTES,
  tooLarge: 'MEDIA_AUX_IMAGE_TOO_LARGE',
  data: mediaItemSchema,
  auth: true,
  summary: "Set an item's cover: the raw JPEG or PNG bytes (at most 10 MB) as the body; replaces the thumbnail",
  tag,
});
