import { ApiOutlined, WarningOutlined } from '@ant-design/icons';
import { AGENT_MCP_TOOLS_MAX, mcpExternalRoutes } from '@athena/contract';
import { useQueries } from '@tanstack/react-query';
import { Alert, Button, Form, Select, Tag, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { api } from '../../lib/api-client.ts';
import { buildHref } from '../../lib/navigation.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import { useExternalServers } from '../mcp/external-queries.ts';
import { groupMcpTools, type MissingRef, refLabel, type ServerTools } from './mcp-tools-logic.ts';

/**
 * The agent editor's MCP tools (`attachments.mcp_tools`): tools of the team's external MCP
 * servers, grouped by server, at most AGENT_MCP_TOOLS_MAX; the model may call them while it
 * answers. A saved tool whose server or tool is gone stays visible as a warning until removed here.
 */
export function McpToolsField({ spaceId, savedRefs }: { spaceId: string; savedRefs: string[] }) {
  const { t } = useTranslation();
  const list = useExternalServers(spaceId);
  const servers = list.data?.items ?? [];
  // The same keys as the MCP page's tool lists, so either reads the other's cache.
  const tools = useQueries({
    queries: servers.map((server) => ({
      queryKey: [...queryKeys.mcp.all(spaceId), 'external', 'tools', server.id, server.tools_read_at] as const,
      queryFn: () => api(mcpExternalRoutes.tools, { id: server.id }),
    })),
  });
  const serverTools: ServerTools[] = servers.map((server, index) => ({
    id: server.id,
    name: server.name,
    enabled: server.enabled,
    tools: tools[index]?.data?.items,
  }));
  const { groups, missing } = groupMcpTools(serverTools, savedRefs, list.isSuccess);
  const missingByRef = new Map(missing.map((item) => [item.ref, item]));
  const toolsPending = tools.some((query) => query.isPending);

  const missingText = (item: MissingRef) =>
    t(`agents.mcpTools.missing.${item.reason}`, { server: item.serverId, tool: item.tool });

  const options = [
    ...groups.map((group) => ({
      key: group.serverId,
      title: group.serverName,
      label: (
        <span data-testid={`agent-mcp-server-group-${group.serverId}`}>
          <ApiOutlined /> {group.serverName}
          {group.enabled ? null : (
            <Tag bordered={false} style={{ marginInlineStart: 6, fontSize: 11, lineHeight: '16px' }}>
              {t('agents.mcpTools.serverOff')}
            </Tag>
          )}
        </span>
      ),
      options:
        group.tools.length > 0
          ? group.tools.map((tool) => ({
              value: tool.ref,
              search: `${group.serverName} ${tool.name} ${tool.title}`,
              label: (
                <div data-testid={`agent-mcp-tool-option-${tool.ref}`} style={{ minWidth: 0 }}>
                  <div style={{ overflow: 'hidden', textOverflow: 'ellipsis' }}>
                    {tool.title || tool.name}
                    {tool.title && tool.title !== tool.name ? (
                      <Typography.Text type="secondary" code style={{ fontSize: 11, marginInlineStart: 6 }}>
                        {tool.name}
                      </Typography.Text>
                    ) : null}
                  </div>
                  {tool.description ? (
                    <Typography.Text
                      type="secondary"
                      style={{ fontSize: 12, display: 'block', whiteSpace: 'normal' }}
                      ellipsis={{ tooltip: tool.description }}
                    >
                      {tool.description}
                    </Typography.Text>
                  ) : null}
                </div>
              ),
            }))
          : [
              {
                value: `__none:${group.serverId}`,
                disabled: true,
                search: group.serverName,
                label: (
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    {group.loaded ? t('agents.mcpTools.noTools') : t('agents.mcpTools.loadingTools')}
                  </Typography.Text>
                ),
              },
            ],
    })),
    ...(missing.length > 0
      ? [
          {
            key: '__missing',
            title: t('agents.mcpTools.missingGroup'),
            label: t('agents.mcpTools.missingGroup'),
            options: missing.map((item) => ({
              value: item.ref,
              search: item.ref,
              label: (
                <Typography.Text type="warning">
                  <WarningOutlined /> {item.ref}
                </Typography.Text>
              ),
            })),
          },
        ]
      : []),
  ];

  return (
    <>
      <Form.Item
        name="mcp_tools"
        label={t('agents.mcpTools.label')}
        extra={t('agents.mcpTools.help', { max: AGENT_MCP_TOOLS_MAX })}
        rules={[
          {
            type: 'array',
            max: AGENT_MCP_TOOLS_MAX,
            message: t('agents.mcpTools.tooMany', { max: AGENT_MCP_TOOLS_MAX }),
          },
        ]}
      >
        <Select
          mode="multiple"
          allowClear
          maxCount={AGENT_MCP_TOOLS_MAX}
          loading={list.isPending || toolsPending}
          options={options}
          optionFilterProp="search"
          placeholder={t('agents.mcpTools.placeholder')}
          notFoundContent={list.isPending ? undefined : t('agents.mcpTools.none')}
          data-testid="agent-mcp-tools"
          aria-label={t('agents.mcpTools.label')}
          listHeight={320}
          tagRender={({ value, closable, onClose }) => {
            const ref = String(value);
            const gone = missingByRef.get(ref);
            const tag = (
              <Tag
                color={gone ? 'warning' : undefined}
                icon={gone ? <WarningOutlined /> : undefined}
                closable={closable}
                onClose={onClose}
                onMouseDown={(event) => {
                  event.preventDefault();
                  event.stopPropagation();
                }}
                data-testid={gone ? 'agent-mcp-tool-missing' : 'agent-mcp-tool-tag'}
                data-ref={ref}
                style={{ marginInlineEnd: 4, marginBlock: 2, maxWidth: '100%' }}
              >
                <span
                  style={{
                    display: 'inline-block',
                    maxWidth: 260,
                    overflow: 'hidden',
                    textOverflow: 'ellipsis',
                    verticalAlign: 'bottom',
                  }}
                >
                  {refLabel(ref, groups)}
                </span>
              </Tag>
            );
            return gone ? <Tooltip title={missingText(gone)}>{tag}</Tooltip> : tag;
          }}
        />
      </Form.Item>
      {missing.length > 0 ? (
        <Alert
          type="warning"
          showIcon
          data-testid="agent-mcp-tools-missing"
          title={t('agents.mcpTools.missingTitle', { count: missing.length })}
          style={{ marginBottom: 16 }}
        />
      ) : null}
      {list.isSuccess && servers.length === 0 ? (
        <Alert
          type="info"
          showIcon
          data-testid="agent-mcp-tools-none"
          title={t('agents.mcpTools.noServers')}
          action={
            <Link to={buildHref('plugin', { query: { tab: 'external' } })} data-testid="agent-mcp-tools-add-server">
              {t('agents.mcpTools.addServer')}
            </Link>
          }
          style={{ marginBottom: 16 }}
        />
      ) : null}
      {list.isError ? (
        <Alert
          type="error"
          showIcon
          data-testid="agent-mcp-tools-error"
          title={t('agents.mcpTools.loadFailed')}
          action={
            <Button size="small" onClick={() => void list.refetch()}>
              {t('common.retry')}
            </Button>
          }
          style={{ marginBottom: 16 }}
        />
      ) : null}
    </>
  );
}
