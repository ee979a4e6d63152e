import type { ChatConversation, ChatSendType } from '@athena/contract';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';

// One colour per way of replying, so a manager can scan a thread for who answered what.
const SEND_TYPE_COLORS: Record<ChatSendType, string> = {
  user: 'default',
  ai_full: 'blue',
  ai_assisted: 'cyan',
  human: 'green',
  ai_manual: 'purple',
  fixed: 'gold',
};

const SMALL = { marginInlineEnd: 0, fontSize: 11, lineHeight: '18px', paddingInline: 5 } as const;

/** Who sent a message of ours: AI full, AI assisted, human, AI manual or a fixed script. */
export function SendTypeTag({ sendType }: { sendType: ChatSendType }) {
  const { t } = useTranslation();
  return (
    <Tag color={SEND_TYPE_COLORS[sendType]} variant="filled" style={SMALL} data-testid="chat-send-type">
      {t(`chatHistory.sendType.${sendType}`)}
    </Tag>
  );
}

const HANDLER_COLORS: Record<ChatConversation['handler']['state'], string> = {
  none: 'default',
  ai: 'blue',
  waiting: 'orange',
  human: 'green',
  ended: 'default',
};

/** Who handles the conversation now, with the servicer's name when a person does. */
export function HandlerTag({ handler }: { handler: ChatConversation['handler'] }) {
  const { t } = useTranslation();
  const text =
    handler.state === 'human' && handler.servicer
      ? t('chatHistory.handler.humanNamed', { name: handler.servicer })
      : t(`chatHistory.handler.${handler.state}`);
  return (
    <Tag
      color={HANDLER_COLORS[handler.state]}
      variant="filled"
      style={SMALL}
      data-testid="chat-handler"
      data-state={handler.state}
    >
      {text}
    </Tag>
  );
}
