import { Alert, Button, Flex, Spin, Tag, Typography, theme } from 'antd';
import { type ReactNode, useLayoutEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { AgentAvatar } from '../agent-avatar.tsx';
import type { ChatItem, ChatNotice } from './chat-types.ts';
import { MessageBubble } from './message-bubble.tsx';
import type { ChatController } from './use-chat.ts';

export interface ChatAgent {
  name: string;
  avatarUrl: string | null;
  description?: string;
  openingMessage: string;
  suggestions: string[];
}

interface Props {
  chat: ChatController;
  agent: ChatAgent;
  allowRegenerate: boolean;
  loading?: boolean;
  /** More words for a refusal, e.g. how the share page's rate limit works. */
  noticeExtra?: (notice: ChatNotice) => ReactNode;
}

/** Keeps the newest words in view while they stream, unless the reader scrolled up to read. */
function useStickToBottom(items: ChatItem[], notice: ChatNotice | null, loading: boolean | undefined) {
  const count = items.length;
  const ref = useRef<HTMLDivElement>(null);
  const stick = useRef(true);
  const lastCount = useRef(count);
  if (count > lastCount.current) stick.current = true;
  lastCount.current = count;
  // biome-ignore lint/correctness/useExhaustiveDependencies: the content is what moves the bottom.
  useLayoutEffect(() => {
    const el = ref.current;
    if (el && stick.current) el.scrollTop = el.scrollHeight;
  }, [items, notice, loading]);
  const onScroll = () => {
    const el = ref.current;
    if (el) stick.current = el.scrollHeight - el.scrollTop - el.clientHeight < 80;
  };
  return { ref, onScroll };
}

/** The opening message, suggested questions while nothing was asked, the messages and any refusal. */
export function MessageList({ chat, agent, allowRegenerate, loading, noticeExtra }: Props) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const { items, notice, streaming } = chat;
  const scroll = useStickToBottom(items, notice, loading);
  const avatar = <AgentAvatar name={agent.name} url={agent.avatarUrl} size={32} />;
  const opening: ChatItem | null = agent.openingMessage
    ? {
        key: 'opening',
        role: 'assistant',
        content: agent.openingMessage,
        status: 'complete',
        errorText: null,
        citations: [],
        steps: [],
      }
    : null;
  const last = items.at(-1);
  const empty = items.length === 0 && !loading;

  return (
    <div
      ref={scroll.ref}
      onScroll={scroll.onScroll}
      style={{ flex: 1, overflowY: 'auto', padding: '20px 20px 8px', minHeight: 0 }}
      data-testid="chat-messages"
    >
      <Flex vertical gap={18} style={{ maxWidth: 860, margin: '0 auto' }}>
        {empty && !opening ? (
          <Flex vertical align="center" gap={8} style={{ padding: '32px 0 8px' }} data-testid="chat-welcome">
            <AgentAvatar name={agent.name} url={agent.avatarUrl} size={56} />
            <Typography.Text strong style={{ fontSize: 16 }}>
              {agent.name}
            </Typography.Text>
            <Typography.Text type="secondary" style={{ textAlign: 'center', maxWidth: 420 }}>
              {agent.description || t('agents.chat.welcome')}
            </Typography.Text>
          </Flex>
        ) : null}
        {opening ? (
          <div data-testid="chat-opening">
            <MessageBubble item={opening} avatar={avatar} actions={false} />
          </div>
        ) : null}
        {empty && agent.suggestions.length > 0 ? (
          <Flex vertical gap={8} align="flex-start" style={{ paddingInlineStart: 42 }} data-testid="chat-suggestions">
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {t('agents.chat.suggestionsTitle')}
            </Typography.Text>
            <Flex gap={8} wrap>
              {agent.suggestions.map((question) => (
                <Tag.CheckableTag
                  key={question}
                  checked={false}
                  onChange={() => chat.send(question)}
                  data-testid="chat-suggestion"
                  style={{
                    border: `1px solid ${token.colorBorder}`,
                    borderRadius: 16,
                    padding: '4px 12px',
                    fontSize: 13,
                    background: token.colorBgContainer,
                    whiteSpace: 'normal',
                    textAlign: 'start',
                  }}
                >
                  {question}
                </Tag.CheckableTag>
              ))}
            </Flex>
          </Flex>
        ) : null}
        {loading ? (
          <Flex justify="center" style={{ padding: 32 }} data-testid="chat-loading">
            <Spin />
          </Flex>
        ) : (
          items.map((item) => (
            <MessageBubble
              key={item.key}
              item={item}
              avatar={avatar}
              onRegenerate={
                allowRegenerate && !streaming && item === last && item.role === 'assistant'
                  ? chat.regenerate
                  : undefined
              }
            />
          ))
        )}
        {notice ? (
          <Alert
            type={notice.code === 42900 ? 'warning' : 'error'}
            showIcon
            closable={{ onClose: chat.dismissNotice }}
            title={notice.message}
            description={noticeExtra?.(notice)}
            data-testid="chat-notice"
            data-code={String(notice.code ?? '')}
            action={
              notice.retry ? (
                <Button size="small" onClick={chat.retry} data-testid="chat-notice-retry">
                  {t('common.retry')}
                </Button>
              ) : undefined
            }
          />
        ) : null}
      </Flex>
    </div>
  );
}
