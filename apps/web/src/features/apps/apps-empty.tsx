import { AppstoreOutlined } from '@ant-design/icons';
import { Button, Flex, Typography, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { useGo } from '../../lib/navigation.ts';

/** Nothing published yet: how an agent gets here. */
export function AppsEmpty() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const go = useGo();
  return (
    <Flex vertical align="center" gap={12} style={{ padding: '40px 16px' }} data-testid="apps-empty">
      <AppstoreOutlined style={{ fontSize: 44, color: token.colorPrimary }} />
      <Typography.Title level={4} style={{ margin: 0 }}>
        {t('apps.empty.title')}
      </Typography.Title>
      <Typography.Paragraph type="secondary" style={{ maxWidth: 620, textAlign: 'center', margin: 0 }}>
        {t('apps.empty.text')}
      </Typography.Paragraph>
      <ol style={{ margin: 0, paddingInlineStart: 20, color: token.colorTextSecondary, maxWidth: 620 }}>
        <li>{t('apps.empty.step1')}</li>
        <li>{t('apps.empty.step2')}</li>
        <li>{t('apps.empty.step3')}</li>
      </ol>
      <Button type="primary" onClick={() => go('agents')} data-testid="apps-empty-agents" style={{ marginTop: 8 }}>
        {t('apps.empty.button')}
      </Button>
    </Flex>
  );
}
