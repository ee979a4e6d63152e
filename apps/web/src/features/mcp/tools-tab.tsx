import { DeleteOutlined, EditOutlined, PlusOutlined, WarningOutlined } from '@ant-design/icons';
import { type McpTool, mcpRoutes } from '@athena/contract';
import { App, Button, Flex, Popconfirm, Table, Tag, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useApiMutation } from '../../shared/hooks/use-api-mutation.ts';
import { ListLoadError } from '../../shared/ui/list-page-parts.tsx';
import { RelativeTime } from '../../shared/ui/relative-time.tsx';
import { schemaFields } from './mcp-logic.ts';
import { useMcpTools } from './mcp-queries.ts';
import { SchemaView } from './schema-view.tsx';
import { ToolFormModal } from './tool-form-modal.tsx';

export const KIND_COLOR = { knowledge: 'blue', workflow: 'purple', agent: 'cyan' } as const;

interface Props {
  spaceId: string | null;
  canManage: boolean;
  onChanged: () => void;
}

/** The exposed tools: kind, name, description, target (and why a client cannot see it), usage, schema. */
export function ToolsTab({ spaceId, canManage, onChanged }: Props) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const tools = useMcpTools(spaceId);
  const remove = useApiMutation(mcpRoutes.toolRemove);
  const [editing, setEditing] = useState<McpTool | null | undefined>(undefined);

  const doRemove = async (tool: McpTool) => {
    try {
      await remove.mutateAsync({ id: tool.id });
      void message.success(t('mcp.tools.removed', { name: tool.name }));
      onChanged();
    } catch {
      // The failure's notice is already showing.
    }
  };

  if (tools.isError && !tools.data) {
    return (
      <ListLoadError
        title={t('mcp.tools.loadError')}
        error={tools.error}
        onRetry={() => void tools.refetch()}
        testId="mcp-tools-error"
      />
    );
  }

  return (
    <Flex vertical gap={12} data-testid="mcp-tools">
      <Flex justify="space-between" align="center" gap={12} wrap>
        <Typography.Text type="secondary">{t('mcp.tools.intro')}</Typography.Text>
        {canManage ? (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing(null)} data-testid="mcp-tool-add">
            {t('mcp.tools.add')}
          </Button>
        ) : null}
      </Flex>
      <Table<McpTool>
        rowKey="id"
        size="middle"
        loading={tools.isPending}
        dataSource={tools.data?.items ?? []}
        pagination={false}
        scroll={{ x: 900 }}
        locale={{ emptyText: t(canManage ? 'mcp.tools.empty' : 'mcp.tools.emptyMember') }}
        onRow={(tool) => ({ 'data-testid': `mcp-tool-row-${tool.name}` }) as React.HTMLAttributes<HTMLElement>}
        expandable={{
          expandedRowRender: (tool) => <SchemaView schema={tool.input_schema} testId="mcp-tool-schema" />,
          expandRowByClick: false,
        }}
        columns={[
          {
            title: t('mcp.tools.kind'),
            dataIndex: 'kind',
            width: 110,
            render: (kind: McpTool['kind']) => <Tag color={KIND_COLOR[kind]}>{t(`mcp.kinds.${kind}`)}</Tag>,
          },
          {
            title: t('mcp.tools.tool'),
            key: 'name',
            render: (_: unknown, tool) => (
              <Flex vertical gap={2} style={{ minWidth: 200 }}>
                <Typography.Text code strong style={{ width: 'fit-content' }} data-testid="mcp-tool-name-cell">
                  {tool.name}
                </Typography.Text>
                <Typography.Paragraph
                  type="secondary"
                  ellipsis={{ rows: 2, tooltip: tool.description }}
                  style={{ margin: 0, fontSize: 13 }}
                >
                  {tool.description || t('mcp.tools.noDescription')}
                </Typography.Paragraph>
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {t('mcp.tools.inputs', {
                    fields:
                      schemaFields(tool.input_schema)
                        .map((field) => field.name)
                        .join(', ') || '—',
                  })}
                </Typography.Text>
              </Flex>
            ),
          },
          {
            title: t('mcp.tools.targetColumn'),
            key: 'target',
            render: (_: unknown, tool) => (
              <Flex vertical gap={4}>
                {tool.target_name ? (
                  <Typography.Text>{tool.target_name}</Typography.Text>
                ) : (
                  <Typography.Text type="secondary">{t('mcp.tools.targetGone')}</Typography.Text>
                )}
                {tool.available ? null : (
                  <Tag
                    color="error"
                    icon={<WarningOutlined />}
                    style={{ whiteSpace: 'normal', width: 'fit-content' }}
                    data-testid="mcp-tool-unavailable"
                  >
                    {tool.unavailable_reason || t('mcp.tools.unavailable')}
                  </Tag>
                )}
              </Flex>
            ),
          },
          {
            title: t('mcp.tools.usage'),
            key: 'usage',
            width: 150,
            render: (_: unknown, tool) => (
              <Flex vertical gap={2}>
                <Typography.Text data-testid="mcp-tool-calls" type={tool.calls ? undefined : 'secondary'}>
                  {tool.calls ? t('mcp.tools.calls', { count: tool.calls }) : t('mcp.tools.neverCalled')}
                  {tool.errors > 0 ? (
                    <Typography.Text type="danger">{` · ${t('mcp.tools.errors', { count: tool.errors })}`}</Typography.Text>
                  ) : null}
                </Typography.Text>
                {tool.last_called_at ? (
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    <RelativeTime iso={tool.last_called_at} />
                  </Typography.Text>
                ) : null}
              </Flex>
            ),
          },
          ...(canManage
            ? [
                {
                  title: '',
                  key: 'actions',
                  width: 96,
                  render: (_: unknown, tool: McpTool) => (
                    <Flex gap={4}>
                      <Tooltip title={t('mcp.tools.edit')}>
                        <Button
                          size="small"
                          icon={<EditOutlined />}
                          aria-label={t('mcp.tools.edit')}
                          onClick={() => setEditing(tool)}
                          data-testid="mcp-tool-edit"
                        />
                      </Tooltip>
                      <Popconfirm
                        title={t('mcp.tools.removeTitle', { name: tool.name })}
                        description={t('mcp.tools.removeText')}
                        okText={t('mcp.tools.remove')}
                        okButtonProps={{ danger: true, 'data-testid': 'mcp-tool-remove-ok' }}
                        cancelText={t('mcp.cancel')}
                        onConfirm={() => doRemove(tool)}
                      >
                        <Button
                          size="small"
                          danger
                          icon={<DeleteOutlined />}
                          aria-label={t('mcp.tools.remove')}
                          data-testid="mcp-tool-remove"
                        />
                      </Popconfirm>
                    </Flex>
                  ),
                },
              ]
            : []),
        ]}
      />
      <ToolFormModal
        spaceId={spaceId}
        editing={editing}
        onClose={() => setEditing(undefined)}
        onSaved={(tool) => {
          void message.success(t(editing ? 'mcp.tools.saved' : 'mcp.tools.added', { name: tool.name }));
          setEditing(undefined);
          onChanged();
        }}
      />
    </Flex>
  );
}
