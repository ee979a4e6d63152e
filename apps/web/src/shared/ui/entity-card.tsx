import { Card, Flex, Tooltip, Typography, theme } from 'antd';
import dayjs from 'dayjs';
import type { MouseEvent, ReactNode } from 'react';

/**
 * The frame of one thing in a list's grid (a knowledge base, a workflow): its icon, name, tags and
 * menu, two lines of description, what the domain tells about it, and who made it and when it last
 * changed. Texts come translated; `data` lands on the card (ids the browser tests look for).
 */
export function EntityCard(props: {
  icon: ReactNode;
  name: string;
  nameTestId: string;
  tags: ReactNode;
  menu: ReactNode;
  description: ReactNode;
  /** Between the description and the footer. */
  children: ReactNode;
  creator: ReactNode;
  creatorTestId: string;
  updatedAt: string;
  /** "Updated 3 minutes ago", given the relative time. */
  updatedText: (time: string) => string;
  onClick: (event: MouseEvent<HTMLDivElement>) => void;
  testId: string;
  data: Record<`data-${string}`, string>;
}) {
  const { token } = theme.useToken();
  return (
    <Card
      hoverable
      onClick={props.onClick}
      data-testid={props.testId}
      {...props.data}
      styles={{ body: { padding: 16, height: '100%' } }}
      style={{ height: '100%' }}
    >
      <Flex vertical gap={10} style={{ height: '100%' }}>
        <Flex gap={12} align="flex-start">
          <Flex
            align="center"
            justify="center"
            style={{
              width: 40,
              height: 40,
              flex: 'none',
              borderRadius: 10,
              background: token.colorPrimaryBg,
              color: token.colorPrimary,
              fontSize: 20,
            }}
          >
            {props.icon}
          </Flex>
          <Flex vertical gap={4} style={{ minWidth: 0, flex: 1 }}>
            <Typography.Text
              strong
              ellipsis={{ tooltip: props.name }}
              style={{ fontSize: 15 }}
              data-testid={props.nameTestId}
            >
              {props.name}
            </Typography.Text>
            <Flex gap={4} wrap>
              {props.tags}
            </Flex>
          </Flex>
          {props.menu}
        </Flex>
        <Typography.Paragraph type="secondary" ellipsis={{ rows: 2 }} style={{ margin: 0, minHeight: 44, flex: 1 }}>
          {props.description}
        </Typography.Paragraph>
        {props.children}
        <Flex
          justify="space-between"
          align="center"
          gap={8}
          style={{ borderTop: `1px solid ${token.colorSplit}`, paddingTop: 10 }}
        >
          <Typography.Text type="secondary" ellipsis style={{ fontSize: 12 }} data-testid={props.creatorTestId}>
            {props.creator}
          </Typography.Text>
          <Tooltip title={dayjs(props.updatedAt).format('YYYY-MM-DD HH:mm')}>
            <Typography.Text type="secondary" style={{ fontSize: 12, whiteSpace: 'nowrap' }}>
              {props.updatedText(dayjs(props.updatedAt).fromNow())}
            </Typography.Text>
          </Tooltip>
        </Flex>
      </Flex>
    </Card>
  );
}
