import { type McpExternalTool, mcpExternalRoutes, type WorkflowNodeData } from '@athena/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert, Flex, Form, InputNumber, Select, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { api } from '../../../lib/api-client.ts';
import { TemplateField } from './panel-fields.tsx';
import type { PanelProps } from './panel-types.ts';

type Argument = WorkflowNodeData<'mcp_tool'>['arguments'][number];

/** A property of a tool's input schema, as the panel lists it. */
interface SchemaProperty {
  name: string;
  type: string;
  description: string;
  required: boolean;
}

/** The top-level properties of a tool's JSON Schema, required ones first, in the schema's order. */
export function propertiesOf(tool: McpExternalTool | undefined): SchemaProperty[] {
  const schema = tool?.input_schema ?? {};
  const properties = (schema.properties ?? {}) as Record<string, { type?: unknown; description?: unknown }>;
  const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
  return Object.entries(properties)
    .map(([name, property]) => ({
      name,
      type: Array.isArray(property?.type) ? property.type.join(' | ') : String(property?.type ?? 'any'),
      description: typeof property?.description === 'string' ? property.description : '',
      required: required.has(name),
    }))
    .sort((a, b) => Number(b.required) - Number(a.required));
}

/**
 * The node's arguments for `tool`: one per property of its schema (kept values stay), and any kept
 * argument the schema does not name (shown as such, so nothing typed is silently dropped).
 */
export function argumentsFor(properties: SchemaProperty[], kept: Argument[]): Argument[] {
  const byName = new Map(kept.map((argument) => [argument.name, argument.value]));
  const named = new Set(properties.map((property) => property.name));
  return [
    ...properties.map((property) => ({ name: property.name, value: byName.get(property.name) ?? '' })),
    ...kept.filter((argument) => !named.has(argument.name)),
  ];
}

/** A tool of one of the team's external MCP servers: the server, the tool, its arguments, a timeout. */
export function McpToolPanel({ node, set, spaceId }: PanelProps<'mcp_tool'>) {
  const { t } = useTranslation();
  const { data } = node;
  const servers = useQuery({
    queryKey: ['mcp', spaceId, 'external', 'list'],
    queryFn: () => api(mcpExternalRoutes.list, {}),
  });
  const tools = useQuery({
    queryKey: ['mcp', spaceId, 'external', 'tools', data.server_id],
    queryFn: () => api(mcpExternalRoutes.tools, { id: data.server_id }),
    enabled: Boolean(data.server_id),
  });
  const toolItems = tools.data?.items ?? [];
  const chosen = toolItems.find((tool) => tool.name === data.tool);
  const properties = propertiesOf(chosen);
  const shown = argumentsFor(properties, data.arguments);
  const propertyOf = new Map(properties.map((property) => [property.name, property]));
  const setArgument = (name: string, value: string) =>
    set(
      {
        arguments: shown
          .map((argument) => (argument.name === name ? { name, value } : argument))
          // Only what has a value is kept: an empty optional argument is not sent.
          .filter((argument) => argument.value !== ''),
      },
      'arguments',
    );
  const serverItems = servers.data?.items ?? [];
  return (
    <>
      <Form.Item label={t('workflowEditor.fields.mcpServer')} extra={t('workflowEditor.fields.mcpServerHelp')}>
        <Select
          showSearch
          optionFilterProp="label"
          value={data.server_id || undefined}
          loading={servers.isPending}
          placeholder={t('workflowEditor.fields.chooseMcpServer')}
          options={serverItems.map((server) => ({ value: server.id, label: server.name }))}
          onChange={(server_id: string) => set({ server_id, tool: '', arguments: [] }, 'server_id')}
          data-testid="wf-field-mcp-server"
        />
      </Form.Item>
      {servers.isSuccess && serverItems.length === 0 ? (
        <Alert type="info" showIcon title={t('workflowEditor.fields.noMcpServers')} style={{ marginBottom: 16 }} />
      ) : null}
      {data.server_id ? (
        <Form.Item label={t('workflowEditor.fields.mcpTool')} extra={chosen?.description || undefined}>
          <Select
            showSearch
            optionFilterProp="label"
            value={data.tool || undefined}
            loading={tools.isPending}
            placeholder={t('workflowEditor.fields.chooseMcpTool')}
            options={toolItems.map((tool) => ({ value: tool.name, label: tool.title || tool.name }))}
            onChange={(tool: string) =>
              set(
                {
                  tool,
                  arguments: argumentsFor(
                    propertiesOf(toolItems.find((item) => item.name === tool)),
                    data.arguments,
                  ).filter((argument) => argument.value !== ''),
                },
                'tool',
              )
            }
            notFoundContent={tools.isSuccess ? t('workflowEditor.fields.mcpToolsNotRead') : undefined}
            data-testid="wf-field-mcp-tool"
          />
        </Form.Item>
      ) : null}
      {data.tool ? (
        <Form.Item label={t('workflowEditor.fields.mcpArguments')} extra={t('workflowEditor.fields.mcpArgumentsHelp')}>
          <Flex vertical gap={12}>
            {shown.map((argument) => {
              const property = propertyOf.get(argument.name);
              return (
                <Flex key={argument.name} vertical gap={4} data-testid="wf-mcp-argument">
                  <Flex gap={6} align="baseline" wrap>
                    <Typography.Text strong>
                      {argument.name}
                      {property?.required ? <Typography.Text type="danger"> *</Typography.Text> : null}
                    </Typography.Text>
                    {property ? (
                      <Tag>{property.type}</Tag>
                    ) : (
                      <Tag color="warning">{t('workflowEditor.fields.mcpArgumentExtra')}</Tag>
                    )}
                    {property?.description ? (
                      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                        {property.description}
                      </Typography.Text>
                    ) : null}
                  </Flex>
                  <TemplateField
                    nodeId={node.id}
                    rows={1}
                    value={argument.value}
                    onChange={(value) => setArgument(argument.name, value)}
                    testId={`wf-mcp-argument-${argument.name}`}
                  />
                </Flex>
              );
            })}
          </Flex>
        </Form.Item>
      ) : null}
      <Form.Item label={t('workflowEditor.fields.mcpTimeout')}>
        <InputNumber
          min={1}
          max={300}
          value={Math.round(data.timeout_ms / 1000)}
          onChange={(value) => set({ timeout_ms: (value ?? 60) * 1000 }, 'timeout_ms')}
        />
      </Form.Item>
    </>
  );
}
