import type { ModelKey } from '@athena/contract';
import { Flex, Table, type TableProps, Tag, Tooltip, Typography } from 'antd';
import dayjs from 'dayjs';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { userTime } from '../../lib/user-time.ts';
import { KeyActions, SetDefaultButton } from './key-actions.tsx';
import { LastTestCell, MONO_FONT } from './test-result.tsx';

interface Props {
  items: ModelKey[];
  spaceId: string;
  /** Null for people who may only look (members). */
  manage: null | {
    testingIds: ReadonlySet<string>;
    onTest: (item: ModelKey) => void;
    onEdit: (item: ModelKey) => void;
  };
  emptyText: ReactNode;
}

export const PURPOSE_COLORS = { chat: 'blue', embedding: 'purple', rerank: 'cyan' } as const;

const mono = { fontFamily: MONO_FONT, fontSize: 13 };

/** Data attributes for a row (antd's onRow props type does not list them). */
const rowAttrs = (item: ModelKey): object => ({
  'data-testid': `key-row-${item.id}`,
  'data-model-name': item.model_name,
  'data-purpose': item.purpose,
});

/** The space's keys: what each is, where it points, how its last test went and who added it. */
export function KeysTable({ items, spaceId, manage, emptyText }: Props) {
  const { t } = useTranslation();

  const columns: TableProps<ModelKey>['columns'] = [
    {
      key: 'model',
      title: t('authCenter.columns.model'),
      render: (_, item) => (
        <Flex vertical gap={4} align="flex-start">
          <Flex gap={6} align="center" wrap>
            <Typography.Text strong data-testid="key-model-name">
              {item.model_name}
            </Typography.Text>
            {item.is_default ? (
              <Tooltip title={t('authCenter.defaultHelp', { purpose: t(`authCenter.purpose.${item.purpose}`) })}>
                <Tag color="gold" data-testid="key-default" style={{ marginInlineEnd: 0 }}>
                  {t('authCenter.default')}
                </Tag>
              </Tooltip>
            ) : null}
          </Flex>
          <Flex gap={8} align="center" wrap>
            <Tag
              color={PURPOSE_COLORS[item.purpose]}
              bordered={false}
              data-testid="key-purpose"
              style={{ marginInlineEnd: 0 }}
            >
              {t(`authCenter.purpose.${item.purpose}`)}
            </Tag>
            {item.purpose === 'rerank' ? (
              // Offered so a team can add one now; retrieval does not rerank with a model yet.
              <Tooltip title={t('authCenter.rerankUnusedHelp')}>
                <Tag bordered={false} data-testid="key-rerank-unused" style={{ marginInlineEnd: 0 }}>
                  {t('authCenter.rerankUnused')}
                </Tag>
              </Tooltip>
            ) : null}
            {manage && !item.is_default ? <SetDefaultButton item={item} spaceId={spaceId} /> : null}
          </Flex>
        </Flex>
      ),
    },
    {
      key: 'version',
      title: t('authCenter.columns.version'),
      render: (_, item) => (
        <Typography.Text style={mono} data-testid="key-version">
          {item.version}
        </Typography.Text>
      ),
    },
    {
      key: 'baseUrl',
      title: t('authCenter.columns.baseUrl'),
      render: (_, item) => (
        <Typography.Text
          style={{ ...mono, maxWidth: 220 }}
          ellipsis={{ tooltip: item.base_url }}
          data-testid="key-base-url"
        >
          {item.base_url}
        </Typography.Text>
      ),
    },
    {
      key: 'apiKey',
      title: t('authCenter.columns.apiKey'),
      render: (_, item) => (
        <Typography.Text style={{ ...mono, whiteSpace: 'nowrap' }} data-testid="key-masked">
          {item.api_key_masked}
        </Typography.Text>
      ),
    },
    {
      key: 'lastTest',
      title: t('authCenter.columns.lastTest'),
      render: (_, item) => <LastTestCell test={item.last_test} />,
    },
    {
      key: 'creator',
      title: t('authCenter.columns.creator'),
      render: (_, item) => (
        <Flex vertical>
          <Typography.Text ellipsis style={{ maxWidth: 140 }} data-testid="key-creator">
            {item.created_by.nickname}
          </Typography.Text>
          <Tooltip title={userTime(item.created_at).format('YYYY-MM-DD HH:mm:ss')}>
            <Typography.Text type="secondary" style={{ fontSize: 12, whiteSpace: 'nowrap' }}>
              {dayjs(item.created_at).fromNow()}
            </Typography.Text>
          </Tooltip>
        </Flex>
      ),
    },
    ...(manage
      ? [
          {
            key: 'actions',
            title: t('authCenter.columns.actions'),
            align: 'right' as const,
            // Always in view: at 1280 px the other columns scroll sideways, the actions stay.
            fixed: 'right' as const,
            render: (_: unknown, item: ModelKey) => (
              <KeyActions
                item={item}
                spaceId={spaceId}
                testing={manage.testingIds.has(item.id)}
                onTest={manage.onTest}
                onEdit={manage.onEdit}
              />
            ),
          },
        ]
      : []),
  ];

  return (
    <Table<ModelKey>
      data-testid="keys-table"
      rowKey="id"
      columns={columns}
      dataSource={items}
      pagination={false}
      size="middle"
      scroll={{ x: 'max-content' }}
      onRow={rowAttrs}
      locale={{ emptyText }}
    />
  );
}
