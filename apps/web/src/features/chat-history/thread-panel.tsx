import { type ChatConversation, chatHistoryRoutes, ERRORS, type ReplySettings } from '@athena/contract';
import { Alert, Button, Flex, Result, Skeleton } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, errorText } from '../../lib/api-client.ts';
import { currentLocale } from '../../lib/i18n.ts';
import { useApiMutation } from '../../shared/hooks/use-api-mutation.ts';
import { clearUnreadInCache, useConversation } from './chat-history-queries.ts';
import { MessageList } from './message-list.tsx';
import { ReadOnlyNote, ReplyComposer } from './reply-composer.tsx';
import { ThreadHeader } from './thread-header.tsx';
import { useThread } from './use-thread.ts';

export type LiveSubscribe = (listener: (conversationIds: string[]) => void) => () => void;

interface Props {
  spaceId: string | null;
  sceneId: number;
  conversationId: string;
  anchorId: string | null;
  /** The list's copy, shown until the conversation's own read answers. */
  fallback: ChatConversation | undefined;
  keyword: string;
  narrow: boolean;
  /** The scene's channel can send (a connected WeCom account): the reply composer shows. */
  canSend: boolean;
  /** How the scene replies: in AI assisted mode the composer asks the agent for a draft by itself. */
  replyMode: ReplySettings['mode'];
  subscribe: LiveSubscribe;
  onClose: () => void;
  onDropAnchor: () => void;
}

const isMissing = (error: unknown) =>
  error instanceof ApiError && error.code === ERRORS.CHAT_CONVERSATION_NOT_FOUND.code;

/**
 * The open conversation: its header, its messages (marked read on opening and kept live) and the
 * reply composer when the scene's channel can send.
 */
export function ThreadPanel(props: Props) {
  const { spaceId, sceneId, conversationId, anchorId, fallback, keyword, narrow, canSend, subscribe, onClose } = props;
  const { replyMode } = props;
  const { t } = useTranslation();
  const conversation = useConversation(spaceId, sceneId, conversationId);
  const thread = useThread(conversationId, anchorId, `${spaceId}:${sceneId}`);
  // Marking read is a side effect of looking: a failure is not worth a notice.
  const { mutate: markRead } = useApiMutation(chatHistoryRoutes.conversationRead, { meta: { errorNotice: false } });

  useEffect(() => {
    markRead({ id: conversationId }, { onSuccess: () => clearUnreadInCache(spaceId, sceneId, conversationId) });
  }, [conversationId, spaceId, sceneId, markRead]);

  const { catchUp } = thread;
  useEffect(
    () =>
      subscribe((ids) => {
        if (ids.length > 0 && !ids.includes(conversationId)) return;
        void catchUp().then((added) => {
          // New messages read while the thread is open are read: the badge must not come back.
          if (added > 0)
            markRead({ id: conversationId }, { onSuccess: () => clearUnreadInCache(spaceId, sceneId, conversationId) });
        });
      }),
    [subscribe, catchUp, conversationId, markRead, spaceId, sceneId],
  );

  const failure = conversation.error ?? (thread.status === 'error' ? thread.error : null);
  if (failure && isMissing(failure)) {
    return (
      <Result
        status="warning"
        title={t('chatHistory.thread.notFound')}
        subTitle={errorText(failure, currentLocale())}
        extra={<Button onClick={onClose}>{t('chatHistory.thread.close')}</Button>}
        data-testid="chat-thread-not-found"
      />
    );
  }

  return (
    <Flex
      vertical
      style={{ height: '100%', minHeight: 0 }}
      data-testid="chat-thread-panel"
      data-conversation={conversationId}
    >
      <ThreadHeader conversation={conversation.data ?? fallback} narrow={narrow} onClose={onClose} />
      <div style={{ flex: 1, minHeight: 0 }}>
        {thread.status === 'loading' ? (
          <div style={{ padding: 24 }} data-testid="chat-thread-loading">
            {[0, 1, 2].map((i) => (
              <Skeleton
                key={i}
                active
                avatar={{ size: 32 }}
                title={false}
                paragraph={{ rows: 2, width: ['60%', '40%'] }}
                style={{ marginBottom: 20 }}
              />
            ))}
          </div>
        ) : thread.status === 'error' ? (
          <div style={{ padding: 24 }}>
            <Alert
              type="error"
              showIcon
              title={t('chatHistory.thread.loadFailed')}
              description={errorText(thread.error, currentLocale())}
              action={
                <Button size="small" onClick={thread.reload}>
                  {t('common.retry')}
                </Button>
              }
              data-testid="chat-thread-error"
            />
          </div>
        ) : (
          <MessageList
            key={`${conversationId}:${anchorId}`}
            thread={thread}
            anchorId={anchorId}
            keyword={keyword}
            customerName={customerNameOf(conversation.data ?? fallback)}
            onDropAnchor={props.onDropAnchor}
          />
        )}
      </div>
      {canSend ? (
        <ReplyComposer
          spaceId={spaceId}
          sceneId={sceneId}
          conversationId={conversationId}
          conversation={conversation.data ?? fallback}
          replyMode={replyMode}
          onPending={thread.addPending}
          onSettled={thread.settle}
        />
      ) : (
        <ReadOnlyNote />
      )}
    </Flex>
  );
}

/** Who the customer's messages are from when a channel names no sender (WeCom names none): the private chat's customer. */
function customerNameOf(
  conversation: { chat_type: string; title: string; customer: { name: string } | null } | null | undefined,
) {
  if (conversation?.chat_type !== 'private') return '';
  return conversation.customer?.name || conversation.title;
}
