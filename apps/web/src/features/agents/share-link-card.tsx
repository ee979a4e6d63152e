import { ExportOutlined, GlobalOutlined, ReloadOutlined } from '@ant-design/icons';
import { type Agent, agentRoutes } from '@athena/contract';
import { App, Button, Card, Flex, Input, Popconfirm, Space, Switch, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isExternalUrl, openExternal } from '../../lib/navigation.ts';
import { queryClient } from '../../lib/query-client.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import { useApiMutation } from '../../shared/hooks/use-api-mutation.ts';
import { usePublicAddress } from '../../shared/hooks/use-public-address.ts';
import { refreshAgents } from './agent-queries.ts';
import { CopyButton } from './copy-button.tsx';

interface Props {
  agent: Agent;
  spaceId: string;
  canEdit: boolean;
}

/** The public share page: on/off (off revokes the link), copy, open, and a fresh link. */
export function ShareLinkCard({ agent, spaceId, canEdit }: Props) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const share = useApiMutation(agentRoutes.share);
  const [busy, setBusy] = useState(false);
  const publicAddress = usePublicAddress();
  const { enabled } = agent.share;
  const url = agent.share.url ? publicAddress.link(agent.share.url) : null;

  const setShare = async (next: boolean, renew = false) => {
    setBusy(true);
    try {
      const saved = await share.mutateAsync({ id: agent.id, enabled: next });
      queryClient.setQueryData<Agent>(queryKeys.agents.detail(spaceId, agent.id), (old) =>
        old ? { ...old, share: saved } : old,
      );
      void message.success(
        renew ? t('agents.share.renewed') : next ? t('agents.share.turnedOn') : t('agents.share.turnedOff'),
      );
      void refreshAgents(spaceId);
    } catch {
      // The failure's notice is already showing.
    } finally {
      setBusy(false);
    }
  };

  const toggle = (
    <Switch
      checked={enabled}
      loading={busy}
      disabled={!canEdit}
      onChange={enabled ? undefined : () => void setShare(true)}
      data-testid="share-toggle"
      aria-label={t('agents.share.title')}
    />
  );

  return (
    <Card
      size="small"
      data-testid="share-card"
      data-enabled={String(enabled)}
      title={
        <Flex align="center" gap={8}>
          <GlobalOutlined />
          {t('agents.share.title')}
        </Flex>
      }
      extra={
        enabled && canEdit ? (
          // Turning off breaks the link for everybody who has it: ask first.
          <Popconfirm
            title={t('agents.share.offTitle')}
            description={t('agents.share.offText')}
            okText={t('agents.share.offOk')}
            cancelText={t('agents.cancel')}
            okButtonProps={{ danger: true, 'data-testid': 'share-off-confirm' }}
            onConfirm={() => setShare(false)}
          >
            {toggle}
          </Popconfirm>
        ) : (
          toggle
        )
      }
    >
      <Flex vertical gap={10}>
        <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
          {t('agents.share.explain')}
        </Typography.Paragraph>
        {enabled && url ? (
          <>
            <Space.Compact style={{ width: '100%' }}>
              <Input value={url} readOnly data-testid="share-url" onFocus={(event) => event.target.select()} />
              <CopyButton text={url} label={t('agents.copy')} data-testid="share-copy" />
              <Button
                icon={<ExportOutlined />}
                onClick={() => {
                  if (isExternalUrl(url)) openExternal(url);
                }}
                data-testid="share-open"
              >
                {t('agents.share.open')}
              </Button>
            </Space.Compact>
            <Flex justify="space-between" align="center" gap={8} wrap>
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {t('agents.share.limits')}
              </Typography.Text>
              {canEdit ? (
                <Popconfirm
                  title={t('agents.share.renewTitle')}
                  description={t('agents.share.renewText')}
                  okText={t('agents.share.renewOk')}
                  cancelText={t('agents.cancel')}
                  onConfirm={() => setShare(true, true)}
                >
                  <Button size="small" type="link" icon={<ReloadOutlined />} data-testid="share-renew">
                    {t('agents.share.renew')}
                  </Button>
                </Popconfirm>
              ) : null}
            </Flex>
          </>
        ) : (
          <Typography.Text type="secondary" data-testid="share-off-note">
            {canEdit ? t('agents.share.offNote') : t('agents.share.offNoteReadonly')}
          </Typography.Text>
        )}
      </Flex>
    </Card>
  );
}
