import { Flex, Typography } from 'antd';
import type { ReactNode } from 'react';

/**
 * Every page's head, one convention: the title, one line saying what the page is for, and the
 * page's own buttons on the right. Pages are full width; a page never narrows itself (forms keep
 * their fields readable inside their cards instead).
 */
export function PageHeader({ title, subtitle, extra }: { title: ReactNode; subtitle: ReactNode; extra?: ReactNode }) {
  return (
    <Flex justify="space-between" align="flex-end" gap={12} wrap data-testid="page-header">
      <Flex vertical gap={4} style={{ minWidth: 0 }}>
        <Typography.Title level={3} style={{ margin: 0 }} data-testid="page-title">
          {title}
        </Typography.Title>
        <Typography.Text type="secondary" data-testid="page-subtitle">
          {subtitle}
        </Typography.Text>
      </Flex>
      {extra}
    </Flex>
  );
}
