import { ArrowUpOutlined, PauseOutlined } from '@ant-design/icons';
import { Button, Flex, Input, type InputRef, Tooltip, theme } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

interface Props {
  streaming: boolean;
  disabled?: boolean;
  placeholder?: string;
  /** Returns false when nothing was sent (empty, or an answer is still streaming). */
  onSend: (text: string) => boolean;
  onStop: () => void;
  maxLength: number;
}

/**
 * Enter sends, Shift+Enter adds a line; Enter while an input method is composing (pinyin, zhuyin)
 * picks the candidate instead. While an answer streams, the send button becomes Stop.
 */
export function ChatInput({ streaming, disabled, placeholder, onSend, onStop, maxLength }: Props) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const [text, setText] = useState('');
  const ref = useRef<InputRef>(null);

  useEffect(() => {
    if (!streaming && !disabled) ref.current?.focus({ preventScroll: true });
  }, [streaming, disabled]);

  const send = () => {
    if (streaming || disabled || !text.trim()) return;
    if (onSend(text)) setText('');
  };

  return (
    <Flex align="flex-end" gap={8}>
      <Input.TextArea
        ref={ref}
        value={text}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing || event.keyCode === 229) return;
          event.preventDefault();
          send();
        }}
        placeholder={placeholder ?? t('agents.chat.placeholder')}
        autoSize={{ minRows: 1, maxRows: 6 }}
        maxLength={maxLength}
        disabled={disabled}
        aria-label={t('agents.chat.inputLabel')}
        data-testid="chat-input"
        style={{ flex: 1, resize: 'none', borderRadius: 12, padding: '8px 12px', background: token.colorBgContainer }}
      />
      {streaming ? (
        <Tooltip title={t('agents.chat.stopHelp')}>
          <Button shape="round" size="large" icon={<PauseOutlined />} onClick={onStop} danger data-testid="chat-stop">
            {t('agents.chat.stop')}
          </Button>
        </Tooltip>
      ) : (
        <Tooltip title={t('agents.chat.sendHelp')}>
          <Button
            type="primary"
            shape="circle"
            size="large"
            icon={<ArrowUpOutlined />}
            onClick={send}
            disabled={disabled || !text.trim()}
            aria-label={t('agents.chat.send')}
            data-testid="chat-send"
          />
        </Tooltip>
      )}
    </Flex>
  );
}
