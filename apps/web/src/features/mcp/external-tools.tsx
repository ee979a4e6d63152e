import { PlayCircleOutlined } from '@ant-design/icons';
import {
  type McpExternalServer,
  type McpExternalTool,
  type McpExternalTryResult,
  mcpExternalRoutes,
} from '@athena/contract';
import { Alert, Button, Collapse, Empty, Flex, Input, Skeleton, Tag, Typography, theme } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorNotice } from '../../lib/error-notice.ts';
import { useApiMutation } from '../../shared/hooks/use-api-mutation.ts';
import { ListLoadError } from '../../shared/ui/list-page-parts.tsx';
import { argumentsTemplate, parseArguments } from './external-logic.ts';
import { useExternalTools } from './external-queries.ts';

const mono = { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace', fontSize: 12 };

function Pre({ text, testId }: { text: string; testId?: string }) {
  const { token } = theme.useToken();
  return (
    <pre
      data-testid={testId}
      style={{
        ...mono,
        margin: 0,
        maxHeight: 320,
        overflow: 'auto',
        whiteSpace: 'pre-wrap',
        wordBreak: 'break-word',
        background: token.colorFillQuaternary,
        padding: 8,
        borderRadius: 6,
      }}
    >
      {text}
    </pre>
  );
}

/** "Try it": JSON arguments in, the tool's answer (cut by the server) out. */
function TryTool({ serverId, tool, onDone }: { serverId: string; tool: McpExternalTool; onDone: () => void }) {
  const { t } = useTranslation();
  const [text, setText] = useState(() => argumentsTemplate(tool.input_schema));
  const [result, setResult] = useState<McpExternalTryResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const run = useApiMutation(mcpExternalRoutes.try, { meta: { errorNotice: false } });
  const parsed = parseArguments(text);

  const submit = async () => {
    if (!parsed.ok) return;
    setError(null);
    setResult(null);
    try {
      setResult(await run.mutateAsync({ id: serverId, tool_name: tool.name, arguments: parsed.value }));
    } catch (caught) {
      setError(errorNotice(caught));
    } finally {
      onDone();
    }
  };

  return (
    <Flex vertical gap={8} data-testid={`mcp-external-try-${tool.name}`}>
      <Typography.Text strong>{t('mcp.external.tryTitle')}</Typography.Text>
      <Input.TextArea
        value={text}
        onChange={(event) => setText(event.target.value)}
        autoSize={{ minRows: 3, maxRows: 12 }}
        style={mono}
        status={parsed.ok ? undefined : 'error'}
        data-testid="mcp-external-try-arguments"
      />
      {parsed.ok ? null : <Typography.Text type="danger">{t('mcp.external.argumentsInvalid')}</Typography.Text>}
      <Button
        icon={<PlayCircleOutlined />}
        onClick={() => void submit()}
        loading={run.isPending}
        disabled={!parsed.ok}
        style={{ width: 'fit-content' }}
        data-testid="mcp-external-try-run"
      >
        {t('mcp.external.tryRun')}
      </Button>
      {error ? <Alert type="error" showIcon title={error} data-testid="mcp-external-try-error" /> : null}
      {result ? (
        <Flex vertical gap={6} data-testid="mcp-external-try-result">
          <Flex gap={8} align="center">
            <Tag color={result.is_error ? 'error' : 'success'}>
              {t(result.is_error ? 'mcp.external.toolFailed' : 'mcp.external.toolAnswered')}
            </Tag>
            <Typography.Text type="secondary">{t('mcp.external.took', { ms: result.duration_ms })}</Typography.Text>
            {result.truncated ? <Tag color="warning">{t('mcp.external.truncated')}</Tag> : null}
          </Flex>
          <Pre text={result.content || t('mcp.external.noContent')} testId="mcp-external-try-content" />
          {result.structured ? (
            <>
              <Typography.Text type="secondary">{t('mcp.external.structured')}</Typography.Text>
              <Pre text={result.structured} />
            </>
          ) : null}
        </Flex>
      ) : null}
    </Flex>
  );
}

interface Props {
  spaceId: string | null;
  server: McpExternalServer;
  canManage: boolean;
  onChanged: () => void;
}

/** A server's cached tools: name, description, the input schema folded away, and "try it" for managers. */
export function ExternalTools({ spaceId, server, canManage, onChanged }: Props) {
  const { t } = useTranslation();
  const tools = useExternalTools(spaceId, server.id, server.tools_read_at);

  if (tools.isError && !tools.data) {
    return (
      <ListLoadError
        title={t('mcp.external.toolsLoadError')}
        error={tools.error}
        onRetry={() => void tools.refetch()}
        testId="mcp-external-tools-error"
      />
    );
  }
  if (tools.isPending) return <Skeleton active paragraph={{ rows: 2 }} />;
  if (tools.data.items.length === 0) {
    return (
      <Empty
        image={Empty.PRESENTED_IMAGE_SIMPLE}
        description={t(server.tools_read_at ? 'mcp.external.noTools' : 'mcp.external.notRead')}
      />
    );
  }
  return (
    <Collapse
      size="small"
      data-testid={`mcp-external-tools-${server.name}`}
      items={tools.data.items.map((tool) => ({
        key: tool.name,
        label: (
          <Flex gap={8} align="baseline" wrap>
            <Typography.Text code>{tool.name}</Typography.Text>
            {tool.title ? <Typography.Text>{tool.title}</Typography.Text> : null}
            <Typography.Text type="secondary" ellipsis style={{ maxWidth: 480 }}>
              {tool.description}
            </Typography.Text>
          </Flex>
        ),
        children: (
          <Flex vertical gap={12}>
            {tool.description ? (
              <Typography.Paragraph style={{ margin: 0 }}>{tool.description}</Typography.Paragraph>
            ) : null}
            <Collapse
              size="small"
              items={[
                {
                  key: 'schema',
                  label: t('mcp.external.inputSchema'),
                  children: <Pre text={JSON.stringify(tool.input_schema, null, 2)} />,
                },
              ]}
            />
            {canManage && server.enabled ? <TryTool serverId={server.id} tool={tool} onDone={onChanged} /> : null}
          </Flex>
        ),
      }))}
    />
  );
}
