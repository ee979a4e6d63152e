import type { Events } from '../../platform/events.ts';
import type { SessionNotice } from './events.ts';
import type { StoreResult } from './message-store.ts';

/**
 * What follows every store of chat messages, from the ingest API and from a WeCom page alike, in
 * one order: the embedded database's maintenance is told the rows written, then `chat.stored`
 * runs its reactions (customer events, satisfaction). The caller announces the changed
 * conversations to the live lists after this, once its own follow-up writes are done.
 */
export function createAfterStore(deps: {
  events: Events;
  noteWrites: (table: string, rows: number, kind?: 'inserts' | 'updates') => void;
}) {
  return async (scene: { spaceId: string; sceneId: number }, stored: StoreResult, sessions: SessionNotice[] = []) => {
    deps.noteWrites('chat_messages', stored.stored);
    deps.noteWrites('chat_conversations', stored.conversationIds.length, 'updates');
    if (stored.messageIds.length === 0 && sessions.length === 0) return;
    await deps.events.emit('chat.stored', { ...scene, messageIds: stored.messageIds, sessions });
  };
}

export type AfterStore = ReturnType<typeof createAfterStore>;
