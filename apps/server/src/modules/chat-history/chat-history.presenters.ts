import type { ChatConversation, ChatHistoryMessage, ChatPayload } from '@athena/contract';
import type { MessageRow } from './chat-history.repo.ts';
import type { ConversationRow } from './conversation-list.query.ts';

type Preview = ChatConversation['last_message'];
const iso = (value: Date | string) => new Date(value).toISOString();

function previewOf(
  id: number | string | null,
  displayType: string | null,
  sendType: string | null,
  content: string | null,
  at: Date | string | null,
): Preview {
  if (id === null || at === null) return null;
  return {
    id: String(id),
    display_type: displayType as NonNullable<Preview>['display_type'],
    send_type: sendType as NonNullable<Preview>['send_type'],
    preview: content ?? '',
    at: iso(at),
  };
}

export function presentConversation(row: ConversationRow): ChatConversation {
  return {
    id: String(row.id),
    scene_id: row.scene_id,
    chat_type: row.chat_type,
    title: row.title || row.customer_name || row.channel_name,
    channel: { id: row.channel_id, name: row.channel_name },
    customer:
      row.customer_id === null
        ? null
        : {
            id: String(row.customer_id),
            name: row.customer_name ?? '',
            avatar_url: row.customer_avatar,
            source_id: row.customer_source_id ?? '',
          },
    last_message: previewOf(row.last_id, row.last_display_type, row.last_send_type, row.last_content, row.last_sent_at),
    matched: previewOf(row.match_id, row.match_display_type, row.match_send_type, row.match_content, row.match_sent_at),
    unread: row.unread,
    message_count: row.message_count,
    handler: {
      state: row.handler_state as ChatConversation['handler']['state'],
      servicer: row.servicer,
    },
    last_message_at: iso(row.last_message_at),
  };
}

/** Gives a message whose media is stored the signed URL it is served at. */
export type MediaUrlOf = (messageId: string) => string;

export function presentMessage(row: MessageRow, mediaUrlOf: MediaUrlOf): ChatHistoryMessage {
  return {
    id: String(row.id),
    conversation_id: String(row.conversationId),
    send_type: row.sendType as ChatHistoryMessage['send_type'],
    sender_name: row.senderName,
    display_type: row.displayType as ChatHistoryMessage['display_type'],
    source_kind: row.sourceKind,
    content: row.content,
    payload: row.payload as ChatPayload,
    status: row.status as ChatHistoryMessage['status'],
    fail_reason: row.failReason,
    recalled: row.recalled,
    media_state: row.mediaState as ChatHistoryMessage['media_state'],
    media_error: row.mediaError,
    media_url: row.mediaState === 'stored' ? mediaUrlOf(String(row.id)) : null,
    sent_at: row.sentAt.toISOString(),
  };
}
