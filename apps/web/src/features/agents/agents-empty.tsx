import { PlusOutlined, RobotOutlined } from '@ant-design/icons';
import { Button, Flex, Typography, theme } from 'antd';
import { useTranslation } from 'react-i18next';

/** No agent in the space yet: what an agent is and the three steps to a working one. */
export function AgentsEmpty({ onCreate }: { onCreate: (() => void) | null }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  return (
    <Flex vertical align="center" gap={12} style={{ padding: '40px 16px' }} data-testid="agents-empty">
      <RobotOutlined style={{ fontSize: 44, color: token.colorPrimary }} />
      <Typography.Title level={4} style={{ margin: 0 }}>
        {t('agents.empty.title')}
      </Typography.Title>
      <Typography.Paragraph type="secondary" style={{ maxWidth: 620, textAlign: 'center', margin: 0 }}>
        {t('agents.empty.text')}
      </Typography.Paragraph>
      <ol style={{ margin: 0, paddingInlineStart: 20, color: token.colorTextSecondary, maxWidth: 620 }}>
        <li>{t('agents.empty.step1')}</li>
        <li>{t('agents.empty.step2')}</li>
        <li>{t('agents.empty.step3')}</li>
      </ol>
      {onCreate ? (
        <Button
          type="primary"
          icon={<PlusOutlined />}
          onClick={onCreate}
          data-testid="agents-empty-create"
          style={{ marginTop: 8 }}
        >
          {t('agents.create.button')}
        </Button>
      ) : null}
    </Flex>
  );
}
