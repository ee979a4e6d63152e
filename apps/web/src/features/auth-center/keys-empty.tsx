import { KeyOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Flex, Typography, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { PresetButtons } from './preset-buttons.tsx';
import type { ProviderPreset } from './presets.ts';

/**
 * No key in the space yet. People who manage keys get the three steps and a provider to start
 * from; members learn who adds keys.
 */
export function KeysEmpty({
  onAdd,
  privateAddressesAllowed,
}: {
  onAdd: ((preset?: ProviderPreset) => void) | null;
  /** Whether this server lets keys call models on the team's own machines or network. */
  privateAddressesAllowed: boolean;
}) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  return (
    <Flex vertical align="center" gap={12} style={{ padding: '32px 16px' }} data-testid="keys-empty">
      <KeyOutlined style={{ fontSize: 40, color: token.colorPrimary }} />
      <Typography.Title level={4} style={{ margin: 0 }}>
        {t('authCenter.empty.title')}
      </Typography.Title>
      {onAdd ? (
        <>
          <Typography.Paragraph type="secondary" style={{ maxWidth: 620, textAlign: 'center', margin: 0 }}>
            {t('authCenter.empty.text')}
          </Typography.Paragraph>
          <ol
            style={{
              margin: 0,
              paddingInlineStart: 20,
              textAlign: 'left',
              color: token.colorTextSecondary,
              maxWidth: 620,
            }}
          >
            <li>{t('authCenter.empty.step1')}</li>
            <li>{t('authCenter.empty.step2')}</li>
            <li>{t('authCenter.empty.step3')}</li>
          </ol>
          <Typography.Text strong style={{ marginTop: 8 }}>
            {t('authCenter.empty.pick')}
          </Typography.Text>
          <PresetButtons size="large" onPick={(preset) => onAdd(preset)} testIdPrefix="keys-preset" />
          <Typography.Text type="secondary" style={{ fontSize: 12, maxWidth: 620, textAlign: 'center' }}>
            {t(privateAddressesAllowed ? 'authCenter.empty.localAllowed' : 'authCenter.empty.localNote')}
          </Typography.Text>
          <Button type="primary" icon={<PlusOutlined />} onClick={() => onAdd()} data-testid="keys-empty-add">
            {t('authCenter.empty.custom')}
          </Button>
        </>
      ) : (
        <Typography.Paragraph type="secondary" style={{ maxWidth: 560, textAlign: 'center', margin: 0 }}>
          {t('authCenter.empty.member')}
        </Typography.Paragraph>
      )}
    </Flex>
  );
}
