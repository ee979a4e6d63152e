import { ERRORS, type WorkflowGroup, type WorkflowTemplate, workflowRoutes } from '@athena/contract';
import { Button, Flex, Form, Input, Modal, Select, Skeleton, Typography } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorNotice } from '../../lib/error-notice.ts';
import { currentLocale } from '../../lib/i18n.ts';
import { useApiMutation } from '../../shared/hooks/use-api-mutation.ts';
import { TemplateTags } from './template-card.tsx';
import { refreshWorkflowLists } from './workflow-queries.ts';

// React Flow comes with the first preview opened, never with the templates page itself.
const TemplatePreview = lazy(() => import('./template-preview.tsx').then((m) => ({ default: m.TemplatePreview })));

const PREVIEW_HEIGHT = 380;
const NO_GROUP = '';

interface Props {
  template: WorkflowTemplate;
  open: boolean;
  spaceId: string;
  groups: WorkflowGroup[];
  /** Without the right to create workflows, the dialog only shows the template. */
  canCreate: boolean;
  onClose: () => void;
  /** The new workflow's id: the caller opens the editor. */
  onCreated: (workflowId: string) => void;
}

interface Values {
  name: string;
  group_id: string;
}

/**
 * One template, from the templates page: what it is, its graph, and a name for the workflow made
 * from it. Not the create dialog's gallery: the person has already chosen (issue 28, item 7).
 */
export function TemplateUseModal({ template, open, spaceId, groups, canCreate, onClose, onCreated }: Props) {
  const { t } = useTranslation();
  const language = currentLocale();
  const [form] = Form.useForm<Values>();
  const [error, setError] = useState<string | null>(null);
  const create = useApiMutation(workflowRoutes.create, { meta: { errorNotice: false } });

  const submit = async (values: Values) => {
    setError(null);
    try {
      const created = await create.mutateAsync({
        name: values.name.trim(),
        description: '',
        group_id: values.group_id || null,
        template_id: template.id,
      });
      await refreshWorkflowLists(spaceId);
      onCreated(created.id);
    } catch (caught) {
      setError(errorNotice(caught, language));
    }
  };

  return (
    <Modal
      open={open}
      title={canCreate ? t('workflows.templates.useTitle', { name: template.name }) : template.name}
      onCancel={onClose}
      destroyOnHidden
      width={{ xs: '94%', md: 860, xl: 1080, xxl: 1360 }}
      footer={
        canCreate ? (
          <Flex gap={8} justify="flex-end">
            <Button onClick={onClose}>{t('workflows.form.cancel')}</Button>
            <Button
              type="primary"
              loading={create.isPending}
              onClick={() => form.submit()}
              data-testid="workflow-template-use-submit"
            >
              {t('workflows.createDialog.ok')}
            </Button>
          </Flex>
        ) : (
          <Button onClick={onClose}>{t('workflows.templates.close')}</Button>
        )
      }
    >
      <Flex vertical gap={12} data-testid="workflow-template-use-modal" data-template-id={template.id}>
        <TemplateTags template={template} />
        <Typography.Paragraph style={{ margin: 0 }} data-testid="workflow-template-use-description">
          {template.description}
        </Typography.Paragraph>
        <Flex vertical gap={4}>
          <Flex justify="space-between" gap={8} wrap>
            <Typography.Text strong>{t('workflows.templates.previewLabel')}</Typography.Text>
            <Typography.Text type="secondary">{t('workflows.templates.previewHint')}</Typography.Text>
          </Flex>
          <Suspense fallback={<Skeleton.Node active style={{ width: '100%', height: PREVIEW_HEIGHT }} />}>
            <TemplatePreview graph={template.graph} height={PREVIEW_HEIGHT} />
          </Suspense>
        </Flex>
        {canCreate ? (
          <Form<Values>
            form={form}
            layout="vertical"
            requiredMark={false}
            initialValues={{ name: template.name, group_id: NO_GROUP }}
            onFinish={(values) => void submit(values)}
          >
            <Flex gap={12} wrap>
              <Form.Item
                name="name"
                label={t('workflows.templates.newName')}
                style={{ flex: '2 1 260px', marginBottom: 0 }}
                rules={[
                  { required: true, whitespace: true, message: ERRORS.WORKFLOW_NAME_REQUIRED.msg[language] },
                  { max: 50, message: ERRORS.WORKFLOW_NAME_TOO_LONG.msg[language] },
                ]}
              >
                <Input maxLength={60} data-testid="workflow-template-use-name" />
              </Form.Item>
              <Form.Item
                name="group_id"
                label={t('workflows.form.group')}
                style={{ flex: '1 1 200px', marginBottom: 0 }}
              >
                <Select
                  data-testid="workflow-template-use-group"
                  options={[
                    { value: NO_GROUP, label: t('workflows.form.noGroup') },
                    ...groups.map((group) => ({ value: group.id, label: group.name })),
                  ]}
                />
              </Form.Item>
            </Flex>
          </Form>
        ) : null}
        {error ? (
          <Typography.Text type="danger" data-testid="workflow-template-use-error">
            {error}
          </Typography.Text>
        ) : null}
      </Flex>
    </Modal>
  );
}
