import { ERRORS, type WorkflowGroup, type WorkflowSummary, workflowRoutes } from '@athena/contract';
import { App, Form, Input, Modal, Select, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../lib/api-client.ts';
import { errorNotice } from '../../lib/error-notice.ts';
import { currentLocale } from '../../lib/i18n.ts';
import { refreshWorkflowLists } from './workflow-queries.ts';

/** edit: name and description; move: the group; template: save the draft as a team template. */
export type WorkflowFormMode = 'edit' | 'move' | 'template';

interface Props {
  open: boolean;
  mode: WorkflowFormMode;
  spaceId: string;
  workflow: WorkflowSummary | null;
  groups: WorkflowGroup[];
  onClose: () => void;
}

interface Values {
  name: string;
  description: string;
  group_id: string | null;
}

const NO_GROUP = '';

/** The small forms about one workflow; a refusal (locked meanwhile, a name too long) shows above the buttons. */
export function WorkflowFormModal({ open, mode, spaceId, workflow, groups, onClose }: Props) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const language = currentLocale();
  if (!workflow) return null;

  const submit = async (values: Values) => {
    setSaving(true);
    setError(null);
    try {
      if (mode === 'template') {
        const saved = await api(workflowRoutes.templateSave, {
          workflow_id: workflow.id,
          name: values.name.trim(),
          description: values.description.trim(),
        });
        void message.success(t('workflows.done.templateSaved', { name: saved.name }));
      } else {
        await api(workflowRoutes.update, {
          id: workflow.id,
          name: mode === 'edit' ? values.name.trim() : workflow.name,
          description: mode === 'edit' ? values.description.trim() : workflow.description,
          group_id: mode === 'move' ? values.group_id || null : workflow.group_id,
        });
        void message.success(t('workflows.done.saved'));
      }
      await refreshWorkflowLists(spaceId);
      onClose();
    } catch (caught) {
      setError(errorNotice(caught, language));
    } finally {
      setSaving(false);
    }
  };

  const title =
    mode === 'edit'
      ? t('workflows.form.editTitle')
      : mode === 'move'
        ? t('workflows.form.moveTitle', { name: workflow.name })
        : t('workflows.templateSave.title');
  const okText =
    mode === 'edit'
      ? t('workflows.form.save')
      : mode === 'move'
        ? t('workflows.form.move')
        : t('workflows.templateSave.ok');

  return (
    <Modal
      open={open}
      title={title}
      okText={okText}
      cancelText={t('workflows.form.cancel')}
      onOk={() => form.submit()}
      onCancel={onClose}
      confirmLoading={saving}
      destroyOnHidden
      okButtonProps={{ 'data-testid': 'workflow-form-submit' }}
    >
      <Form<Values>
        form={form}
        layout="vertical"
        requiredMark={false}
        initialValues={{
          name: workflow.name,
          description: workflow.description,
          group_id: workflow.group_id ?? NO_GROUP,
        }}
        onFinish={(values) => void submit(values)}
        data-testid="workflow-form-modal"
        data-mode={mode}
      >
        {mode === 'template' ? (
          <Typography.Paragraph type="secondary">{t('workflows.templateSave.hint')}</Typography.Paragraph>
        ) : null}
        {mode === 'move' ? (
          <Form.Item name="group_id" label={t('workflows.form.group')}>
            <Select
              data-testid="workflow-form-group"
              options={[
                { value: NO_GROUP, label: t('workflows.form.noGroup') },
                ...groups.map((group) => ({ value: group.id, label: group.name })),
              ]}
            />
          </Form.Item>
        ) : (
          <>
            <Form.Item
              name="name"
              label={t('workflows.form.name')}
              rules={[
                { required: true, whitespace: true, message: ERRORS.WORKFLOW_NAME_REQUIRED.msg[language] },
                { max: 50, message: ERRORS.WORKFLOW_NAME_TOO_LONG.msg[language] },
              ]}
            >
              <Input autoFocus maxLength={60} data-testid="workflow-form-name" />
            </Form.Item>
            <Form.Item name="description" label={t('workflows.form.description')}>
              <Input.TextArea
                maxLength={500}
                showCount
                autoSize={{ minRows: 3, maxRows: 6 }}
                placeholder={t('workflows.form.descriptionPlaceholder')}
                data-testid="workflow-form-description"
              />
            </Form.Item>
          </>
        )}
        {error ? (
          <Typography.Text type="danger" data-testid="workflow-form-error">
            {error}
          </Typography.Text>
        ) : null}
      </Form>
    </Modal>
  );
}
