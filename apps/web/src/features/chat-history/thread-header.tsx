import { ArrowLeftOutlined, CloseOutlined, IdcardOutlined, TeamOutlined, UserOutlined } from '@ant-design/icons';
import type { ChatConversation } from '@athena/contract';
import { Button, Flex, Tooltip, Typography, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { HandlerTag } from './chat-tags.tsx';
import { ConversationAvatar } from './conversation-row.tsx';
import { profileHref } from './customer-links.ts';
import { RouteButton, RouteTextLink, useEmbedded } from './route-link.tsx';

interface Props {
  conversation: ChatConversation | undefined;
  /** Narrow screens show the list or the thread: "back" instead of "close". */
  narrow: boolean;
  onClose: () => void;
}

/**
 * Who the conversation is with, where, how many messages, who handles it now. The customer's name
 * (a private chat is named after them) and the profile button lead to their profile.
 */
export function ThreadHeader({ conversation, narrow, onClose }: Props) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const embedded = useEmbedded();
  const customer = conversation?.customer ?? null;
  const profile = customer && conversation ? profileHref(customer.id, conversation.scene_id, embedded) : null;
  const title = conversation ? conversation.title || t('chatHistory.list.untitled') : '…';
  const close = (
    <Tooltip title={narrow ? t('chatHistory.thread.back') : t('chatHistory.thread.close')}>
      <Button
        type="text"
        icon={narrow ? <ArrowLeftOutlined /> : <CloseOutlined />}
        onClick={onClose}
        aria-label={narrow ? t('chatHistory.thread.back') : t('chatHistory.thread.close')}
        data-testid="chat-thread-close"
      />
    </Tooltip>
  );
  return (
    <Flex
      align="center"
      gap={10}
      style={{ padding: '10px 12px 10px 16px', borderBottom: `1px solid ${token.colorBorderSecondary}`, minHeight: 61 }}
    >
      {narrow ? close : null}
      {conversation ? <ConversationAvatar conversation={conversation} size={36} /> : null}
      <Flex vertical style={{ flex: 1, minWidth: 0 }}>
        <Flex align="center" gap={8} style={{ minWidth: 0 }}>
          {profile && conversation?.chat_type === 'private' ? (
            <Tooltip title={t('chatHistory.thread.profileTip')}>
              <RouteTextLink href={profile} strong ellipsis style={{ fontSize: 15 }} data-testid="chat-thread-title">
                {title}
              </RouteTextLink>
            </Tooltip>
          ) : (
            <Typography.Text strong ellipsis style={{ fontSize: 15 }} data-testid="chat-thread-title">
              {title}
            </Typography.Text>
          )}
          {conversation ? <HandlerTag handler={conversation.handler} /> : null}
        </Flex>
        {conversation ? (
          <Typography.Text type="secondary" ellipsis style={{ fontSize: 12 }}>
            {conversation.chat_type === 'group' ? <TeamOutlined /> : <UserOutlined />}{' '}
            {t(`chatHistory.chatType.${conversation.chat_type}`)}
            {' · '}
            {conversation.channel.name || conversation.channel.id || t('chatHistory.list.noChannel')}
            {conversation.chat_type === 'group' && conversation.customer ? ` · ${conversation.customer.name}` : ''}
            {' · '}
            {conversation.message_count === 1
              ? t('chatHistory.thread.messageCountOne', { count: 1 })
              : t('chatHistory.thread.messageCount', { count: conversation.message_count })}
          </Typography.Text>
        ) : null}
      </Flex>
      {profile ? (
        <Tooltip title={narrow ? t('chatHistory.thread.profile') : t('chatHistory.thread.profileTip')}>
          <RouteButton
            href={profile}
            icon={<IdcardOutlined />}
            aria-label={t('chatHistory.thread.profile')}
            data-testid="chat-thread-profile"
          >
            {narrow ? null : t('chatHistory.thread.profile')}
          </RouteButton>
        </Tooltip>
      ) : null}
      {narrow ? null : close}
    </Flex>
  );
}
