import { CheckOutlined, CopyOutlined } from '@ant-design/icons';
import { App, Button, type ButtonProps } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { copyText as copyToClipboard } from '../../lib/copy-text.ts';

interface Props extends Omit<ButtonProps, 'onClick'> {
  text: string;
  /** Button text; an icon-only button when absent. */
  label?: string;
}

/** Copies `text` and says so; when the browser refuses, asks the person to copy by hand. */
export function CopyButton({ text, label, ...props }: Props) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [copied, setCopied] = useState(false);
  return (
    <Button
      icon={copied ? <CheckOutlined /> : <CopyOutlined />}
      aria-label={label ?? t('agents.copy')}
      {...props}
      onClick={async () => {
        if (await copyToClipboard(text)) {
          setCopied(true);
          void message.success(t('agents.copied'));
          setTimeout(() => setCopied(false), 1500);
        } else {
          void message.warning(t('agents.copyFailed'));
        }
      }}
    >
      {label}
    </Button>
  );
}
