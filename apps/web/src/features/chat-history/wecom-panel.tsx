import { DisconnectOutlined, EditOutlined, KeyOutlined } from '@ant-design/icons';
import { chatHistoryRoutes, type WecomAccount } from '@athena/contract';
import { Alert, App, Button, Descriptions, Flex, Input, Popconfirm, Skeleton, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { queryClient } from '../../lib/query-client.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import { useApiMutation } from '../../shared/hooks/use-api-mutation.ts';
import { usePublicAddress } from '../../shared/hooks/use-public-address.ts';
import { ListLoadError } from '../../shared/ui/list-page-parts.tsx';
import { RelativeTime } from '../../shared/ui/relative-time.tsx';
import { CopyButton } from '../agents/copy-button.tsx';
import { refreshScene, useWecomAccount } from './chat-history-queries.ts';
import { WecomConnectForm, type WecomConnectValues } from './wecom-connect-form.tsx';

interface Props {
  canConfigure: boolean;
  spaceId: string | null;
  sceneId: number;
}

/** Whether the scene's WeCom account is connected, for the card's title. */
export function WecomStateTag({ account }: { account: WecomAccount | undefined }) {
  const { t } = useTranslation();
  if (!account) return null;
  return account.connected ? (
    <Tag color="success" style={{ marginInlineStart: 'auto' }} data-testid="chat-wecom-state">
      {t('chatHistory.wecom.connected')}
    </Tag>
  ) : (
    <Tag style={{ marginInlineStart: 'auto' }} data-testid="chat-wecom-state">
      {t('chatHistory.wecom.notConnected')}
    </Tag>
  );
}

function CopyField({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <Flex vertical gap={4}>
      <Typography.Text type="secondary">{label}</Typography.Text>
      <Space.Compact style={{ width: '100%' }}>
        <Input readOnly value={value} style={{ fontFamily: 'monospace' }} data-testid={testId} />
        <CopyButton text={value} />
      </Space.Compact>
    </Flex>
  );
}

/**
 * The scene's WeCom customer-service connection: for the creator and admins, the credentials form
 * until connected; then the callback URL to paste into WeCom, whether WeCom has checked it, the
 * last pull and its error, changing the credentials and disconnecting. Members see the state.
 */
export function WecomPanel({ canConfigure, spaceId, sceneId }: Props) {
  const { t } = useTranslation();
  const publicAddress = usePublicAddress();
  const { message } = App.useApp();
  const account = useWecomAccount(spaceId, sceneId, true);
  const disconnect = useApiMutation(chatHistoryRoutes.wecomDisconnect);
  const [editing, setEditing] = useState(false);
  // The Token and key just connected with, to paste into WeCom next to the URL; not kept anywhere.
  const [fresh, setFresh] = useState<WecomConnectValues | null>(null);

  const store = (next: WecomAccount) => queryClient.setQueryData(queryKeys.chatHistory.wecom(spaceId, sceneId), next);
  const connected = (next: WecomAccount, values: WecomConnectValues) => {
    store(next);
    setFresh(values);
    setEditing(false);
    void message.success(t('chatHistory.wecom.connectedToast'));
    void refreshScene(spaceId, sceneId);
  };
  const turnOff = async () => {
    try {
      await disconnect.mutateAsync({});
      setFresh(null);
      void message.success(t('chatHistory.wecom.disconnected'));
      await Promise.all([account.refetch(), refreshScene(spaceId, sceneId)]);
    } catch {
      // The failure's notice is already showing.
    }
  };

  if (account.isError) {
    return (
      <ListLoadError
        title={t('chatHistory.wecom.loadFailed')}
        error={account.error}
        onRetry={() => void account.refetch()}
        testId="chat-wecom-load-error"
      />
    );
  }
  const data = account.data;
  if (!data) return <Skeleton active paragraph={{ rows: 3 }} />;

  if (canConfigure && (!data.connected || editing)) {
    return (
      <WecomConnectForm
        corpId={data.corp_id}
        onConnected={connected}
        onCancel={editing ? () => setEditing(false) : undefined}
      />
    );
  }
  const memberNote = canConfigure ? null : (
    <Alert type="info" showIcon title={t('chatHistory.wecom.memberNote')} data-testid="chat-wecom-member-note" />
  );
  if (!data.connected) return memberNote;

  return (
    <Flex vertical gap={12} data-testid="chat-wecom-connected">
      <Descriptions
        size="small"
        column={1}
        items={[
          {
            key: 'corp',
            label: t('chatHistory.wecom.corpId'),
            children: <Typography.Text code>{data.corp_id}</Typography.Text>,
          },
          {
            key: 'verified',
            label: t('chatHistory.wecom.urlCheck'),
            children: data.verified_at ? (
              <Flex gap={4} wrap data-testid="chat-wecom-verified">
                <Tag color="success" style={{ marginInlineEnd: 0 }}>
                  {t('chatHistory.wecom.verified')}
                </Tag>
                <RelativeTime iso={data.verified_at} />
              </Flex>
            ) : (
              <Tag color="warning" data-testid="chat-wecom-unverified">
                {t('chatHistory.wecom.unverified')}
              </Tag>
            ),
          },
          {
            key: 'pull',
            label: t('chatHistory.wecom.lastPull'),
            children: data.last_pull_at ? <RelativeTime iso={data.last_pull_at} /> : t('chatHistory.wecom.never'),
          },
        ]}
      />
      {data.last_error ? (
        <Alert
          type="error"
          showIcon
          title={t('chatHistory.wecom.lastError')}
          description={data.last_error}
          data-testid="chat-wecom-last-error"
        />
      ) : null}
      {data.callback_url ? (
        <CopyField
          label={t('chatHistory.wecom.callbackUrl')}
          value={publicAddress.link(data.callback_url)}
          testId="chat-wecom-url"
        />
      ) : null}
      {fresh ? (
        <>
          <CopyField label="Token" value={fresh.callback_token} testId="chat-wecom-fresh-token" />
          <CopyField label="EncodingAESKey" value={fresh.encoding_aes_key} testId="chat-wecom-fresh-key" />
        </>
      ) : null}
      {data.verified_at ? null : (
        <Alert
          type="info"
          showIcon
          icon={<KeyOutlined />}
          title={t('chatHistory.wecom.pasteTitle')}
          description={fresh ? t('chatHistory.wecom.pasteFresh') : t('chatHistory.wecom.paste')}
          data-testid="chat-wecom-paste"
        />
      )}
      {canConfigure ? (
        <Flex gap={8} wrap>
          <Button icon={<EditOutlined />} onClick={() => setEditing(true)} data-testid="chat-wecom-change">
            {t('chatHistory.wecom.change')}
          </Button>
          <Popconfirm
            title={t('chatHistory.wecom.disconnect')}
            description={t('chatHistory.wecom.disconnectConfirm')}
            onConfirm={turnOff}
            okButtonProps={{ danger: true, 'data-testid': 'chat-wecom-disconnect-ok' }}
          >
            <Button
              danger
              icon={<DisconnectOutlined />}
              loading={disconnect.isPending}
              data-testid="chat-wecom-disconnect"
            >
              {t('chatHistory.wecom.disconnect')}
            </Button>
          </Popconfirm>
        </Flex>
      ) : (
        memberNote
      )}
    </Flex>
  );
}
