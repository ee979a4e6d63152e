import { ApiOutlined, KeyOutlined, PoweroffOutlined } from '@ant-design/icons';
import { chatHistoryRoutes, type SceneSettings } from '@athena/contract';
import { Alert, App, Button, Descriptions, Flex, Input, Popconfirm, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useApiMutation } from '../../shared/hooks/use-api-mutation.ts';
import { usePublicAddress } from '../../shared/hooks/use-public-address.ts';
import { RelativeTime } from '../../shared/ui/relative-time.tsx';
import { CopyButton } from '../agents/copy-button.tsx';
import { refreshScene } from './chat-history-queries.ts';

interface Props {
  ingest: SceneSettings['ingest'];
  canConfigure: boolean;
  spaceId: string | null;
  sceneId: number;
}

const SAMPLE = `POST <address>
Content-Type: application/json
X-Athena-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256("<t>." + body, secret)>

{"messages":[{"msg_id":"m-1","conversation":{"id":"c-1"},
  "customer":{"id":"u-1","name":"王小明"},"send_type":"user",
  "kind":11041,"content":"你好","sent_at":1767225600000}]}`;

/**
 * The scene's signed ingest address: whether it is on, where it is, which secret it takes, when it
 * last received a batch; for the creator and admins, a new secret (shown this once) and turning it
 * off. Members see the same facts, read-only.
 */
export function IngestPanel({ ingest, canConfigure, spaceId, sceneId }: Props) {
  const { t } = useTranslation();
  const publicAddress = usePublicAddress();
  const { message } = App.useApp();
  const rotate = useApiMutation(chatHistoryRoutes.ingestRotate);
  const disable = useApiMutation(chatHistoryRoutes.ingestDisable);
  const [fresh, setFresh] = useState<{ url: string; secret: string } | null>(null);

  const createSecret = async () => {
    try {
      const answer = await rotate.mutateAsync({});
      setFresh({ url: answer.url, secret: answer.secret });
      await refreshScene(spaceId, sceneId);
    } catch {
      // The failure's notice is already showing.
    }
  };
  const turnOff = async () => {
    try {
      await disable.mutateAsync({});
      setFresh(null);
      void message.success(t('chatHistory.ingest.turnedOff'));
      await refreshScene(spaceId, sceneId);
    } catch {
      // As above.
    }
  };

  const stored = fresh?.url ?? ingest.url;
  const url = stored ? publicAddress.link(stored) : stored;
  return (
    <Flex vertical gap={12} data-testid="chat-ingest" data-enabled={String(ingest.enabled)}>
      <Descriptions
        size="small"
        column={1}
        items={[
          {
            key: 'status',
            label: t('chatHistory.ingest.status'),
            children: ingest.enabled ? (
              <Tag color="success" data-testid="chat-ingest-status">
                {t('chatHistory.ingest.on')}
              </Tag>
            ) : (
              <Tag data-testid="chat-ingest-status">{t('chatHistory.ingest.off')}</Tag>
            ),
          },
          ...(ingest.enabled && !fresh
            ? [
                {
                  key: 'secret',
                  label: t('chatHistory.ingest.secretPrefix'),
                  children: <Typography.Text code>{`${ingest.secret_prefix ?? ''}…`}</Typography.Text>,
                },
                {
                  key: 'last',
                  label: t('chatHistory.ingest.lastReceived'),
                  children: ingest.last_received_at ? (
                    <RelativeTime iso={ingest.last_received_at} />
                  ) : (
                    t('chatHistory.ingest.never')
                  ),
                },
              ]
            : []),
        ]}
      />
      {url ? (
        <Flex vertical gap={4}>
          <Typography.Text type="secondary">{t('chatHistory.ingest.url')}</Typography.Text>
          <Space.Compact style={{ width: '100%' }}>
            <Input readOnly value={url} style={{ fontFamily: 'monospace' }} data-testid="chat-ingest-url" />
            <CopyButton text={url} />
          </Space.Compact>
        </Flex>
      ) : null}
      {fresh ? (
        <Alert
          type="warning"
          showIcon
          icon={<KeyOutlined />}
          title={t('chatHistory.ingest.secretTitle')}
          description={
            <Flex vertical gap={8}>
              <span>{t('chatHistory.ingest.secretOnce')}</span>
              <Flex gap={4}>
                <Input
                  readOnly
                  value={fresh.secret}
                  style={{ fontFamily: 'monospace' }}
                  data-testid="chat-ingest-secret"
                />
                <CopyButton text={fresh.secret} label={t('chatHistory.ingest.copy')} />
              </Flex>
            </Flex>
          }
        />
      ) : null}
      {canConfigure ? (
        <Flex gap={8} wrap>
          {ingest.enabled ? (
            <Popconfirm
              title={t('chatHistory.ingest.rotate')}
              description={t('chatHistory.ingest.rotateConfirm')}
              onConfirm={createSecret}
              okButtonProps={{ 'data-testid': 'chat-ingest-rotate-ok' }}
            >
              <Button icon={<KeyOutlined />} loading={rotate.isPending} data-testid="chat-ingest-rotate">
                {t('chatHistory.ingest.rotate')}
              </Button>
            </Popconfirm>
          ) : (
            <Button
              type="primary"
              icon={<ApiOutlined />}
              loading={rotate.isPending}
              onClick={createSecret}
              data-testid="chat-ingest-create"
            >
              {t('chatHistory.ingest.create')}
            </Button>
          )}
          {ingest.enabled ? (
            <Popconfirm
              title={t('chatHistory.ingest.disable')}
              description={t('chatHistory.ingest.disableConfirm')}
              onConfirm={turnOff}
              okButtonProps={{ danger: true }}
            >
              <Button danger icon={<PoweroffOutlined />} loading={disable.isPending} data-testid="chat-ingest-disable">
                {t('chatHistory.ingest.disable')}
              </Button>
            </Popconfirm>
          ) : null}
        </Flex>
      ) : (
        <Alert type="info" showIcon title={t('chatHistory.ingest.memberNote')} data-testid="chat-ingest-member-note" />
      )}
      <details>
        <summary style={{ cursor: 'pointer' }}>{t('chatHistory.ingest.howTo')}</summary>
        <Typography.Paragraph type="secondary" style={{ margin: '8px 0' }}>
          {t('chatHistory.ingest.howToText')}
        </Typography.Paragraph>
        <pre style={{ fontSize: 12, whiteSpace: 'pre-wrap', wordBreak: 'break-all', margin: 0 }}>{SAMPLE}</pre>
      </details>
    </Flex>
  );
}
