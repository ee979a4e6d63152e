import { CheckCircleFilled, CloseCircleFilled, ReloadOutlined } from '@ant-design/icons';
import type { McpCall, McpTool } from '@athena/contract';
import { Button, Flex, Select, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ListLoadError } from '../../shared/ui/list-page-parts.tsx';
import { RelativeTime } from '../../shared/ui/relative-time.tsx';
import { CALLS_PAGE_SIZE, useMcpCalls } from './mcp-queries.ts';
import { KIND_COLOR } from './tools-tab.tsx';

interface Props {
  spaceId: string | null;
  tools: McpTool[];
}

const formatDuration = (ms: number) => (ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`);

/** Usage per tool, then the recent calls: time, tool, token, duration, result. Paged, filtered by tool. */
export function CallsTab({ spaceId, tools }: Props) {
  const { t } = useTranslation();
  const [toolId, setToolId] = useState<string | undefined>(undefined);
  const [page, setPage] = useState(1);
  const calls = useMcpCalls(spaceId, { toolId, page });
  const used = tools.filter((tool) => tool.calls > 0);

  return (
    <Flex vertical gap={16} data-testid="mcp-calls">
      <Flex vertical gap={8}>
        <Typography.Text strong>{t('mcp.calls.usage')}</Typography.Text>
        {used.length === 0 ? (
          <Typography.Text type="secondary" data-testid="mcp-usage-empty">
            {t('mcp.calls.usageEmpty')}
          </Typography.Text>
        ) : (
          <Flex gap={8} wrap data-testid="mcp-usage">
            {used.map((tool) => (
              <Flex
                key={tool.id}
                vertical
                gap={2}
                style={{ padding: '8px 12px', border: '1px solid rgba(5,5,5,0.08)', borderRadius: 8, minWidth: 160 }}
              >
                <Flex gap={6} align="center">
                  <Tag color={KIND_COLOR[tool.kind]} style={{ marginInlineEnd: 0 }}>
                    {t(`mcp.kinds.${tool.kind}`)}
                  </Tag>
                  <Typography.Text code>{tool.name}</Typography.Text>
                </Flex>
                <Typography.Text>
                  {t('mcp.tools.calls', { count: tool.calls })}
                  {tool.errors > 0 ? (
                    <Typography.Text type="danger">{` · ${t('mcp.tools.errors', { count: tool.errors })}`}</Typography.Text>
                  ) : null}
                </Typography.Text>
                {tool.last_called_at ? (
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    {t('mcp.calls.lastCall')} <RelativeTime iso={tool.last_called_at} />
                  </Typography.Text>
                ) : null}
              </Flex>
            ))}
          </Flex>
        )}
      </Flex>

      <Flex justify="space-between" align="center" gap={12} wrap>
        <Typography.Text strong>{t('mcp.calls.recent')}</Typography.Text>
        <Flex gap={8}>
          <Select
            allowClear
            style={{ width: 260 }}
            placeholder={t('mcp.calls.allTools')}
            value={toolId}
            onChange={(value: string | undefined) => {
              setToolId(value);
              setPage(1);
            }}
            options={tools.map((tool) => ({ value: tool.id, label: tool.name }))}
            data-testid="mcp-calls-tool"
          />
          <Button
            icon={<ReloadOutlined />}
            onClick={() => void calls.refetch()}
            loading={calls.isFetching}
            data-testid="mcp-calls-reload"
          >
            {t('mcp.calls.reload')}
          </Button>
        </Flex>
      </Flex>
      {calls.isError && !calls.data ? (
        <ListLoadError
          title={t('mcp.calls.loadError')}
          error={calls.error}
          onRetry={() => void calls.refetch()}
          testId="mcp-calls-error"
        />
      ) : (
        <Table<McpCall>
          rowKey="id"
          size="middle"
          loading={calls.isPending}
          dataSource={calls.data?.items ?? []}
          scroll={{ x: 760 }}
          locale={{ emptyText: t(toolId ? 'mcp.calls.emptyTool' : 'mcp.calls.empty') }}
          onRow={() => ({ 'data-testid': 'mcp-call-row' }) as React.HTMLAttributes<HTMLElement>}
          pagination={{
            current: page,
            pageSize: CALLS_PAGE_SIZE,
            total: calls.data?.total ?? 0,
            showSizeChanger: false,
            hideOnSinglePage: true,
            onChange: setPage,
          }}
          columns={[
            {
              title: t('mcp.calls.time'),
              dataIndex: 'created_at',
              width: 130,
              render: (at: string) => <RelativeTime iso={at} />,
            },
            {
              title: t('mcp.calls.tool'),
              dataIndex: 'tool_name',
              render: (name: string, call) => (
                <Flex gap={4} align="center">
                  <Typography.Text code>{name}</Typography.Text>
                  {call.tool_id ? null : <Tag>{t('mcp.calls.toolRemoved')}</Tag>}
                </Flex>
              ),
            },
            {
              title: t('mcp.calls.token'),
              key: 'token',
              render: (_: unknown, call) =>
                call.token_name ? (
                  <Flex vertical>
                    <Typography.Text>{call.token_name}</Typography.Text>
                    {call.token_prefix ? (
                      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                        {call.token_prefix}…
                      </Typography.Text>
                    ) : null}
                  </Flex>
                ) : (
                  <Typography.Text type="secondary">{t('mcp.calls.tokenGone')}</Typography.Text>
                ),
            },
            {
              title: t('mcp.calls.duration'),
              dataIndex: 'duration_ms',
              width: 100,
              align: 'right',
              render: (ms: number) => formatDuration(ms),
            },
            {
              title: t('mcp.calls.result'),
              key: 'result',
              render: (_: unknown, call) =>
                call.ok ? (
                  <Typography.Text type="success" data-testid="mcp-call-ok">
                    <CheckCircleFilled /> {t('mcp.calls.ok')}
                  </Typography.Text>
                ) : (
                  <Flex gap={6} align="flex-start" style={{ maxWidth: 360 }}>
                    <CloseCircleFilled style={{ color: '#ff4d4f', marginTop: 4 }} />
                    <Typography.Paragraph
                      type="danger"
                      ellipsis={{ rows: 2, tooltip: call.error }}
                      style={{ margin: 0 }}
                      data-testid="mcp-call-error"
                    >
                      {call.error || t('mcp.calls.failed')}
                    </Typography.Paragraph>
                  </Flex>
                ),
            },
          ]}
        />
      )}
    </Flex>
  );
}
