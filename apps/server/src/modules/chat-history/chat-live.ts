import { randomUUID } from 'node:crypto';
import type { InvalidationBus } from '../../platform/cache.ts';
import type { ChatScope } from './chat-scope.ts';

const PREFIX = 'chat:';
/** Ids named in one notice; more than this many changed at once and readers refetch everything. */
const MAX_IDS = 200;

type Listener = { spaceId: string; sceneId: number; push: (conversationIds: string[]) => void };

/**
 * Live chat-history updates across processes: whoever stores messages announces the
 * conversations that changed on the invalidation bus (PostgreSQL NOTIFY), and every process tells
 * the live streams open on it for that space and scene. An empty id list means "many changed".
 */
export function createChatLive(bus: InvalidationBus) {
  const listeners = new Set<Listener>();
  // The bus hands a notice to this process directly and again through NOTIFY: each is told once.
  const seen = new Set<string>();
  bus.subscribe((key) => {
    if (!key.startsWith(PREFIX)) return;
    const [notice, spaceId, scene, ids = ''] = key.slice(PREFIX.length).split(':');
    if (seen.has(notice)) return;
    seen.add(notice);
    if (seen.size > 1_000) seen.delete(seen.values().next().value as string);
    const sceneId = Number(scene);
    const conversationIds = ids ? ids.split(',') : [];
    for (const listener of listeners) {
      if (listener.spaceId === spaceId && listener.sceneId === sceneId) listener.push(conversationIds);
    }
  });

  return {
    async announce(spaceId: string, sceneId: number, conversationIds: number[]) {
      if (conversationIds.length === 0) return;
      const ids = conversationIds.length > MAX_IDS ? '' : conversationIds.join(',');
      await bus.publish(`${PREFIX}${randomUUID()}:${spaceId}:${sceneId}:${ids}`);
    },

    /** Calls `push` for every change in the scope until the returned function is called. */
    follow(scope: ChatScope, push: Listener['push']) {
      const listener = { spaceId: scope.spaceId, sceneId: scope.sceneId, push };
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}

export type ChatLive = ReturnType<typeof createChatLive>;
