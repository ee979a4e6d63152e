import { type InvalidationBus, TaggedCache } from '../../platform/cache.ts';
import type { ItemRow } from './media.repo.ts';

const itemTag = (id: string) => `media-item:${id}`;
const libraryTag = (id: string) => `media-library:${id}`;

/** Whether a signed URL may serve the item's bytes: complete and not in the trash. */
export const deliverable = (row: ItemRow) => !row.deletedAt && row.status !== 'processing';

/**
 * The rows the signed file URL serves, by id. A player seeking through a video sends a range
 * request every few seconds, and the row's lookup was half of each one's cost (the embedded
 * database runs on the event loop). Only deliverable rows are kept; every change to an item and a
 * library's deletion is published on the invalidation bus, so a trashed item stops being served at
 * once, in every process.
 */
export function createDeliveryCache(bus: InvalidationBus) {
  const cache = new TaggedCache<ItemRow>(60_000, 10_000);
  bus.subscribe((key) => {
    if (key.startsWith('media-item:') || key.startsWith('media-library:')) cache.invalidate(key);
  });
  return {
    async read(id: string, load: () => Promise<ItemRow | undefined>) {
      const hit = cache.get(id);
      if (hit) return hit;
      const row = await load();
      if (row && deliverable(row)) cache.set(id, row, [itemTag(row.id), libraryTag(row.libraryId)]);
      return row;
    },
    itemChanged: (id: string) => bus.publish(itemTag(id)),
    libraryRemoved: (id: string) => bus.publish(libraryTag(id)),
  };
}

export type DeliveryCache = ReturnType<typeof createDeliveryCache>;
