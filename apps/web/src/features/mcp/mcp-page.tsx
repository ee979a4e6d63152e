import { Alert, Badge, Button, Flex, Skeleton, Tabs } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { errorText } from '../../lib/api-client.ts';
import { currentLocale } from '../../lib/i18n.ts';
import { useSpaceId } from '../../shared/hooks/use-current-space.ts';
import { usePublicAddress } from '../../shared/hooks/use-public-address.ts';
import { PageHeader } from '../../shared/ui/page-header.tsx';
import { CallsTab } from './calls-tab.tsx';
import { ExternalServersTab } from './external-servers-tab.tsx';
import { endpointUrl, type FreshToken } from './mcp-logic.ts';
import { useMcpSettings, useMcpTokens, useMcpTools, useRefreshMcp } from './mcp-queries.ts';
import { ServerCard } from './server-card.tsx';
import { SnippetsTab } from './snippets-tab.tsx';
import { TokensTab } from './tokens-tab.tsx';
import { ToolsTab } from './tools-tab.tsx';

const TABS = ['tools', 'tokens', 'connect', 'calls', 'external'] as const;
type Tab = (typeof TABS)[number];

/** /plugin: the team's MCP server — on or off, its endpoint, tools, tokens, client snippets and call log. */
export function McpPage() {
  const { t } = useTranslation();
  const publicAddress = usePublicAddress();
  const spaceId = useSpaceId();
  const settings = useMcpSettings(spaceId);
  const tools = useMcpTools(spaceId);
  const tokens = useMcpTokens(spaceId);
  const refresh = useRefreshMcp(spaceId);
  const [params, setParams] = useSearchParams();
  const tab: Tab = TABS.find((name) => name === params.get('tab')) ?? 'tools';
  // Secrets created in this page view; leaving the page forgets them.
  const [fresh, setFresh] = useState<FreshToken[]>([]);

  const head = <PageHeader title={t('routes.plugin')} subtitle={t('mcp.intro')} />;

  if (settings.isPending) {
    return (
      <Flex vertical gap={16} data-testid="page-plugin">
        {head}
        <Skeleton active data-testid="mcp-loading" />
      </Flex>
    );
  }
  if (settings.isError && !settings.data) {
    return (
      <Flex vertical gap={16} data-testid="page-plugin">
        {head}
        <Alert
          data-testid="mcp-error"
          type="warning"
          showIcon
          title={t('mcp.loadError')}
          description={errorText(settings.error, currentLocale())}
          action={
            <Button size="small" onClick={() => void settings.refetch()}>
              {t('common.retry')}
            </Button>
          }
        />
      </Flex>
    );
  }

  const endpoint = endpointUrl(publicAddress.origin, settings.data.endpoint_path);
  const canManage = settings.data.can_manage;
  const toolItems = tools.data?.items ?? [];
  const tokenItems = tokens.data?.items ?? [];
  const activeTokens = tokenItems.filter((token) => token.active).length;
  // The newest one still active may be filled into the snippets; a revoked one never is.
  const freshToken = fresh.filter((item) => tokenItems.some((token) => token.id === item.id && token.active)).at(-1);
  const count = (n: number | undefined) =>
    n ? <Badge count={n} color="#8c8c8c" size="small" style={{ marginInlineStart: 6 }} /> : null;

  return (
    <Flex vertical gap={16} data-testid="page-plugin">
      {head}
      <ServerCard settings={settings.data} endpoint={endpoint} onChanged={() => void refresh()} />
      <Tabs
        activeKey={tab}
        onChange={(key) => setParams((previous) => ({ ...Object.fromEntries(previous), tab: key }), { replace: true })}
        items={[
          {
            key: 'tools',
            label: (
              <span data-testid="mcp-tab-tools">
                {t('mcp.tabs.tools')}
                {count(toolItems.length)}
              </span>
            ),
            children: <ToolsTab spaceId={spaceId} canManage={canManage} onChanged={() => void refresh()} />,
          },
          {
            key: 'tokens',
            label: (
              <span data-testid="mcp-tab-tokens">
                {t('mcp.tabs.tokens')}
                {count(activeTokens)}
              </span>
            ),
            children: (
              <TokensTab
                spaceId={spaceId}
                canManage={canManage}
                onChanged={() => void refresh()}
                onCreated={(created) => setFresh((list) => [...list, created])}
              />
            ),
          },
          {
            key: 'connect',
            label: <span data-testid="mcp-tab-connect">{t('mcp.tabs.connect')}</span>,
            children: (
              <SnippetsTab endpoint={endpoint} enabled={settings.data.enabled} freshToken={freshToken ?? null} />
            ),
          },
          {
            key: 'calls',
            label: <span data-testid="mcp-tab-calls">{t('mcp.tabs.calls')}</span>,
            children: <CallsTab spaceId={spaceId} tools={toolItems} />,
          },
          {
            // The other direction: servers elsewhere whose tools workflows call here.
            key: 'external',
            label: <span data-testid="mcp-tab-external">{t('mcp.tabs.external')}</span>,
            children: <ExternalServersTab spaceId={spaceId} />,
          },
        ]}
      />
    </Flex>
  );
}
