import { agentStreams, ERRORS, shareRoutes } from '@athena/contract';
import { Typography } from 'antd';
import { type Ref, useEffect, useImperativeHandle, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../lib/api-client.ts';
import { ChatPanel } from '../agents/chat/chat-panel.tsx';
import type { ChatTransport } from '../agents/chat/chat-types.ts';
import type { ChatAgent } from '../agents/chat/message-list.tsx';
import { useChat } from '../agents/chat/use-chat.ts';
import { saveConversation, savedConversation, visitorId } from './visitor.ts';

/** The contract's limit for a visitor's message (shareChatRequest.message). */
const MAX_MESSAGE = 4_000;

export interface ShareChatHandle {
  startOver: () => void;
  hasConversation: () => boolean;
}

/** The visitor's chat: same streaming, Markdown and Stop as the playground; no regenerate. */
export function ShareChat({
  code,
  agent,
  handleRef,
  onConversationChange,
}: {
  code: string;
  agent: ChatAgent;
  handleRef?: Ref<ShareChatHandle>;
  onConversationChange?: (has: boolean) => void;
}) {
  const { t } = useTranslation();
  const visitor = useMemo(() => visitorId(), []);
  const [restoring, setRestoring] = useState(() => Boolean(savedConversation(code)));
  const transport = useMemo<ChatTransport<typeof agentStreams.shareChat>>(
    () => ({
      stream: agentStreams.shareChat,
      body: (request) => ({
        code,
        visitor_id: visitor,
        conversation_id: request.conversationId,
        // The share page only ever sends a question (no regenerate); an empty one is refused as usual.
        message: request.message ?? '',
      }),
    }),
    [code, visitor],
  );
  const chat = useChat({
    transport,
    onConversation: (id) => {
      saveConversation(code, id);
      onConversationChange?.(true);
    },
  });

  useImperativeHandle(handleRef, () => ({
    startOver: () => {
      saveConversation(code, undefined);
      chat.load(undefined);
      onConversationChange?.(false);
    },
    hasConversation: () => Boolean(chat.conversationRef.current),
  }));

  // Continue where this browser left off; a conversation the server no longer knows is forgotten.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once per link.
  useEffect(() => {
    const saved = savedConversation(code);
    if (!saved) return;
    let cancelled = false;
    api(shareRoutes.messages, { code, visitor_id: visitor, conversation_id: saved })
      .then(
        ({ items }) => {
          if (cancelled) return;
          chat.load(saved, items);
          onConversationChange?.(items.length > 0);
        },
        () => {
          if (!cancelled) saveConversation(code, undefined);
        },
      )
      .finally(() => {
        if (!cancelled) setRestoring(false);
      });
    return () => {
      cancelled = true;
    };
  }, [code]);

  return (
    <ChatPanel
      chat={chat}
      agent={agent}
      allowRegenerate={false}
      // Visitors see what a source says, but cannot open the team's knowledge base.
      linkCitations={false}
      loading={restoring}
      maxLength={MAX_MESSAGE}
      noticeExtra={(notice) =>
        notice.code === ERRORS.RATE_LIMITED.code ? (
          <Typography.Text data-testid="share-rate-limited">{t('share.rateLimitHelp')}</Typography.Text>
        ) : notice.code === ERRORS.SHARE_NOT_FOUND.code ? (
          <Typography.Text>{t('share.turnedOffHelp')}</Typography.Text>
        ) : null
      }
    />
  );
}
