import { BulbOutlined, RobotOutlined, SendOutlined } from '@ant-design/icons';
import {
  CHAT_LIMITS,
  type ChatConversation,
  type ChatHistoryMessage,
  chatHistoryRoutes,
  type ReplySettings,
  type RouteData,
} from '@athena/contract';
import { Alert, Button, Flex, Input, Tag, Tooltip, Typography, theme } from 'antd';
import { type KeyboardEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../lib/api-client.ts';
import { currentLocale } from '../../lib/i18n.ts';
import { queryClient } from '../../lib/query-client.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import { useApiMutation } from '../../shared/hooks/use-api-mutation.ts';
import { newClientMsgId } from './random-text.ts';

interface Props {
  spaceId: string | null;
  sceneId: number;
  conversationId: string;
  conversation: ChatConversation | undefined;
  replyMode: ReplySettings['mode'];
  /** A reply is on its way: the thread shows it at once, marked as sending. */
  onPending: (placeholder: ChatHistoryMessage) => void;
  /** Its send answered: the placeholder goes, the stored message (sent or failed) shows. */
  onSettled: (placeholderId: string, message: ChatHistoryMessage | null) => Promise<void>;
}

const placeholderOf = (
  conversationId: string,
  clientId: string,
  content: string,
  sendType: ChatHistoryMessage['send_type'],
): ChatHistoryMessage => ({
  id: `pending-${clientId}`,
  conversation_id: conversationId,
  send_type: sendType,
  sender_name: '',
  display_type: 'text',
  source_kind: 'wecom:text',
  content,
  payload: {},
  status: 'sending',
  fail_reason: null,
  media_state: 'none',
  media_error: null,
  media_url: null,
  recalled: false,
  sent_at: new Date().toISOString(),
});

/**
 * Replying to the customer through the scene's channel: typed (Enter sends, Shift+Enter is a new
 * line), started from the agent's draft (then sent as AI assisted), or answered by the agent now
 * (AI manual). A send that fails before it is stored (a closed window, the limit) keeps the text
 * and its id, so sending again is the same message.
 */
export function ReplyComposer(props: Props) {
  const { spaceId, sceneId, conversationId, conversation, replyMode, onPending, onSettled } = props;
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const quiet = { meta: { errorNotice: false } };
  const send = useApiMutation(chatHistoryRoutes.messageSend, quiet);
  const draft = useApiMutation(chatHistoryRoutes.messageDraft, quiet);
  const aiReply = useApiMutation(chatHistoryRoutes.messageAiReply, quiet);
  const [text, setText] = useState('');
  const [fromDraft, setFromDraft] = useState(false);
  const [handover, setHandover] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // One id per message: made at its first send, kept while it is retried unchanged.
  const clientId = useRef<string | null>(null);
  // The box's text now, for a send that answers after the person has typed on.
  const typed = useRef('');

  const refreshConversation = () =>
    queryClient.invalidateQueries({ queryKey: queryKeys.chatHistory.conversation(spaceId, sceneId, conversationId) });
  const fail = (failure: unknown) => setError(errorText(failure, currentLocale()));

  const edit = (value: string) => {
    typed.current = value;
    setText(value);
    setError(null);
    clientId.current = null;
    if (value.trim() === '') {
      setFromDraft(false);
      setHandover(false);
    }
  };

  const submit = async () => {
    const content = text.trim();
    if (!content || send.isPending || content.length > CHAT_LIMITS.replyChars) return;
    clientId.current ??= newClientMsgId();
    const id = clientId.current;
    const sendType = fromDraft ? 'ai_assisted' : 'human';
    const placeholder = placeholderOf(conversationId, id, content, sendType);
    setError(null);
    onPending(placeholder);
    try {
      const sent = await send.mutateAsync({
        conversation_id: conversationId,
        content,
        send_type: sendType,
        client_msg_id: id,
      });
      void onSettled(placeholder.id, sent);
      // What was typed while it went out is the next message, not this one: it stays.
      if (typed.current.trim() === content) edit('');
      void refreshConversation();
    } catch (failure) {
      void onSettled(placeholder.id, null);
      fail(failure);
    }
  };

  /** The agent's draft into the box; one asked for by itself never replaces what the person typed meanwhile. */
  const askDraft = async (by: 'person' | 'mode' = 'person') => {
    setError(null);
    try {
      const answer: RouteData<typeof chatHistoryRoutes.messageDraft> = await draft.mutateAsync({
        conversation_id: conversationId,
      });
      if (by === 'mode' && typed.current.trim() !== '') return;
      edit(answer.text.slice(0, CHAT_LIMITS.replyChars));
      setFromDraft(answer.text.trim() !== '');
      setHandover(answer.handover);
    } catch (failure) {
      fail(failure);
    }
  };

  // AI assisted: the customer's newest message gets a draft as soon as its conversation is open,
  // once per message; the person edits and sends it, or clears it and writes their own.
  const newest = conversation?.last_message;
  const draftedFor = useRef<string | null>(null);
  const awaitingDraft = replyMode === 'ai_assisted' && newest?.send_type === 'user' ? newest.id : null;
  // biome-ignore lint/correctness/useExhaustiveDependencies: asked once per customer message, not on every render.
  useEffect(() => {
    if (!awaitingDraft || draftedFor.current === awaitingDraft || typed.current.trim() !== '') return;
    draftedFor.current = awaitingDraft;
    void askDraft('mode');
  }, [awaitingDraft]);

  const answerNow = async () => {
    setError(null);
    try {
      const sent = await aiReply.mutateAsync({ conversation_id: conversationId });
      void onSettled('', sent);
      void refreshConversation();
    } catch (failure) {
      fail(failure);
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    void submit();
  };

  const busy = draft.isPending || aiReply.isPending;
  return (
    <Flex
      vertical
      gap={8}
      style={{ padding: '10px 12px 12px', borderTop: `1px solid ${token.colorBorderSecondary}` }}
      data-testid="chat-composer"
    >
      {conversation?.handler.state === 'waiting' ? (
        <Alert type="warning" showIcon title={t('chatHistory.composer.waiting')} data-testid="chat-composer-waiting" />
      ) : null}
      {handover ? (
        <Alert
          type="info"
          showIcon
          title={t('chatHistory.composer.draftHandover')}
          data-testid="chat-composer-handover"
        />
      ) : null}
      {error ? (
        <Alert
          type="error"
          showIcon
          closable={{ onClose: () => setError(null) }}
          title={error}
          data-testid="chat-composer-error"
        />
      ) : null}
      <Input.TextArea
        value={text}
        onChange={(event) => edit(event.target.value)}
        onKeyDown={onKeyDown}
        placeholder={t('chatHistory.composer.placeholder')}
        autoSize={{ minRows: 2, maxRows: 8 }}
        maxLength={CHAT_LIMITS.replyChars}
        showCount
        disabled={draft.isPending}
        aria-label={t('chatHistory.composer.placeholder')}
        data-testid="chat-composer-input"
      />
      {/* The box's character count hangs 22 px below it: the buttons start below the count. */}
      <Flex gap={8} align="center" wrap style={{ marginTop: 16 }}>
        <Tooltip title={t('chatHistory.composer.draftHelp')}>
          <Button
            icon={<BulbOutlined />}
            loading={draft.isPending}
            disabled={busy && !draft.isPending}
            onClick={() => void askDraft()}
            data-testid="chat-composer-draft"
          >
            {t('chatHistory.composer.draft')}
          </Button>
        </Tooltip>
        <Tooltip title={t('chatHistory.composer.aiReplyHelp')}>
          <Button
            icon={<RobotOutlined />}
            loading={aiReply.isPending}
            disabled={busy && !aiReply.isPending}
            onClick={answerNow}
            data-testid="chat-composer-ai-reply"
          >
            {t('chatHistory.composer.aiReply')}
          </Button>
        </Tooltip>
        {fromDraft ? (
          <Tag color="cyan" variant="filled" style={{ marginInlineEnd: 0 }} data-testid="chat-composer-assisted">
            {t('chatHistory.composer.assisted')}
          </Tag>
        ) : null}
        <Typography.Text type="secondary" style={{ fontSize: 12, marginInlineStart: 'auto' }}>
          {t('chatHistory.composer.keys')}
        </Typography.Text>
        <Button
          type="primary"
          icon={<SendOutlined />}
          loading={send.isPending}
          disabled={text.trim() === '' || busy}
          onClick={submit}
          data-testid="chat-composer-send"
        >
          {t('chatHistory.composer.send')}
        </Button>
      </Flex>
    </Flex>
  );
}

/** In place of the composer when the scene's channel cannot send (the ingest API's scenes). */
export function ReadOnlyNote() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  return (
    <Typography.Text
      type="secondary"
      style={{ padding: '8px 16px', borderTop: `1px solid ${token.colorBorderSecondary}`, fontSize: 12 }}
      data-testid="chat-composer-readonly"
    >
      {t('chatHistory.composer.readOnly')}
    </Typography.Text>
  );
}
