import { RedoOutlined } from '@ant-design/icons';
import { Alert, Button, Flex, Tag, Tooltip, theme } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { CopyButton } from '../copy-button.tsx';
import type { ChatItem } from './chat-types.ts';
import { CitationSources } from './citation-chip.tsx';
import { Markdown } from './markdown.tsx';
import { ToolSteps } from './tool-steps-view.tsx';

function Typing() {
  return (
    <span className="athena-typing" data-testid="chat-typing" aria-hidden>
      <span />
      <span />
      <span />
    </span>
  );
}

interface Props {
  item: ChatItem;
  avatar: ReactNode;
  /** Shown under the last answer when it may be answered again. */
  onRegenerate?: () => void;
  /** False for the opening message, which is not part of the conversation. */
  actions?: boolean;
}

/** One message: the person's question on the right, the agent's Markdown answer on the left. */
export function MessageBubble({ item, avatar, onRegenerate, actions = true }: Props) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const mine = item.role === 'user';
  const attrs = { 'data-testid': 'chat-message', 'data-role': item.role, 'data-status': item.status };

  if (mine) {
    return (
      <Flex vertical align="flex-end" gap={4} {...attrs}>
        <div
          data-testid="chat-message-content"
          style={{
            maxWidth: '85%',
            padding: '8px 14px',
            borderRadius: '14px 14px 4px 14px',
            background: item.status === 'unsent' ? token.colorFillSecondary : token.colorPrimary,
            color: item.status === 'unsent' ? token.colorText : token.colorTextLightSolid,
            whiteSpace: 'pre-wrap',
            overflowWrap: 'anywhere',
            lineHeight: 1.6,
          }}
        >
          {item.content}
        </div>
        {item.status === 'unsent' ? (
          <Tag color="warning" bordered={false} data-testid="chat-unsent" style={{ marginInlineEnd: 0 }}>
            {t('agents.chat.unsent')}
          </Tag>
        ) : null}
      </Flex>
    );
  }

  const streaming = item.status === 'streaming';
  return (
    <Flex gap={10} align="flex-start" {...attrs}>
      {avatar}
      <Flex vertical gap={6} style={{ minWidth: 0, maxWidth: 'calc(100% - 48px)' }}>
        <ToolSteps steps={item.steps} streaming={streaming} />
        {/* A call that failed before any text: the error below says it all (no empty answer). */}
        {item.status === 'error' && !item.content ? null : (
          <div
            style={{
              padding: '8px 14px',
              borderRadius: '4px 14px 14px 14px',
              background: token.colorFillQuaternary,
              border: `1px solid ${token.colorBorderSecondary}`,
              minWidth: 0,
            }}
          >
            {item.content ? (
              <Markdown text={item.content} testId="chat-message-content" citations={item.citations} />
            ) : streaming ? (
              <Typing />
            ) : (
              <span data-testid="chat-message-content" style={{ color: token.colorTextTertiary }}>
                {t('agents.chat.emptyAnswer')}
              </span>
            )}
          </div>
        )}
        {/* Sources belong to an answer that cites them; none was written. */}
        {item.content ? <CitationSources citations={item.citations} /> : null}
        {item.status === 'error' ? (
          <Alert
            type="error"
            showIcon
            title={item.errorText ?? t('agents.chat.failed')}
            description={item.content ? t('agents.chat.keptPartial') : undefined}
            data-testid="chat-message-error"
            style={{ padding: '6px 12px' }}
          />
        ) : null}
        {streaming || !actions ? null : (
          <Flex align="center" gap={4} wrap>
            {item.status === 'stopped' || item.status === 'interrupted' ? (
              <Tooltip title={t(`agents.chat.${item.status}Help`)}>
                <Tag bordered={false} data-testid={`chat-${item.status}`} style={{ marginInlineEnd: 4 }}>
                  {t(`agents.chat.${item.status}`)}
                </Tag>
              </Tooltip>
            ) : null}
            {item.content ? <CopyButton text={item.content} type="text" size="small" data-testid="chat-copy" /> : null}
            {onRegenerate ? (
              <Tooltip title={t('agents.chat.regenerate')}>
                <Button
                  type="text"
                  size="small"
                  icon={<RedoOutlined />}
                  onClick={onRegenerate}
                  aria-label={t('agents.chat.regenerate')}
                  data-testid="chat-regenerate"
                />
              </Tooltip>
            ) : null}
          </Flex>
        )}
      </Flex>
    </Flex>
  );
}
