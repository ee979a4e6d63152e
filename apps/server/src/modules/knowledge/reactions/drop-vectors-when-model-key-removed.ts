import type { Events } from '../../../platform/events.ts';
import type { VectorStore } from '../vectors.ts';

/**
 * When a model key is deleted (`model-key.removed`): the vectors embedded with it are dropped,
 * as no query can be embedded with that key again.
 */
export function dropVectorsWhenModelKeyRemoved(events: Events, vectors: Pick<VectorStore, 'deleteForKey'>) {
  events.react('model-key.removed', {
    name: 'drop-vectors-when-model-key-removed',
    run: ({ keyId }) => vectors.deleteForKey(keyId),
  });
}
