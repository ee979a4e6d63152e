import { DeleteOutlined, EditOutlined, PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import { type McpExternalServer, mcpExternalRoutes } from '@athena/contract';
import { App, Button, Flex, Popconfirm, Table, Tag, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useApiMutation } from '../../shared/hooks/use-api-mutation.ts';
import { ListLoadError } from '../../shared/ui/list-page-parts.tsx';
import { RelativeTime } from '../../shared/ui/relative-time.tsx';
import { serverStatus } from './external-logic.ts';
import { useExternalServers, useRefreshExternal } from './external-queries.ts';
import { ExternalServerForm } from './external-server-form.tsx';
import { ExternalTools } from './external-tools.tsx';

const STATUS_COLOR = { ready: 'success', error: 'error', unread: 'default', off: 'default' } as const;

/**
 * The team's external MCP servers (docs/mcp.md, "External MCP servers"): their status, add, edit,
 * read the tools again, remove; a row opens to its tools and "try it". Members see the list and tools.
 */
export function ExternalServersTab({ spaceId }: { spaceId: string | null }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const servers = useExternalServers(spaceId);
  const reload = useRefreshExternal(spaceId);
  const refresh = useApiMutation(mcpExternalRoutes.refresh);
  const remove = useApiMutation(mcpExternalRoutes.remove);
  const [editing, setEditing] = useState<McpExternalServer | 'new' | null>(null);
  const [refreshing, setRefreshing] = useState<string | null>(null);
  const [expanded, setExpanded] = useState<string[]>([]);
  const canManage = servers.data?.can_manage ?? false;
  const items = servers.data?.items ?? [];

  const doRefresh = async (server: McpExternalServer) => {
    setRefreshing(server.id);
    try {
      const { tools } = await refresh.mutateAsync({ id: server.id });
      void message.success(t('mcp.external.refreshed', { name: server.name, count: tools.length }));
      setExpanded((keys) => (keys.includes(server.id) ? keys : [...keys, server.id]));
    } catch {
      // The failure's notice is already showing; the row shows it as its last error.
    } finally {
      setRefreshing(null);
      void reload();
    }
  };

  const doRemove = async (server: McpExternalServer) => {
    try {
      await remove.mutateAsync({ id: server.id });
      void message.success(t('mcp.external.removed', { name: server.name }));
      void reload();
    } catch {
      // The failure's notice is already showing.
    }
  };

  if (servers.isError && !servers.data) {
    return (
      <ListLoadError
        title={t('mcp.external.loadError')}
        error={servers.error}
        onRetry={() => void servers.refetch()}
        testId="mcp-external-error"
      />
    );
  }

  return (
    <Flex vertical gap={12} data-testid="mcp-external">
      <Flex justify="space-between" align="center" gap={12} wrap>
        <Typography.Text type="secondary">{t('mcp.external.intro')}</Typography.Text>
        {canManage ? (
          <Tooltip title={items.length >= (servers.data?.max ?? 0) ? t('mcp.external.full') : undefined}>
            <Button
              type="primary"
              icon={<PlusOutlined />}
              disabled={items.length >= (servers.data?.max ?? 0)}
              onClick={() => setEditing('new')}
              data-testid="mcp-external-add"
            >
              {t('mcp.external.add')}
            </Button>
          </Tooltip>
        ) : null}
      </Flex>
      <Table<McpExternalServer>
        rowKey="id"
        size="middle"
        loading={servers.isPending}
        dataSource={items}
        pagination={false}
        scroll={{ x: 900 }}
        locale={{ emptyText: t(canManage ? 'mcp.external.empty' : 'mcp.external.emptyMember') }}
        onRow={(server) => ({ 'data-testid': `mcp-external-row-${server.name}` }) as React.HTMLAttributes<HTMLElement>}
        expandable={{
          expandedRowKeys: expanded,
          onExpandedRowsChange: (keys) => setExpanded(keys as string[]),
          expandedRowRender: (server) => (
            <ExternalTools spaceId={spaceId} server={server} canManage={canManage} onChanged={() => void reload()} />
          ),
        }}
        columns={[
          {
            title: t('mcp.external.name'),
            dataIndex: 'name',
            render: (name: string, server) => (
              <Flex vertical gap={2}>
                <Typography.Text strong>{name}</Typography.Text>
                <Typography.Text type="secondary" ellipsis style={{ maxWidth: 320, fontSize: 12 }}>
                  {server.url}
                </Typography.Text>
              </Flex>
            ),
          },
          {
            title: t('mcp.external.transport'),
            dataIndex: 'transport',
            width: 140,
            render: (transport: McpExternalServer['transport']) => t(`mcp.external.transports.${transport}`),
          },
          {
            title: t('mcp.external.status'),
            key: 'status',
            render: (_: unknown, server) => {
              const status = serverStatus(server);
              return (
                <Flex vertical gap={2}>
                  <Tag color={STATUS_COLOR[status]} style={{ width: 'fit-content' }} data-testid="mcp-external-status">
                    {t(`mcp.external.statuses.${status}`, { count: server.tools_count })}
                  </Tag>
                  {status === 'error' ? (
                    <Typography.Text type="danger" style={{ fontSize: 12, maxWidth: 320 }} ellipsis={{ tooltip: true }}>
                      {server.last_error}
                    </Typography.Text>
                  ) : null}
                </Flex>
              );
            },
          },
          {
            title: t('mcp.external.lastRead'),
            dataIndex: 'tools_read_at',
            render: (at: string | null) =>
              at ? (
                <RelativeTime iso={at} />
              ) : (
                <Typography.Text type="secondary">{t('mcp.external.never')}</Typography.Text>
              ),
          },
          {
            title: t('mcp.external.usage'),
            key: 'usage',
            render: (_: unknown, server) =>
              t('mcp.external.callsCount', { calls: server.calls, errors: server.errors }),
          },
          ...(canManage
            ? [
                {
                  title: '',
                  key: 'actions',
                  width: 230,
                  render: (_: unknown, server: McpExternalServer) => (
                    <Flex gap={4}>
                      <Button
                        size="small"
                        icon={<ReloadOutlined />}
                        loading={refreshing === server.id}
                        onClick={() => void doRefresh(server)}
                        data-testid="mcp-external-refresh"
                      >
                        {t('mcp.external.refresh')}
                      </Button>
                      <Button
                        size="small"
                        icon={<EditOutlined />}
                        onClick={() => setEditing(server)}
                        aria-label={t('mcp.external.edit')}
                        data-testid="mcp-external-edit"
                      />
                      <Popconfirm
                        title={t('mcp.external.removeTitle', { name: server.name })}
                        description={t('mcp.external.removeText')}
                        okText={t('mcp.external.remove')}
                        okButtonProps={{ danger: true, 'data-testid': 'mcp-external-remove-ok' }}
                        cancelText={t('mcp.cancel')}
                        onConfirm={() => doRemove(server)}
                      >
                        <Button
                          size="small"
                          danger
                          icon={<DeleteOutlined />}
                          aria-label={t('mcp.external.remove')}
                          data-testid="mcp-external-remove"
                        />
                      </Popconfirm>
                    </Flex>
                  ),
                },
              ]
            : []),
        ]}
      />
      <ExternalServerForm
        key={editing === 'new' ? 'new' : (editing?.id ?? 'closed')}
        server={editing === 'new' ? null : editing}
        open={editing !== null}
        onClose={() => setEditing(null)}
        onSaved={(saved) => {
          const added = editing === 'new';
          setEditing(null);
          void reload();
          // A new server has no tools yet: read them at once.
          if (added) void doRefresh(saved);
        }}
      />
    </Flex>
  );
}
