import type { MediaGroup, MediaItem, MediaKind, MediaLibrary, MediaStatus } from '@athena/contract';
import type { GroupRow, ItemRow, LibraryFacts, LibraryRow } from './media.repo.ts';

export const toGroup = (row: GroupRow, libraryCount: number): MediaGroup => ({
  id: row.id,
  name: row.name,
  library_count: libraryCount,
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

export const toItem = (row: ItemRow, canEdit: boolean): MediaItem => ({
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
  created_by: row.createdBy,
  can_edit: canEdit,
  deleted_at: row.deletedAt?.toISOString() ?? null,
  created_at: row.createdAt.toISOString(),
  updated_at: row.updatedAt.toISOString(),
});
