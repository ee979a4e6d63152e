import { agentRoutes, type RouteData } from '@athena/contract';
import { Alert, Button, Flex, Form, Input, Modal, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../lib/api-client.ts';
import { errorNotice } from '../../lib/error-notice.ts';
import { CopyButton } from './copy-button.tsx';

type CreatedKey = RouteData<typeof agentRoutes.apiKeyCreate>;

interface Props {
  open: boolean;
  agentId: string;
  onClose: () => void;
  onCreated: () => void;
}

/**
 * Names a new API key, then shows the key itself — the only time it is ever shown. Closing asks
 * nothing more: the warning above the key says it plainly.
 */
export function ApiKeyModal({ open, agentId, onClose, onCreated }: Props) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ name: string }>();
  const [created, setCreated] = useState<CreatedKey | null>(null);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const create = async ({ name }: { name: string }) => {
    setSaving(true);
    setError(null);
    try {
      setCreated(await api(agentRoutes.apiKeyCreate, { agent_id: agentId, name: name.trim() }));
      onCreated();
    } catch (caught) {
      setError(errorNotice(caught));
    } finally {
      setSaving(false);
    }
  };

  if (created) {
    return (
      <Modal
        open={open}
        title={t('agents.keys.createdTitle')}
        onCancel={onClose}
        maskClosable={false}
        footer={
          <Button type="primary" onClick={onClose} data-testid="api-key-done">
            {t('agents.keys.done')}
          </Button>
        }
      >
        <Flex vertical gap={12} data-testid="api-key-created-modal">
          <Alert type="warning" showIcon title={t('agents.keys.onceTitle')} description={t('agents.keys.onceText')} />
          <Typography.Text type="secondary">{created.name}</Typography.Text>
          <Flex gap={8}>
            <Input.TextArea
              value={created.key}
              readOnly
              autoSize
              data-testid="api-key-secret"
              style={{ fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace', wordBreak: 'break-all' }}
              onFocus={(event) => event.target.select()}
            />
            <CopyButton text={created.key} label={t('agents.copy')} type="primary" data-testid="api-key-copy" />
          </Flex>
        </Flex>
      </Modal>
    );
  }

  return (
    <Modal
      open={open}
      title={t('agents.keys.createTitle')}
      okText={t('agents.keys.createOk')}
      cancelText={t('agents.cancel')}
      onOk={() => form.submit()}
      onCancel={onClose}
      confirmLoading={saving}
      okButtonProps={{ 'data-testid': 'api-key-create-submit' }}
    >
      <Form
        form={form}
        layout="vertical"
        requiredMark={false}
        onFinish={(values) => void create(values)}
        data-testid="api-key-create-modal"
      >
        <Form.Item
          name="name"
          label={t('agents.keys.name')}
          extra={t('agents.keys.nameHelp')}
          validateStatus={error ? 'error' : undefined}
          help={error ?? undefined}
          rules={[{ required: true, whitespace: true, message: t('agents.keys.nameRequired') }]}
        >
          <Input autoFocus maxLength={50} placeholder={t('agents.keys.namePlaceholder')} data-testid="api-key-name" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
