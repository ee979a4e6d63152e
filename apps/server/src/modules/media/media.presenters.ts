import type {
  MediaGroup,
  MediaItem,
  MediaKind,
  MediaLibrary,
  MediaPreview,
  MediaPreviewReason,
  MediaStatus,
} from '@athena/contract';
import type { GroupRow, ItemRow, LibraryFacts, LibraryRow } from './media.repo.ts';

export const toGroup = (row: GroupRow, libraryCount: number, canEdit: boolean): MediaGroup => ({
  id: row.id,
  name: row.name,
  library_count: libraryCount,
  can_edit: canEdit,
  created_at: row.createdAt.toISOString(),
});

export const toLibrary = (row: LibraryRow, facts: LibraryFacts | undefined, canEdit: boolean): MediaLibrary => ({
  id: row.id,
  group_id: row.groupId,
  name: row.name,
  description: row.description,
  created_by: row.createdBy,
  item_count: facts?.itemCount ?? 0,
  total_bytes: facts?.totalBytes ?? 0,
  can_edit: canEdit,
  created_at: row.createdAt.toISOString(),
  updated_at: row.updatedAt.toISOString(),
});

/** What an item's presentation needs beyond its row: looked up once per page of items. */
export interface ItemExtras {
  canEdit: boolean;
  thumbnailUrl: string | null;
  creatorName: string;
}

export const toItem = (row: ItemRow, extras: ItemExtras): MediaItem => ({
  id: row.id,
  library_id: row.libraryId,
  name: row.name,
  size: row.size,
  mime_type: row.mimeType,
  kind: row.kind as MediaKind,
  status: row.status as MediaStatus,
  status_reason: row.statusReason,
  description: row.description,
  duration_ms: row.durationMs,
  width: row.width,
  height: row.height,
  preview: row.preview as MediaPreview,
  preview_reason: (row.previewReason as MediaPreviewReason | null) ?? null,
  thumbnail_url: extras.thumbnailUrl,
  has_aux_image: row.auxImageKey !== null,
  created_by: row.createdBy,
  created_by_name: extras.creatorName,
  can_edit: extras.canEdit,
  deleted_at: row.deletedAt?.toISOString() ?? null,
  created_at: row.createdAt.toISOString(),
  updated_at: row.updatedAt.toISOString(),
});
