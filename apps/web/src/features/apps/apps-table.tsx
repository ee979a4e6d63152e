import { ExportOutlined } from '@ant-design/icons';
import type { agentRoutes, RouteData } from '@athena/contract';
import { Button, Flex, Space, Table, type TableProps, Tag, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { buildHref, isExternalUrl, openExternal } from '../../lib/navigation.ts';
import { AgentAvatar } from '../agents/agent-avatar.tsx';
import { CopyButton } from '../agents/copy-button.tsx';

export type AppRow = RouteData<typeof agentRoutes.apps>['items'][number];

const number = (value: number) => <span style={{ fontVariantNumeric: 'tabular-nums' }}>{value.toLocaleString()}</span>;

/** Published agents: where they are reachable and how much they are used. */
export function AppsTable({
  items,
  loading,
  onOpen,
}: {
  items: AppRow[];
  loading: boolean;
  onOpen: (agentId: string) => void;
}) {
  const { t } = useTranslation();
  const columns: TableProps<AppRow>['columns'] = [
    {
      key: 'agent',
      title: t('apps.columns.agent'),
      render: (_, row) => (
        <Flex gap={10} align="center">
          <AgentAvatar name={row.agent.name} url={row.agent.avatar_url} size={36} />
          <Flex vertical style={{ minWidth: 0 }}>
            <Typography.Link
              href={buildHref('agentDetail', { params: { agentId: row.agent.id } })}
              onClick={(event) => {
                event.preventDefault();
                onOpen(row.agent.id);
              }}
              strong
              data-testid="app-agent-link"
            >
              {row.agent.name}
            </Typography.Link>
            <Typography.Text type="secondary" ellipsis style={{ maxWidth: 260, fontSize: 12 }}>
              {row.agent.description || t('agents.noDescription')}
            </Typography.Text>
          </Flex>
        </Flex>
      ),
    },
    {
      key: 'share',
      title: t('apps.columns.share'),
      render: (_, row) => {
        const url = row.agent.share.url;
        if (!row.agent.share.enabled || !url) {
          return (
            <Tag bordered={false} data-testid="app-share-off">
              {t('agents.shareOff')}
            </Tag>
          );
        }
        return (
          <Space size={4} data-testid="app-share">
            <Tag color="green" bordered={false}>
              {t('agents.shareOn')}
            </Tag>
            <CopyButton text={url} size="small" type="text" data-testid="app-share-copy" />
            <Tooltip title={t('agents.share.open')}>
              <Button
                size="small"
                type="text"
                icon={<ExportOutlined />}
                aria-label={t('agents.share.open')}
                onClick={() => {
                  if (isExternalUrl(url)) openExternal(url);
                }}
                data-testid="app-share-open"
              />
            </Tooltip>
          </Space>
        );
      },
    },
    {
      key: 'keys',
      title: t('apps.columns.apiKeys'),
      align: 'right',
      render: (_, row) => <span data-testid="app-api-keys">{number(row.api_keys)}</span>,
    },
    {
      key: 'conversations',
      title: t('apps.columns.conversations'),
      align: 'right',
      render: (_, row) => <span data-testid="app-conversations">{number(row.conversations)}</span>,
    },
    {
      key: 'messages',
      title: t('apps.columns.messages'),
      align: 'right',
      render: (_, row) => <span data-testid="app-messages">{number(row.messages)}</span>,
    },
    {
      key: 'tokens',
      title: t('apps.columns.tokens'),
      align: 'right',
      render: (_, row) => <span data-testid="app-tokens">{number(row.tokens)}</span>,
    },
  ];
  return (
    <Table<AppRow>
      rowKey={(row) => row.agent.id}
      columns={columns}
      dataSource={items}
      loading={loading}
      pagination={false}
      scroll={{ x: 'max-content' }}
      onRow={(row) => ({ 'data-testid': 'app-row', 'data-agent-name': row.agent.name }) as object}
      data-testid="apps-table"
    />
  );
}
