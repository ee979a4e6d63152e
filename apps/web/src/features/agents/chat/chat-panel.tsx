import './chat.css';
import { Flex, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ChatInput } from './chat-input.tsx';
import type { ChatNotice } from './chat-types.ts';
import { CHAT_PANEL_CLASS, CITATION_LAYER_CLASS, CitationLinkContext } from './citation-chip.tsx';
import { type ChatAgent, MessageList } from './message-list.tsx';
import type { ChatController } from './use-chat.ts';

interface Props {
  chat: ChatController;
  agent: ChatAgent;
  /** The playground may answer the last question again; the share page may not. */
  allowRegenerate: boolean;
  loading?: boolean;
  maxLength: number;
  noticeExtra?: (notice: ChatNotice) => ReactNode;
  /** Whether cited sources link to their segments (team members only, not the share page). */
  linkCitations?: boolean;
}

/** A whole chat: messages filling the height, the input at the bottom. */
export function ChatPanel({
  chat,
  agent,
  allowRegenerate,
  loading,
  maxLength,
  noticeExtra,
  linkCitations = false,
}: Props) {
  const { t } = useTranslation();
  return (
    <CitationLinkContext.Provider value={linkCitations}>
      <Flex
        vertical
        className={CHAT_PANEL_CLASS}
        style={{ height: '100%', minHeight: 0, minWidth: 0, flex: 1, position: 'relative' }}
        data-testid="chat-panel"
      >
        <MessageList
          chat={chat}
          agent={agent}
          allowRegenerate={allowRegenerate}
          loading={loading}
          noticeExtra={noticeExtra}
        />
        <div style={{ padding: '8px 20px 12px' }}>
          <div style={{ maxWidth: 860, margin: '0 auto' }}>
            <ChatInput
              streaming={chat.streaming}
              disabled={loading}
              onSend={chat.send}
              onStop={chat.stop}
              maxLength={maxLength}
            />
            <Typography.Text
              type="secondary"
              style={{ display: 'block', textAlign: 'center', fontSize: 12, marginTop: 6 }}
            >
              {t('agents.chat.disclaimer')}
            </Typography.Text>
          </div>
        </div>
        {/* Where citation popovers open: the panel less a margin, clipping, and transparent to the pointer. */}
        <div
          className={CITATION_LAYER_CLASS}
          style={{ position: 'absolute', inset: '8px 12px', overflow: 'hidden', pointerEvents: 'none' }}
        />
      </Flex>
    </CitationLinkContext.Provider>
  );
}
