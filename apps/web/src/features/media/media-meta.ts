import { MEDIA_AUX_IMAGE_MAX_BYTES, type MediaItem } from '@athena/contract';
import { formatClock } from '../../lib/format.ts';
import type { ImageRules } from '../../lib/image-check.ts';

/** "1:02" or "1:02:03" for video and audio whose length the server measured; null otherwise. */
export function durationText(item: Pick<MediaItem, 'kind' | 'duration_ms'>): string | null {
  if (item.duration_ms === null || (item.kind !== 'video' && item.kind !== 'audio')) return null;
  return formatClock(item.duration_ms / 1000);
}

/** "1920 × 1080" for images and videos whose size the server measured; null otherwise. */
export function dimensionsText(item: Pick<MediaItem, 'kind' | 'width' | 'height'>): string | null {
  if (!item.width || !item.height || (item.kind !== 'video' && item.kind !== 'image')) return null;
  return `${item.width} × ${item.height}`;
}

/**
 * The pages (1-based, of `pageSize` items) holding an item between `first` and `last` (the rows on
 * screen) whose preview is still being made: only those are read again while waiting for it.
 */
export function pendingPages(
  items: Pick<MediaItem, 'preview'>[],
  first: number,
  last: number,
  pageSize: number,
): number[] {
  const pages = new Set<number>();
  for (let index = Math.max(0, first); index <= last && index < items.length; index++) {
    if (items[index]?.preview === 'pending') pages.add(Math.floor(index / pageSize) + 1);
  }
  return [...pages].sort((a, b) => a - b);
}

/** A cover: a JPEG or PNG of at most MEDIA_AUX_IMAGE_MAX_BYTES, refused in the server's own words. */
export const COVER_IMAGE: ImageRules = {
  maxBytes: MEDIA_AUX_IMAGE_MAX_BYTES,
  invalid: 'MEDIA_AUX_IMAGE_INVALID',
  tooLarge: 'MEDIA_AUX_IMAGE_TOO_LARGE',
};
