import { PlusOutlined } from '@ant-design/icons';
import { Button, Flex, Typography, theme } from 'antd';
import type { ReactNode } from 'react';

/**
 * A feature's empty page on first use: what the thing is, the steps to a working one, and the
 * create button for those allowed to create (`onCreate` null hides it). Texts come translated.
 */
export function FirstUseEmpty(props: {
  icon: ReactNode;
  title: string;
  text: string;
  steps: string[];
  createLabel: string;
  onCreate: (() => void) | null;
  testId: string;
}) {
  const { token } = theme.useToken();
  return (
    <Flex vertical align="center" gap={12} style={{ padding: '40px 16px' }} data-testid={props.testId}>
      <span style={{ fontSize: 44, color: token.colorPrimary, lineHeight: 1 }}>{props.icon}</span>
      <Typography.Title level={4} style={{ margin: 0 }}>
        {props.title}
      </Typography.Title>
      <Typography.Paragraph type="secondary" style={{ maxWidth: 620, textAlign: 'center', margin: 0 }}>
        {props.text}
      </Typography.Paragraph>
      <ol style={{ margin: 0, paddingInlineStart: 20, color: token.colorTextSecondary, maxWidth: 620 }}>
        {props.steps.map((step) => (
          <li key={step}>{step}</li>
        ))}
      </ol>
      {props.onCreate ? (
        <Button
          type="primary"
          icon={<PlusOutlined />}
          onClick={props.onCreate}
          data-testid={`${props.testId}-create`}
          style={{ marginTop: 8 }}
        >
          {props.createLabel}
        </Button>
      ) : null}
    </Flex>
  );
}
