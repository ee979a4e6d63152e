import type { ChatHistoryMessage } from '@athena/contract';
import { Flex, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { HighlightedText } from './highlighted-text.tsx';
import { MergedRecord } from './merged-record.tsx';
import { ChannelsCard, FileCard, LinkCard, LocationCard, MiniProgramCard } from './message-cards.tsx';
import { AudioMessage, ImageMessage, VideoMessage } from './message-media.tsx';

/** Text as it was written: line breaks kept, long words wrapped, the search keyword marked. */
function Text({ text, keyword }: { text: string; keyword: string }) {
  return (
    <div style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }} data-testid="chat-text">
      <HighlightedText text={text} keyword={keyword} />
    </div>
  );
}

/** A menu the customer could tap (WeCom msgmenu): its head, the choices, its tail. */
function MenuText({ message, keyword }: { message: ChatHistoryMessage; keyword: string }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const menu = message.payload.menu;
  if (!menu) return null;
  return (
    <Flex vertical gap={6} data-testid="chat-menu">
      {message.content && message.content !== menu.head ? <Text text={message.content} keyword={keyword} /> : null}
      {menu.head ? <Text text={menu.head} keyword={keyword} /> : null}
      <ul
        aria-label={t('chatHistory.thread.menu')}
        style={{ listStyle: 'none', margin: 0, padding: 0, display: 'flex', flexDirection: 'column', gap: 4 }}
      >
        {menu.items.map((item, index) => (
          <li
            key={item.id || index}
            style={{
              padding: '3px 10px',
              borderRadius: 6,
              border: `1px solid ${token.colorPrimaryBorder}`,
              color: token.colorPrimaryText,
              background: token.colorBgContainer,
              fontSize: 13,
            }}
          >
            {item.content}
          </li>
        ))}
      </ul>
      {menu.tail ? <Text text={menu.tail} keyword={keyword} /> : null}
    </Flex>
  );
}

/** A message of a kind this page cannot show, said honestly rather than left out. */
function Unknown({ message }: { message: ChatHistoryMessage }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  return (
    <div
      style={{ color: token.colorTextTertiary, fontStyle: 'italic' }}
      data-testid="chat-unknown"
      data-kind={message.source_kind}
    >
      {t('chatHistory.thread.unknown', { kind: message.source_kind || '?' })}
      {message.content ? (
        <div style={{ fontStyle: 'normal', marginTop: 4, whiteSpace: 'pre-wrap' }}>{message.content}</div>
      ) : null}
    </div>
  );
}

/** A text message that came without text: said so, rather than an empty bubble. */
function EmptyText() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  return (
    <span style={{ color: token.colorTextTertiary, fontStyle: 'italic' }}>{t('chatHistory.thread.emptyText')}</span>
  );
}

/** The types drawn in a chat bubble; the others (pictures, cards) stand on their own. */
export const inBubble = (message: ChatHistoryMessage) =>
  message.display_type === 'text' || message.display_type === 'unknown' || message.display_type === 'audio';

/** A message's content, drawn for its display type. */
export function MessageBody({ message, keyword }: { message: ChatHistoryMessage; keyword: string }) {
  switch (message.display_type) {
    case 'text':
      if (message.payload.menu) return <MenuText message={message} keyword={keyword} />;
      return message.content ? <Text text={message.content} keyword={keyword} /> : <EmptyText />;
    case 'image':
      return <ImageMessage message={message} />;
    case 'video':
      return <VideoMessage message={message} />;
    case 'audio':
      return <AudioMessage message={message} />;
    case 'raw_file':
      return <FileCard message={message} />;
    case 'link':
      return <LinkCard message={message} />;
    case 'location':
      return <LocationCard message={message} />;
    case 'mini_program':
      return <MiniProgramCard message={message} />;
    case 'channels':
      return <ChannelsCard message={message} live={false} />;
    case 'channels_live':
      return <ChannelsCard message={message} live />;
    case 'mix':
      return <MergedRecord message={message} />;
    default:
      return <Unknown message={message} />;
  }
}
