import { LockOutlined, MessageOutlined, NodeIndexOutlined, SortAscendingOutlined } from '@ant-design/icons';
import { MODEL_PURPOSES, type ModelPurpose } from '@athena/contract';
import { Card, Col, Flex, Row, Typography, theme } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

const ICONS: Record<ModelPurpose, ReactNode> = {
  chat: <MessageOutlined />,
  embedding: <NodeIndexOutlined />,
  rerank: <SortAscendingOutlined />,
};

/** What keys are for, the three purposes, and how the key itself is kept. */
export function KeysIntro() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  return (
    <Card size="small" data-testid="keys-intro" styles={{ body: { padding: '16px 20px' } }}>
      <Flex vertical gap={12}>
        <Typography.Paragraph style={{ margin: 0 }}>{t('authCenter.intro')}</Typography.Paragraph>
        <Row gutter={[16, 8]}>
          {MODEL_PURPOSES.map((purpose) => (
            <Col xs={24} md={8} key={purpose}>
              <Flex gap={10} align="flex-start">
                <span style={{ color: token.colorPrimary, fontSize: 16, lineHeight: '22px' }}>{ICONS[purpose]}</span>
                <div>
                  <Typography.Text strong>{t(`authCenter.purpose.${purpose}`)}</Typography.Text>
                  <br />
                  <Typography.Text type="secondary" style={{ fontSize: 13 }}>
                    {t(`authCenter.purposeHelp.${purpose}`)}
                  </Typography.Text>
                </div>
              </Flex>
            </Col>
          ))}
        </Row>
        <Typography.Text type="secondary" style={{ fontSize: 13 }}>
          <LockOutlined /> {t('authCenter.security')}
        </Typography.Text>
      </Flex>
    </Card>
  );
}
