import { KeyOutlined } from '@ant-design/icons';
import { Alert, Flex, Switch, Tabs, Typography, theme } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CopyButton } from '../agents/copy-button.tsx';
import {
  buildSnippet,
  type FreshToken,
  SNIPPET_CLIENTS,
  SNIPPET_FILES,
  type SnippetClient,
  TOKEN_PLACEHOLDER,
} from './mcp-logic.ts';

interface Props {
  endpoint: string;
  enabled: boolean;
  /** The newest active token created in this page view, which may be filled in; null otherwise. */
  freshToken: FreshToken | null;
}

function Snippet({ client, code }: { client: SnippetClient; code: string }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const file = SNIPPET_FILES[client];
  return (
    <Flex vertical gap={8}>
      {file ? (
        <Typography.Text>
          {t('mcp.snippets.file')} <Typography.Text code>{file}</Typography.Text>
        </Typography.Text>
      ) : null}
      <Typography.Text type="secondary">{t(`mcp.snippets.how.${client}`)}</Typography.Text>
      <div style={{ position: 'relative' }}>
        <pre
          data-testid={`mcp-snippet-${client}`}
          style={{
            margin: 0,
            padding: '12px 14px',
            paddingRight: 96,
            background: token.colorFillQuaternary,
            border: `1px solid ${token.colorBorderSecondary}`,
            borderRadius: 8,
            fontSize: 12.5,
            lineHeight: 1.6,
            whiteSpace: 'pre-wrap',
            wordBreak: 'break-all',
          }}
        >
          {code}
        </pre>
        <CopyButton
          text={code}
          size="small"
          label={t('mcp.copy')}
          style={{ position: 'absolute', top: 8, right: 8 }}
          data-testid={`mcp-snippet-copy-${client}`}
        />
      </div>
    </Flex>
  );
}

/** Ready configurations for common MCP clients, with the endpoint and a token or its placeholder. */
export function SnippetsTab({ endpoint, enabled, freshToken }: Props) {
  const { t } = useTranslation();
  const [fill, setFill] = useState(false);
  const token = fill && freshToken ? freshToken.token : TOKEN_PLACEHOLDER;

  return (
    <Flex vertical gap={12} data-testid="mcp-snippets">
      {enabled ? null : (
        <Alert type="info" showIcon title={t('mcp.snippets.serverOff')} data-testid="mcp-snippets-off" />
      )}
      {freshToken ? (
        <Flex align="center" gap={8} data-testid="mcp-snippets-fill">
          <Switch checked={fill} onChange={setFill} size="small" data-testid="mcp-snippets-fill-switch" />
          <KeyOutlined />
          <Typography.Text>{t('mcp.snippets.fill', { name: freshToken.name })}</Typography.Text>
        </Flex>
      ) : (
        <Typography.Text type="secondary">
          {t('mcp.snippets.placeholder', { placeholder: TOKEN_PLACEHOLDER })}
        </Typography.Text>
      )}
      <Tabs
        tabPlacement="start"
        items={SNIPPET_CLIENTS.map((client) => ({
          key: client,
          label: <span data-testid={`mcp-snippet-tab-${client}`}>{t(`mcp.snippets.clients.${client}`)}</span>,
          children: <Snippet client={client} code={buildSnippet(client, endpoint, token)} />,
        }))}
      />
    </Flex>
  );
}
