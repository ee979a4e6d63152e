import { ReloadOutlined } from '@ant-design/icons';
import { workflowTriggerRoutes as r } from '@athena/contract';
import { Alert, App, Button, Flex, Input, Popconfirm, Segmented, Switch, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../../lib/api-client.ts';
import { errorNotice } from '../../../lib/error-notice.ts';
import { usePublicAddress } from '../../../shared/hooks/use-public-address.ts';
import { CopyButton } from '../../agents/copy-button.tsx';
import { CodeBlock } from './code-block.tsx';
import { useRefreshTriggers, useWebhook } from './trigger-queries.ts';
import { signingSamples } from './trigger-samples.ts';

interface Props {
  spaceId: string | null;
  workflowId: string;
  canChange: boolean;
  inputs: Record<string, unknown>;
}

/** The webhook: on or off, its URL, the signing secret (shown when made or rotated), how to sign. */
export function WebhookSection({ spaceId, workflowId, canChange, inputs }: Props) {
  const { t } = useTranslation();
  const publicAddress = usePublicAddress();
  const { message } = App.useApp();
  const showError = (caught: unknown) => {
    const notice = errorNotice(caught);
    if (notice) void message.error(notice);
  };
  const webhook = useWebhook(spaceId, workflowId, true);
  const refresh = useRefreshTriggers(spaceId, workflowId);
  const [secret, setSecret] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [language, setLanguage] = useState<'node' | 'python'>('node');
  const hook = webhook.data ?? null;
  const url = hook ? `${publicAddress.origin}${hook.path}` : '';

  const act = async (action: () => Promise<{ secret: string | null }>) => {
    setBusy(true);
    try {
      const answer = await action();
      if (answer.secret) setSecret(answer.secret);
      void refresh('webhook');
    } catch (caught) {
      showError(caught);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Flex vertical gap={12} data-testid="wf-triggers-webhook">
      <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
        {t('workflowTriggers.webhook.explain')}
      </Typography.Paragraph>
      <Flex gap={8} align="center">
        <Switch
          checked={hook?.enabled ?? false}
          disabled={!canChange}
          loading={busy || webhook.isPending}
          onChange={(enabled) => act(() => api(r.webhookSet, { workflow_id: workflowId, enabled }))}
          data-testid="wf-webhook-enabled"
        />
        <Typography.Text>{t('workflowTriggers.webhook.enabled')}</Typography.Text>
      </Flex>
      {hook ? (
        <>
          <Typography.Text strong>{t('workflowTriggers.webhook.url')}</Typography.Text>
          <Flex gap={8}>
            <Input value={url} readOnly data-testid="wf-webhook-url" />
            <CopyButton text={url} />
          </Flex>
          <Flex justify="space-between" align="center">
            <Typography.Text>
              {t('workflowTriggers.webhook.secret')} <Typography.Text code>{hook.secret_prefix}…</Typography.Text>
            </Typography.Text>
            {canChange ? (
              <Popconfirm
                title={t('workflowTriggers.webhook.rotateConfirm')}
                okText={t('workflowTriggers.webhook.rotate')}
                cancelText={t('workflowTriggers.cancel')}
                onConfirm={() => act(() => api(r.webhookRotate, { workflow_id: workflowId }))}
              >
                <Button icon={<ReloadOutlined />} loading={busy} data-testid="wf-webhook-rotate">
                  {t('workflowTriggers.webhook.rotate')}
                </Button>
              </Popconfirm>
            ) : null}
          </Flex>
          {secret ? (
            <Alert
              type="warning"
              showIcon
              title={t('workflowTriggers.shownOnce')}
              description={
                <Flex gap={8} style={{ marginTop: 8 }}>
                  <Input value={secret} readOnly data-testid="wf-webhook-secret" />
                  <CopyButton text={secret} type="primary" />
                </Flex>
              }
              closable
              onClose={() => setSecret(null)}
            />
          ) : null}
          <Typography.Text strong>{t('workflowTriggers.webhook.signing')}</Typography.Text>
          <Typography.Text type="secondary">{t('workflowTriggers.webhook.signingExplain')}</Typography.Text>
          <Segmented
            value={language}
            onChange={(value) => setLanguage(value as 'node' | 'python')}
            options={[
              { value: 'node', label: 'Node.js' },
              { value: 'python', label: 'Python' },
            ]}
          />
          <CodeBlock code={signingSamples(url, inputs)[language]} testId="wf-webhook-sample" />
        </>
      ) : (
        <Typography.Text type="secondary">{t('workflowTriggers.webhook.none')}</Typography.Text>
      )}
    </Flex>
  );
}
