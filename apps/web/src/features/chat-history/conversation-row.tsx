import { SearchOutlined, TeamOutlined } from '@ant-design/icons';
import type { ChatConversation } from '@athena/contract';
import { Avatar, Badge, Tooltip, theme } from 'antd';
import type { CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import { HandlerTag } from './chat-tags.tsx';
import { fullTimeOf } from './chat-time.ts';
import { HighlightedText } from './highlighted-text.tsx';
import { ListTimeText } from './list-time-text.tsx';

/** Every row has the same height, so the virtual list never measures. */
export const ROW_HEIGHT = 84;

const oneLine: CSSProperties = { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' };

/** The row's picture: the customer's avatar, their initial, or a group icon. */
export function ConversationAvatar({ conversation, size = 40 }: { conversation: ChatConversation; size?: number }) {
  const { token } = theme.useToken();
  if (conversation.chat_type === 'group') {
    return (
      <Avatar
        size={size}
        icon={<TeamOutlined />}
        style={{ background: token.colorWarningBg, color: token.colorWarning }}
      />
    );
  }
  const initial = (conversation.customer?.name || conversation.title || '?').trim().slice(0, 1).toUpperCase();
  return (
    <Avatar
      size={size}
      src={conversation.customer?.avatar_url || undefined}
      style={{ background: token.colorPrimaryBg, color: token.colorPrimary }}
    >
      {initial}
    </Avatar>
  );
}

/**
 * What the row says of the conversation's messages: the one that matched the search (marked, the
 * keyword highlighted) or the last one. A message of ours starts with who sent it; a picture, a
 * file or a card is named in brackets.
 */
function PreviewLine({
  conversation,
  keyword,
  showMatch,
}: {
  conversation: ChatConversation;
  keyword: string;
  showMatch: boolean;
}) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const matched = showMatch ? conversation.matched : null;
  const preview = matched ?? conversation.last_message;
  if (!preview)
    return <span style={{ ...oneLine, color: token.colorTextQuaternary }}>{t('chatHistory.list.noMessages')}</span>;
  const who = preview.send_type === 'user' ? '' : `${t(`chatHistory.sendType.${preview.send_type}`)}: `;
  const kind = preview.display_type === 'text' ? '' : `${t(`chatHistory.kinds.${preview.display_type}`)} `;
  return (
    <span
      style={{ ...oneLine, color: token.colorTextSecondary, fontSize: 13 }}
      data-testid="chat-conversation-preview"
      data-matched={String(Boolean(matched))}
    >
      {matched ? (
        <Tooltip title={t('chatHistory.list.matched')}>
          <SearchOutlined
            style={{ color: token.colorPrimary, marginInlineEnd: 4 }}
            aria-label={t('chatHistory.list.matched')}
          />
        </Tooltip>
      ) : null}
      {who}
      {kind}
      <HighlightedText text={preview.preview} keyword={matched ? keyword : ''} />
    </span>
  );
}

interface Props {
  conversation: ChatConversation;
  active: boolean;
  keyword: string;
  showMatch: boolean;
  zone: string;
  now: number;
  onOpen: (conversation: ChatConversation) => void;
}

/** One conversation in the list: who, where, the last (or matching) message, when, unread, handler. */
export function ConversationRow({ conversation, active, keyword, showMatch, zone, now, onOpen }: Props) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const handled = conversation.handler.state !== 'none';
  return (
    <button
      type="button"
      aria-current={active ? 'true' : undefined}
      data-testid="chat-conversation"
      data-id={conversation.id}
      data-title={conversation.title}
      onClick={() => onOpen(conversation)}
      style={{
        width: 'calc(100% - 12px)',
        height: ROW_HEIGHT - 4,
        margin: '2px 6px',
        padding: '10px 10px',
        display: 'flex',
        gap: 10,
        border: 'none',
        borderRadius: 8,
        cursor: 'pointer',
        textAlign: 'start',
        font: 'inherit',
        // After `font`, which would reset it: three 20 px lines fill the row's 60 px inside its padding
        // (the body's 22 px ones did not fit, and the preview line was cut off at the bottom).
        lineHeight: '20px',
        color: 'inherit',
        background: active ? token.controlItemBgActive : 'transparent',
        outlineOffset: -2,
      }}
    >
      <ConversationAvatar conversation={conversation} />
      <span style={{ flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column' }}>
        <span style={{ display: 'flex', alignItems: 'center', gap: 6 }}>
          {conversation.chat_type === 'group' ? (
            <TeamOutlined
              style={{ color: token.colorTextTertiary, fontSize: 12 }}
              aria-label={t('chatHistory.chatType.group')}
            />
          ) : null}
          <span
            style={{ ...oneLine, flex: 1, fontWeight: 500, color: active ? token.colorPrimaryText : token.colorText }}
            data-testid="chat-conversation-title"
          >
            {conversation.title || t('chatHistory.list.untitled')}
          </span>
          <Tooltip title={fullTimeOf(conversation.last_message_at, zone)}>
            <span style={{ fontSize: 12, color: token.colorTextTertiary, whiteSpace: 'nowrap' }}>
              <ListTimeText iso={conversation.last_message_at} zone={zone} now={now} />
            </span>
          </Tooltip>
        </span>
        <span
          style={{
            display: 'flex',
            alignItems: 'center',
            gap: 6,
            minWidth: 0,
            fontSize: 12,
            color: token.colorTextTertiary,
          }}
        >
          <span style={{ ...oneLine, flex: 1 }}>
            {conversation.channel.name || conversation.channel.id || t('chatHistory.list.noChannel')}
          </span>
          {handled ? <HandlerTag handler={conversation.handler} /> : null}
          {/* The open conversation is being read: its count is about to be cleared, never news. */}
          <Badge
            count={active ? 0 : conversation.unread}
            size="small"
            overflowCount={99}
            data-testid="chat-conversation-unread"
          />
        </span>
        <PreviewLine conversation={conversation} keyword={keyword} showMatch={showMatch} />
      </span>
    </button>
  );
}
