import { z } from 'zod';

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

/**
 * What one ingest batch or WeCom page stored: the new messages, and WeCom's session changes.
 * Emitted after they are committed; a reaction's failure is logged and never undoes the store.
 */
export interface ChatStored {
  spaceId: string;
  sceneId: number;
  messageIds: number[];
  sessions: SessionNotice[];
}

export const chatChanged = z.object({
  spaceId: z.string(),
  sceneId: z.number().int(),
  /** Empty when too many changed to name: readers refetch everything. */
  conversationIds: z.array(z.number().int()),
});

declare module '../../platform/events.ts' {
  interface DomainEvents {
    'chat.stored': ChatStored;
  }
  interface BroadcastEvents {
    /** Conversations of a scene changed: the live chat list refetches them. */
    'chat.changed': z.infer<typeof chatChanged>;
  }
}
