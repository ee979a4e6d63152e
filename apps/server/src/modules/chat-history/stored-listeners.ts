import type { FastifyBaseLogger } from 'fastify';

/** A WeCom session that started (`enter_session`) or ended (`session_status_change`, change_type 3). */
export interface SessionNotice {
  change: 'start' | 'end';
  /** WeCom's msgid of the event: the same event pulled again has the same id. */
  eventId: string;
  conversationSourceId: string;
  customerSourceId: string;
  at: Date;
  /** The end's one-time `msg_code` for `kf/send_msg_on_event` (empty when WeCom sent none). */
  msgCode: string;
}

/** What one ingest batch or WeCom page stored: the new messages, and WeCom's session changes. */
export interface ChatStoredNotice {
  spaceId: string;
  sceneId: number;
  messageIds: number[];
  sessions: SessionNotice[];
}

export type ChatStoredListener = (notice: ChatStoredNotice) => Promise<void>;

/**
 * The hook other modules use to react to what chat history stored (user profiles derive behaviour
 * events and match satisfaction replies); chat history knows nothing of them. A listener's failure
 * is logged and never undoes or delays the store beyond the listener's own time.
 */
export function createStoredListeners(log: FastifyBaseLogger) {
  const listeners: ChatStoredListener[] = [];
  return {
    add(listener: ChatStoredListener) {
      listeners.push(listener);
    },
    async notify(notice: ChatStoredNotice) {
      if (notice.messageIds.length === 0 && notice.sessions.length === 0) return;
      for (const listener of listeners) {
        try {
          await listener(notice);
        } catch (error) {
          log.error({ err: error }, 'a chat-stored listener failed');
        }
      }
    },
  };
}
