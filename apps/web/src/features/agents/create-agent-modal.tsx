import { type Agent, agentRoutes, ERRORS } from '@athena/contract';
import { Form, Input, Modal } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../lib/api-client.ts';
import { errorNotice } from '../../lib/error-notice.ts';
import { currentLocale } from '../../lib/i18n.ts';
import { refreshAgents } from './agent-queries.ts';

interface Props {
  open: boolean;
  spaceId: string;
  onClose: () => void;
  onCreated: (agent: Agent) => void;
}

/** A name is all a new agent needs; everything else is set in the editor that opens next. */
export function CreateAgentModal({ open, spaceId, onClose, onCreated }: Props) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ name: string }>();
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const language = currentLocale();

  const submit = async ({ name }: { name: string }) => {
    setSaving(true);
    setError(null);
    try {
      const agent = await api(agentRoutes.create, { name: name.trim() });
      await refreshAgents(spaceId);
      onCreated(agent);
    } catch (caught) {
      setError(errorNotice(caught, language));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={open}
      title={t('agents.create.title')}
      okText={t('agents.create.ok')}
      cancelText={t('agents.cancel')}
      onOk={() => form.submit()}
      onCancel={onClose}
      confirmLoading={saving}
      destroyOnHidden
      okButtonProps={{ 'data-testid': 'agent-create-submit' }}
    >
      <Form
        form={form}
        layout="vertical"
        onFinish={(values) => void submit(values)}
        requiredMark={false}
        data-testid="agent-create-modal"
      >
        <Form.Item
          name="name"
          label={t('agents.fields.name')}
          extra={t('agents.create.hint')}
          validateStatus={error ? 'error' : undefined}
          help={error ?? undefined}
          rules={[
            { required: true, whitespace: true, message: ERRORS.AGENT_NAME_REQUIRED.msg[language] },
            { max: 50, message: ERRORS.AGENT_NAME_TOO_LONG.msg[language] },
          ]}
        >
          <Input
            autoFocus
            maxLength={60}
            placeholder={t('agents.create.placeholder')}
            data-testid="agent-create-name"
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
