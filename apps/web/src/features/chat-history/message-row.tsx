import { ExclamationCircleFilled, LoadingOutlined, RobotOutlined, UserOutlined } from '@ant-design/icons';
import type { ChatHistoryMessage } from '@athena/contract';
import { Avatar, Flex, Tag, Tooltip, theme } from 'antd';
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { SendTypeTag } from './chat-tags.tsx';
import { clockOf, fullTimeOf } from './chat-time.ts';
import { inBubble, MessageBody } from './message-body.tsx';

/** Replies a person sent (typed, or the agent's draft they edited): a person's avatar, not the robot's. */
const SENT_BY_PERSON = new Set<ChatHistoryMessage['send_type']>(['human', 'ai_assisted']);

interface Props {
  message: ChatHistoryMessage;
  /** "Today", "Yesterday" or a date, above the first message of each day. */
  dayLabel: string | null;
  /** The first message of the conversation (nothing older exists). */
  beginning: boolean;
  /** The message the thread was opened at (a search hit): marked until another is opened. */
  anchor: boolean;
  keyword: string;
  zone: string;
  /** The private chat's customer, for their messages that name no sender. */
  customerName: string;
}

function Separator({ text, testId }: { text: string; testId: string }) {
  const { token } = theme.useToken();
  return (
    <Flex justify="center" style={{ margin: '6px 0 10px' }}>
      <span
        data-testid={testId}
        style={{
          fontSize: 12,
          color: token.colorTextTertiary,
          background: token.colorFillQuaternary,
          borderRadius: 10,
          padding: '1px 10px',
        }}
      >
        {text}
      </span>
    </Flex>
  );
}

/**
 * One message: the customer's on the left, ours on the right with a tag naming how it was sent;
 * the sender and the time above it; a recall, a failed or pending send marked beside it.
 */
export const MessageRow = memo(function MessageRow({
  message,
  dayLabel,
  beginning,
  anchor,
  keyword,
  zone,
  customerName,
}: Props) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const ours = message.send_type !== 'user';
  const sender = message.sender_name || (ours ? '' : customerName);
  const bubble = inBubble(message);
  const avatar = (
    <Avatar
      size={32}
      icon={ours ? SENT_BY_PERSON.has(message.send_type) ? <UserOutlined /> : <RobotOutlined /> : undefined}
      style={{
        flex: 'none',
        background: ours ? token.colorPrimary : token.colorFillSecondary,
        color: ours ? '#fff' : token.colorText,
      }}
    >
      {ours ? null : [...(sender || '?')][0]}
    </Avatar>
  );
  return (
    <div style={{ padding: '4px 16px' }}>
      {beginning ? <Separator text={t('chatHistory.thread.beginning')} testId="chat-thread-beginning" /> : null}
      {dayLabel ? <Separator text={dayLabel} testId="chat-day" /> : null}
      <Flex
        gap={8}
        justify={ours ? 'flex-end' : 'flex-start'}
        align="flex-start"
        data-testid="chat-message"
        data-id={message.id}
        data-display-type={message.display_type}
        data-send-type={message.send_type}
        data-status={message.status}
        data-recalled={String(message.recalled)}
        style={{
          borderRadius: 8,
          padding: anchor ? 4 : 0,
          margin: anchor ? -4 : 0,
          background: anchor ? token.colorWarningBg : undefined,
        }}
      >
        {ours ? null : avatar}
        <Flex
          vertical
          align={ours ? 'flex-end' : 'flex-start'}
          gap={3}
          style={{ maxWidth: 'min(72%, 560px)', minWidth: 0 }}
        >
          <Flex gap={6} align="center" wrap style={{ fontSize: 12, color: token.colorTextTertiary }}>
            {ours ? <SendTypeTag sendType={message.send_type} /> : null}
            <span>{sender || (ours ? t('chatHistory.thread.us') : t('chatHistory.thread.customer'))}</span>
            <Tooltip title={fullTimeOf(message.sent_at, zone)}>
              <span>{clockOf(message.sent_at, zone)}</span>
            </Tooltip>
            {message.recalled ? (
              <Tag
                variant="filled"
                style={{ marginInlineEnd: 0, fontSize: 11, lineHeight: '18px' }}
                data-testid="chat-recalled"
              >
                {t('chatHistory.thread.recalled')}
              </Tag>
            ) : null}
          </Flex>
          <Flex align="center" gap={6} style={{ flexDirection: ours ? 'row' : 'row-reverse', maxWidth: '100%' }}>
            {message.status === 'sending' ? (
              <Tooltip title={t('chatHistory.thread.sending')}>
                <LoadingOutlined style={{ color: token.colorTextTertiary }} data-testid="chat-sending" />
              </Tooltip>
            ) : null}
            {message.status === 'failed' ? (
              <Tooltip title={message.fail_reason || t('chatHistory.thread.failed')}>
                <ExclamationCircleFilled style={{ color: token.colorError }} data-testid="chat-failed" />
              </Tooltip>
            ) : null}
            <div
              style={{
                minWidth: 0,
                maxWidth: '100%',
                opacity: message.recalled ? 0.5 : 1,
                textDecoration: message.recalled ? 'line-through' : undefined,
                ...(bubble
                  ? {
                      padding: '8px 12px',
                      borderRadius: 12,
                      borderStartStartRadius: ours ? 12 : 4,
                      borderStartEndRadius: ours ? 4 : 12,
                      background: ours ? token.colorPrimaryBg : token.colorBgContainer,
                      border: `1px solid ${ours ? token.colorPrimaryBorder : token.colorBorderSecondary}`,
                    }
                  : {}),
              }}
            >
              <MessageBody message={message} keyword={keyword} />
            </div>
          </Flex>
          {message.status === 'failed' ? (
            <span style={{ fontSize: 12, color: token.colorError }} data-testid="chat-fail-reason">
              {message.fail_reason
                ? t('chatHistory.thread.failedBecause', { reason: message.fail_reason })
                : t('chatHistory.thread.failed')}
            </span>
          ) : null}
        </Flex>
        {ours ? avatar : null}
      </Flex>
    </div>
  );
});
