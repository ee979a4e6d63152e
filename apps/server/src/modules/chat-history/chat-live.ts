import type { Events } from '../../platform/events.ts';
import { createLiveFeed } from '../../platform/live-feed.ts';
import type { ChatScope } from './chat-scope.ts';
import { chatChanged } from './events.ts';

/** Ids named in one notice; more than this many changed at once and readers refetch everything. */
const MAX_IDS = 200;

const scopeKey = (spaceId: string, sceneId: number) => `${spaceId}:${sceneId}`;

/**
 * Live chat-history updates across processes: whoever stores messages announces the
 * conversations that changed, and every process tells the live streams open on it for that space
 * and scene. An empty id list means "many changed".
 */
export function createChatLive(events: Events) {
  const feed = createLiveFeed(events.channel('chat.changed', chatChanged), (changed) =>
    scopeKey(changed.spaceId, changed.sceneId),
  );
  return {
    async announce(spaceId: string, sceneId: number, conversationIds: number[]) {
      if (conversationIds.length === 0) return;
      await feed.tell({ spaceId, sceneId, conversationIds: conversationIds.length > MAX_IDS ? [] : conversationIds });
    },

    /** Calls `push` for every change in the scope until the returned function is called. */
    follow(scope: ChatScope, push: (conversationIds: string[]) => void) {
      return feed.follow(scopeKey(scope.spaceId, scope.sceneId), (changed) =>
        push(changed.conversationIds.map(String)),
      );
    },
  };
}

export type ChatLive = ReturnType<typeof createChatLive>;
