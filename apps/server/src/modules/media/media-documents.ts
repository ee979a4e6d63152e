import type { MediaKind } from '@athena/contract';
import { AppError } from '../../platform/http/app-error.ts';
import type { MediaRepo } from './media.repo.ts';
import type { MediaFiles } from './media-files.ts';

/** A live item of the space as another module may read it: facts from the row, bytes on demand. */
export interface MediaDocument {
  name: string;
  size: number;
  kind: MediaKind;
  mimeType: string;
  /** The stored bytes; refuses (with `tooLarge`) a file that turns out larger than `maxBytes`. */
  read(maxBytes: number, tooLarge: () => Error): Promise<Buffer>;
}

export type OpenMediaDocument = (spaceId: string, itemId: string) => Promise<MediaDocument>;

/**
 * The port through which another module (knowledge: "add to a knowledge base") reads an item's
 * bytes. The caller checks its own permissions; this only scopes the item to the space. An item in
 * the trash is NOT_FOUND, as it is for delivery.
 */
export function createMediaDocuments(deps: { repo: MediaRepo; files: MediaFiles }): OpenMediaDocument {
  return async (spaceId, itemId) => {
    const item = await deps.repo.findItem(spaceId, itemId);
    if (item.deletedAt) throw new AppError('NOT_FOUND');
    return {
      name: item.name,
      size: item.size,
      kind: item.kind as MediaKind,
      mimeType: item.mimeType,
      async read(maxBytes, tooLarge) {
        if (item.size > maxBytes) throw tooLarge();
        const chunks: Buffer[] = [];
        let total = 0;
        // Stored files never change, but the row's size is not trusted to bound memory: the read
        // stops one byte past the limit.
        const stream = deps.files.read(item.storageKey, { start: 0, end: maxBytes });
        try {
          for await (const chunk of stream as AsyncIterable<Buffer>) {
            total += chunk.length;
            if (total > maxBytes) throw tooLarge();
            chunks.push(chunk);
          }
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new AppError('NOT_FOUND');
          throw error;
        } finally {
          stream.destroy();
        }
        return Buffer.concat(chunks, total);
      },
    };
  };
}
