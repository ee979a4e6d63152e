import { LockOutlined } from '@ant-design/icons';
import { type McpSettings, mcpRoutes } from '@athena/contract';
import { App, Card, Flex, Input, Switch, Tag, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useApiMutation } from '../../shared/hooks/use-api-mutation.ts';
import { CopyButton } from '../agents/copy-button.tsx';

interface Props {
  settings: McpSettings;
  endpoint: string;
  onChanged: () => void;
}

/** Whether the team's server is on (the switch for creator and admins), its endpoint, and what MCP is for. */
export function ServerCard({ settings, endpoint, onChanged }: Props) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const save = useApiMutation(mcpRoutes.settingsSet);

  const toggle = async (enabled: boolean) => {
    try {
      await save.mutateAsync({ enabled });
      void message.success(t(enabled ? 'mcp.server.turnedOn' : 'mcp.server.turnedOff'));
      onChanged();
    } catch {
      // The failure's notice is already showing.
    }
  };

  const toggleSwitch = (
    <Switch
      checked={settings.enabled}
      loading={save.isPending}
      disabled={!settings.can_manage}
      onChange={(value) => void toggle(value)}
      data-testid="mcp-switch"
    />
  );

  return (
    <Card data-testid="mcp-server-card">
      <Flex vertical gap={14}>
        <Flex justify="space-between" align="center" gap={12} wrap>
          <Flex align="center" gap={10}>
            <Typography.Text strong style={{ fontSize: 16 }}>
              {t('mcp.server.title')}
            </Typography.Text>
            <Tag color={settings.enabled ? 'success' : 'default'} data-testid="mcp-status">
              {t(settings.enabled ? 'mcp.server.on' : 'mcp.server.off')}
            </Tag>
          </Flex>
          <Flex align="center" gap={8}>
            <Typography.Text type="secondary">{t('mcp.server.switch')}</Typography.Text>
            {settings.can_manage ? (
              toggleSwitch
            ) : (
              <Tooltip title={t('mcp.readOnly')}>
                <span>{toggleSwitch}</span>
              </Tooltip>
            )}
          </Flex>
        </Flex>
        <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
          {t('mcp.server.explain')}
        </Typography.Paragraph>
        <Flex vertical gap={4}>
          <Typography.Text strong>{t('mcp.server.endpoint')}</Typography.Text>
          <Flex gap={8}>
            <Input
              readOnly
              value={endpoint}
              data-testid="mcp-endpoint"
              style={{ fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace', maxWidth: 640 }}
            />
            <CopyButton text={endpoint} label={t('mcp.copy')} data-testid="mcp-endpoint-copy" />
          </Flex>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {settings.enabled ? t('mcp.server.endpointHint') : t('mcp.server.offHint')}
          </Typography.Text>
          <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="mcp-endpoint-sse">
            {t('mcp.server.sseHint')}{' '}
            <Typography.Text code copyable style={{ fontSize: 12 }}>{`${endpoint}/sse`}</Typography.Text>
          </Typography.Text>
        </Flex>
        {settings.can_manage ? null : (
          <Flex align="center" gap={6} data-testid="mcp-readonly-note">
            <LockOutlined />
            <Typography.Text type="secondary">{t('mcp.readOnly')}</Typography.Text>
          </Flex>
        )}
      </Flex>
    </Card>
  );
}
