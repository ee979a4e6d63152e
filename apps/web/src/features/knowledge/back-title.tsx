import { ArrowLeftOutlined } from '@ant-design/icons';
import { Button, Flex, Typography } from 'antd';
import type { ReactNode } from 'react';

/** A sub-page's head: back, the title with its tags, a line of facts, and the page's buttons. */
export function BackTitle({
  title,
  tags,
  subtitle,
  extra,
  backLabel,
  onBack,
}: {
  title: ReactNode;
  tags?: ReactNode;
  subtitle?: ReactNode;
  extra?: ReactNode;
  backLabel: string;
  onBack: () => void;
}) {
  return (
    <Flex align="flex-start" gap={12} wrap>
      <Button
        type="text"
        icon={<ArrowLeftOutlined />}
        onClick={onBack}
        aria-label={backLabel}
        title={backLabel}
        data-testid="knowledge-back"
        style={{ marginTop: 2 }}
      />
      <Flex vertical gap={4} style={{ flex: 1, minWidth: 240 }}>
        <Flex align="center" gap={8} wrap>
          <Typography.Title level={3} style={{ margin: 0, minWidth: 0 }} ellipsis data-testid="page-title">
            {title}
          </Typography.Title>
          {tags}
        </Flex>
        {subtitle ? (
          <Typography.Text type="secondary" style={{ fontSize: 13 }}>
            {subtitle}
          </Typography.Text>
        ) : null}
      </Flex>
      {extra ? (
        <Flex gap={8} wrap>
          {extra}
        </Flex>
      ) : null}
    </Flex>
  );
}
