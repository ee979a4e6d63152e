import { KeyOutlined, PlusOutlined } from '@ant-design/icons';
import { agentRoutes, type RouteData } from '@athena/contract';
import { App, Button, Card, Empty, Flex, Popconfirm, Table, type TableProps, Tag, Tooltip, Typography } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useApiMutation } from '../../shared/hooks/use-api-mutation.ts';
import { refreshAgents, useApiKeys } from './agent-queries.ts';
import { ApiKeyModal } from './api-key-modal.tsx';

type ApiKey = RouteData<typeof agentRoutes.apiKeyList>['items'][number];

const when = (iso: string) => (
  <Tooltip title={dayjs(iso).format('YYYY-MM-DD HH:mm:ss')}>
    <span style={{ whiteSpace: 'nowrap' }}>{dayjs(iso).fromNow()}</span>
  </Tooltip>
);

/** Keys for the OpenAI-compatible API: create (shown once), see use, revoke at once. */
export function ApiKeysCard({ agentId, spaceId, canEdit }: { agentId: string; spaceId: string; canEdit: boolean }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const revokeKey = useApiMutation(agentRoutes.apiKeyRevoke);
  const keys = useApiKeys(spaceId, agentId);
  const [session, setSession] = useState(0);
  const [open, setOpen] = useState(false);

  const revoke = async (key: ApiKey) => {
    try {
      await revokeKey.mutateAsync({ id: key.id });
      void message.success(t('agents.keys.revoked', { name: key.name }));
      await refreshAgents(spaceId);
    } catch {
      // The failure's notice is already showing.
    }
  };

  const columns: TableProps<ApiKey>['columns'] = [
    {
      key: 'name',
      title: t('agents.keys.columns.name'),
      render: (_, key) => (
        <Flex vertical>
          <Typography.Text strong delete={key.revoked} data-testid="api-key-name-cell">
            {key.name}
          </Typography.Text>
          <Typography.Text
            type="secondary"
            style={{ fontFamily: 'ui-monospace, Menlo, Consolas, monospace', fontSize: 12 }}
            data-testid="api-key-prefix"
          >
            {key.prefix}…
          </Typography.Text>
        </Flex>
      ),
    },
    {
      key: 'uses',
      title: t('agents.keys.columns.uses'),
      render: (_, key) => <span data-testid="api-key-uses">{key.use_count}</span>,
    },
    {
      key: 'lastUsed',
      title: t('agents.keys.columns.lastUsed'),
      render: (_, key) =>
        key.last_used_at ? (
          when(key.last_used_at)
        ) : (
          <Typography.Text type="secondary">{t('agents.keys.never')}</Typography.Text>
        ),
    },
    { key: 'created', title: t('agents.keys.columns.created'), render: (_, key) => when(key.created_at) },
    {
      key: 'actions',
      align: 'right',
      render: (_, key) =>
        key.revoked ? (
          <Tag data-testid="api-key-revoked">{t('agents.keys.revokedTag')}</Tag>
        ) : canEdit ? (
          <Popconfirm
            title={t('agents.keys.revokeTitle', { name: key.name })}
            description={t('agents.keys.revokeText')}
            okText={t('agents.keys.revoke')}
            cancelText={t('agents.cancel')}
            okButtonProps={{ danger: true, 'data-testid': 'api-key-revoke-confirm' }}
            onConfirm={() => revoke(key)}
          >
            <Button size="small" danger type="text" data-testid="api-key-revoke">
              {t('agents.keys.revoke')}
            </Button>
          </Popconfirm>
        ) : null,
    },
  ];

  return (
    <Card
      size="small"
      data-testid="api-keys-card"
      title={
        <Flex align="center" gap={8}>
          <KeyOutlined />
          {t('agents.keys.title')}
        </Flex>
      }
      extra={
        canEdit ? (
          <Button
            size="small"
            type="primary"
            icon={<PlusOutlined />}
            onClick={() => {
              setSession((n) => n + 1);
              setOpen(true);
            }}
            data-testid="api-key-create"
          >
            {t('agents.keys.create')}
          </Button>
        ) : null
      }
    >
      <Flex vertical gap={10}>
        <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
          {t('agents.keys.explain')}
        </Typography.Paragraph>
        <Table<ApiKey>
          rowKey="id"
          size="small"
          columns={columns}
          dataSource={keys.data?.items ?? []}
          loading={keys.isPending || keys.isFetching}
          pagination={false}
          scroll={{ x: 'max-content' }}
          onRow={(key) => ({ 'data-testid': 'api-key-row', 'data-revoked': String(key.revoked) }) as object}
          locale={{
            emptyText: keys.isError ? (
              <Typography.Text type="danger">{t('agents.keys.loadFailed')}</Typography.Text>
            ) : (
              <Empty
                image={Empty.PRESENTED_IMAGE_SIMPLE}
                description={t('agents.keys.empty')}
                data-testid="api-keys-empty"
              />
            ),
          }}
        />
      </Flex>
      <ApiKeyModal
        key={session}
        open={open}
        agentId={agentId}
        onClose={() => setOpen(false)}
        onCreated={() => void refreshAgents(spaceId)}
      />
    </Card>
  );
}
