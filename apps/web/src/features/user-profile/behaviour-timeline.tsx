import {
  CommentOutlined,
  LinkOutlined,
  LoginOutlined,
  LogoutOutlined,
  MenuOutlined,
  ShoppingCartOutlined,
  ShoppingOutlined,
  ThunderboltOutlined,
} from '@ant-design/icons';
import { BEHAVIOUR_KINDS, type BehaviourEvent, type BehaviourKind } from '@athena/contract';
import { Button, Empty, Flex, Select, Skeleton, Tag, Timeline, Typography } from 'antd';
import { type ReactNode, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ListLoadError } from '../../shared/ui/list-page-parts.tsx';
import { RelativeTime } from '../../shared/ui/relative-time.tsx';
import { useBehaviour } from './behaviour-queries.ts';

const ICONS: Record<BehaviourKind, ReactNode> = {
  session_start: <LoginOutlined />,
  session_end: <LogoutOutlined />,
  menu_click: <MenuOutlined />,
  link_open: <LinkOutlined />,
  order: <ShoppingOutlined />,
  purchase: <ShoppingCartOutlined />,
  custom: <ThunderboltOutlined />,
};
const COLORS: Record<BehaviourKind, string> = {
  session_start: 'green',
  session_end: 'gray',
  menu_click: 'blue',
  link_open: 'blue',
  order: 'orange',
  purchase: 'red',
  custom: 'purple',
};

/** Fen as yuan with two decimals, computed on integers (no floating point). */
export const yuanOf = (fen: number) => `¥${Math.floor(fen / 100)}.${String(fen % 100).padStart(2, '0')}`;

interface Props {
  customerId: string;
  spaceId: string | null;
  sceneId: number;
}

/** A customer's behaviour: their messages by type, then every event newest first, by kind. */
export function BehaviourTimeline({ customerId, spaceId, sceneId }: Props) {
  const { t } = useTranslation();
  const [kind, setKind] = useState<BehaviourKind | ''>('');
  const behaviour = useBehaviour(spaceId, sceneId, customerId, kind);
  const events = useMemo(() => behaviour.data?.pages.flatMap((page) => page.items) ?? [], [behaviour.data]);
  const counts = behaviour.data?.pages[0]?.message_counts ?? [];

  const picker = (
    <Select
      value={kind}
      onChange={setKind}
      options={[
        { value: '', label: t('userProfile.behaviour.allKinds') },
        ...BEHAVIOUR_KINDS.map((k) => ({ value: k, label: t(`userProfile.behaviour.kinds.${k}`) })),
      ]}
      style={{ minWidth: 160 }}
      popupMatchSelectWidth={false}
      data-testid="behaviour-kind"
    />
  );

  if (behaviour.isError) {
    return (
      <ListLoadError
        title={t('userProfile.behaviour.loadFailed')}
        error={behaviour.error}
        onRetry={() => void behaviour.refetch()}
        testId="behaviour-error"
      />
    );
  }
  if (behaviour.isPending) return <Skeleton active paragraph={{ rows: 6 }} />;

  const item = (event: BehaviourEvent) => ({
    key: event.id,
    color: COLORS[event.kind],
    icon: ICONS[event.kind],
    content: (
      <div data-testid="behaviour-event" data-kind={event.kind}>
        <Flex justify="space-between" align="baseline" gap={8}>
          <Typography.Text strong>
            {t(`userProfile.behaviour.kinds.${event.kind}`)}
            {event.name ? <Typography.Text style={{ fontWeight: 'normal' }}> · {event.name}</Typography.Text> : null}
          </Typography.Text>
          {event.amount_fen !== null ? <Tag color="orange">{yuanOf(event.amount_fen)}</Tag> : null}
        </Flex>
        {typeof event.detail.url === 'string' ? (
          <Typography.Link
            href={event.detail.url}
            target="_blank"
            rel="noreferrer"
            ellipsis
            style={{ fontSize: 12, display: 'block' }}
          >
            {event.detail.url}
          </Typography.Link>
        ) : null}
        {typeof event.detail.description === 'string' ? (
          <Typography.Text type="secondary" style={{ fontSize: 12, display: 'block' }}>
            {event.detail.description}
          </Typography.Text>
        ) : null}
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          <RelativeTime iso={event.occurred_at} />
          {' · '}
          {t(`userProfile.behaviour.origin.${event.origin}`)}
        </Typography.Text>
      </div>
    ),
  });

  return (
    <div data-testid="behaviour">
      <Flex gap={6} wrap align="center" style={{ marginBottom: 12 }} data-testid="behaviour-message-counts">
        <CommentOutlined style={{ opacity: 0.6 }} />
        <Typography.Text type="secondary">{t('userProfile.behaviour.messages')}</Typography.Text>
        {counts.length === 0 ? (
          <Typography.Text type="secondary">{t('userProfile.behaviour.noMessages')}</Typography.Text>
        ) : (
          counts.map((count) => (
            <Tag key={count.display_type} bordered={false}>
              {t(`chatHistory.kinds.${count.display_type}`).replace(/^[[【]|[\]】]$/g, '')} {count.count}
            </Tag>
          ))
        )}
      </Flex>
      <div style={{ marginBottom: 16 }}>{picker}</div>
      {events.length === 0 ? (
        <Empty description={t('userProfile.behaviour.none')} data-testid="behaviour-empty" />
      ) : (
        <Timeline items={events.map(item)} />
      )}
      {behaviour.hasNextPage ? (
        <Button block loading={behaviour.isFetchingNextPage} onClick={() => void behaviour.fetchNextPage()}>
          {t('userProfile.behaviour.more')}
        </Button>
      ) : null}
    </div>
  );
}
