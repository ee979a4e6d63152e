import { ERRORS, type WorkflowGroup, workflowRoutes } from '@athena/contract';
import { Form, Input, Modal } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../lib/api-client.ts';
import { errorNotice } from '../../lib/error-notice.ts';
import { currentLocale } from '../../lib/i18n.ts';
import { refreshWorkflowLists } from './workflow-queries.ts';

interface Props {
  open: boolean;
  spaceId: string;
  /** null: a new group. */
  group: WorkflowGroup | null;
  onClose: () => void;
}

/** Creates a workflow group or renames one: just a name; a refusal shows under the field. */
export function GroupNameModal({ open, spaceId, group, onClose }: Props) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ name: string }>();
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const language = currentLocale();

  const submit = async ({ name }: { name: string }) => {
    setSaving(true);
    setError(null);
    try {
      if (group) await api(workflowRoutes.groupRename, { id: group.id, name: name.trim() });
      else await api(workflowRoutes.groupCreate, { name: name.trim() });
      await refreshWorkflowLists(spaceId);
      onClose();
    } catch (caught) {
      setError(errorNotice(caught, language));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={open}
      title={group ? t('workflows.groups.renameTitle') : t('workflows.groups.createTitle')}
      okText={group ? t('workflows.form.save') : t('workflows.groups.createOk')}
      cancelText={t('workflows.form.cancel')}
      onOk={() => form.submit()}
      onCancel={onClose}
      confirmLoading={saving}
      destroyOnHidden
      okButtonProps={{ 'data-testid': 'workflow-group-name-submit' }}
    >
      <Form
        form={form}
        layout="vertical"
        requiredMark={false}
        initialValues={{ name: group?.name ?? '' }}
        onFinish={(values) => void submit(values)}
        data-testid="workflow-group-name-modal"
      >
        <Form.Item
          name="name"
          label={t('workflows.groups.name')}
          validateStatus={error ? 'error' : undefined}
          help={error ?? undefined}
          rules={[
            { required: true, whitespace: true, message: ERRORS.GROUP_NAME_REQUIRED.msg[language] },
            { max: 50, message: ERRORS.WORKFLOW_NAME_TOO_LONG.msg[language] },
          ]}
        >
          <Input autoFocus maxLength={60} data-testid="workflow-group-name-input" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
