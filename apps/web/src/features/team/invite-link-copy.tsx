import { CopyOutlined } from '@ant-design/icons';
import { App, Button, Input, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { copyText } from '../../lib/copy-text.ts';

/**
 * Copies an invite link; when the browser refuses both ways of copying, the link is shown in a
 * dialog, selected, for the person to copy by hand.
 */
export function useCopyLink() {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  return async (url: string) => {
    if (await copyText(url)) {
      void message.success(t('team.invites.copied'));
      return;
    }
    modal.info({
      title: t('team.invites.copy'),
      content: (
        <>
          <Typography.Paragraph type="secondary">{t('team.invites.copyManual')}</Typography.Paragraph>
          <Input readOnly value={url} autoFocus onFocus={(event) => event.target.select()} />
        </>
      ),
    });
  };
}

/** A small "copy link" button. */
export function CopyLinkButton({ url, testId, label }: { url: string; testId: string; label?: boolean }) {
  const { t } = useTranslation();
  const copy = useCopyLink();
  return (
    <Button
      size="small"
      type={label ? 'default' : 'text'}
      icon={<CopyOutlined />}
      onClick={() => void copy(url)}
      aria-label={t('team.invites.copy')}
      title={t('team.invites.copy')}
      data-testid={testId}
    >
      {label ? t('team.invites.copy') : null}
    </Button>
  );
}
