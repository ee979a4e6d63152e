import { DatabaseOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Flex, Typography, theme } from 'antd';
import { useTranslation } from 'react-i18next';

/** No base in the space yet: what a knowledge base is for and the steps to a useful one. */
export function KnowledgeEmpty({ onCreate }: { onCreate: (() => void) | null }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  return (
    <Flex vertical align="center" gap={12} style={{ padding: '40px 16px' }} data-testid="knowledge-empty">
      <DatabaseOutlined style={{ fontSize: 44, color: token.colorPrimary }} />
      <Typography.Title level={4} style={{ margin: 0 }}>
        {t('knowledge.empty.title')}
      </Typography.Title>
      <Typography.Paragraph type="secondary" style={{ maxWidth: 620, textAlign: 'center', margin: 0 }}>
        {t('knowledge.empty.text')}
      </Typography.Paragraph>
      <ol style={{ margin: 0, paddingInlineStart: 20, color: token.colorTextSecondary, maxWidth: 620 }}>
        <li>{t('knowledge.empty.step1')}</li>
        <li>{t('knowledge.empty.step2')}</li>
        <li>{t('knowledge.empty.step3')}</li>
      </ol>
      {onCreate ? (
        <Button
          type="primary"
          icon={<PlusOutlined />}
          onClick={onCreate}
          data-testid="knowledge-empty-create"
          style={{ marginTop: 8 }}
        >
          {t('knowledge.create')}
        </Button>
      ) : null}
    </Flex>
  );
}
