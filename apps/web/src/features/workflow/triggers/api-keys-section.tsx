import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { type RouteData, workflowTriggerRoutes as r } from '@athena/contract';
import { Alert, App, Button, Flex, Form, Input, Modal, Popconfirm, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../../lib/api-client.ts';
import { errorNotice } from '../../../lib/error-notice.ts';
import { usePublicAddress } from '../../../shared/hooks/use-public-address.ts';
import { RelativeTime } from '../../../shared/ui/relative-time.tsx';
import { CopyButton } from '../../agents/copy-button.tsx';
import { CodeBlock } from './code-block.tsx';
import { useApiKeys, useRefreshTriggers } from './trigger-queries.ts';
import { curlSamples } from './trigger-samples.ts';

type ApiKey = RouteData<typeof r.apiKeyList>['items'][number];
type Created = RouteData<typeof r.apiKeyCreate>;

interface Props {
  spaceId: string | null;
  workflowId: string;
  canChange: boolean;
  inputs: Record<string, unknown>;
}

/** API keys of the workflow (created, shown once, revoked) and how to call it with one. */
export function ApiKeysSection({ spaceId, workflowId, canChange, inputs }: Props) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const showError = (caught: unknown) => {
    const notice = errorNotice(caught);
    if (notice) void message.error(notice);
  };
  const keys = useApiKeys(spaceId, workflowId, true);
  const refresh = useRefreshTriggers(spaceId, workflowId);
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<Created | null>(null);
  const [saving, setSaving] = useState(false);
  const [form] = Form.useForm<{ name: string }>();
  const samples = curlSamples(usePublicAddress().origin, inputs);

  const create = async ({ name }: { name: string }) => {
    setSaving(true);
    try {
      setCreated(await api(r.apiKeyCreate, { workflow_id: workflowId, name: name.trim() }));
      setCreating(false);
      form.resetFields();
      void refresh('keys');
    } catch (caught) {
      showError(caught);
    } finally {
      setSaving(false);
    }
  };
  const revoke = async (key: ApiKey) => {
    try {
      await api(r.apiKeyRevoke, { id: key.id });
      void refresh('keys');
    } catch (caught) {
      showError(caught);
    }
  };

  return (
    <Flex vertical gap={12} data-testid="wf-triggers-api">
      <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
        {t('workflowTriggers.api.explain')}
      </Typography.Paragraph>
      <Flex justify="space-between" align="center">
        <Typography.Text strong>{t('workflowTriggers.api.keys')}</Typography.Text>
        {canChange ? (
          <Button icon={<PlusOutlined />} onClick={() => setCreating(true)} data-testid="wf-key-create">
            {t('workflowTriggers.api.create')}
          </Button>
        ) : null}
      </Flex>
      <Table<ApiKey>
        size="small"
        rowKey="id"
        loading={keys.isPending}
        dataSource={keys.data?.items ?? []}
        pagination={false}
        locale={{ emptyText: t('workflowTriggers.api.none') }}
        columns={[
          { title: t('workflowTriggers.api.name'), dataIndex: 'name' },
          {
            title: t('workflowTriggers.api.prefix'),
            dataIndex: 'prefix',
            render: (prefix: string, key) => (
              <Flex gap={6} align="center">
                <Typography.Text code>{prefix}…</Typography.Text>
                {key.revoked ? <Tag>{t('workflowTriggers.api.revoked')}</Tag> : null}
              </Flex>
            ),
          },
          {
            title: t('workflowTriggers.api.created'),
            dataIndex: 'created_at',
            render: (at: string) => <RelativeTime iso={at} />,
          },
          {
            title: t('workflowTriggers.api.lastUsed'),
            dataIndex: 'last_used_at',
            render: (at: string | null) => (at ? <RelativeTime iso={at} /> : t('workflowTriggers.api.never')),
          },
          {
            title: '',
            key: 'actions',
            width: 60,
            render: (_: unknown, key) =>
              canChange && !key.revoked ? (
                <Popconfirm
                  title={t('workflowTriggers.api.revokeConfirm')}
                  okText={t('workflowTriggers.api.revoke')}
                  cancelText={t('workflowTriggers.cancel')}
                  onConfirm={() => revoke(key)}
                >
                  <Button
                    size="small"
                    danger
                    icon={<DeleteOutlined />}
                    aria-label={t('workflowTriggers.api.revoke')}
                    data-testid="wf-key-revoke"
                  />
                </Popconfirm>
              ) : null,
          },
        ]}
      />
      <Typography.Text strong>{t('workflowTriggers.api.blocking')}</Typography.Text>
      <CodeBlock code={samples.blocking} testId="wf-curl-blocking" />
      <Typography.Text strong>{t('workflowTriggers.api.streaming')}</Typography.Text>
      <CodeBlock code={samples.streaming} testId="wf-curl-streaming" />
      <Typography.Text type="secondary">{t('workflowTriggers.api.answer')}</Typography.Text>

      <Modal
        open={creating}
        title={t('workflowTriggers.api.create')}
        okText={t('workflowTriggers.api.createOk')}
        cancelText={t('workflowTriggers.cancel')}
        confirmLoading={saving}
        onOk={() => form.submit()}
        onCancel={() => setCreating(false)}
      >
        <Form form={form} layout="vertical" requiredMark={false} onFinish={(values) => void create(values)}>
          <Form.Item
            name="name"
            label={t('workflowTriggers.api.name')}
            rules={[{ required: true, whitespace: true, message: t('workflowTriggers.api.nameRequired') }]}
          >
            <Input autoFocus maxLength={50} data-testid="wf-key-name" />
          </Form.Item>
        </Form>
      </Modal>
      <Modal
        open={created !== null}
        title={t('workflowTriggers.api.createdTitle')}
        maskClosable={false}
        onCancel={() => setCreated(null)}
        footer={
          <Button type="primary" onClick={() => setCreated(null)} data-testid="wf-key-done">
            {t('workflowTriggers.done')}
          </Button>
        }
      >
        <Flex vertical gap={12}>
          <Alert type="warning" showIcon title={t('workflowTriggers.shownOnce')} />
          <Flex gap={8}>
            <Input.TextArea value={created?.key ?? ''} readOnly autoSize data-testid="wf-key-secret" />
            <CopyButton text={created?.key ?? ''} type="primary" />
          </Flex>
        </Flex>
      </Modal>
    </Flex>
  );
}
