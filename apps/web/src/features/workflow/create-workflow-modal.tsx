import { FileAddOutlined, UploadOutlined } from '@ant-design/icons';
import {
  ERRORS,
  formatMessage,
  type ImportNote,
  isErrorKey,
  WORKFLOW_LIMITS,
  type WorkflowGroup,
  type WorkflowTemplate,
  workflowRoutes,
} from '@athena/contract';
import { App, Button, Flex, Form, Input, Modal, Segmented, Select, Typography } from 'antd';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../lib/api-client.ts';
import { errorNotice } from '../../lib/error-notice.ts';
import { currentLocale } from '../../lib/i18n.ts';
import { TemplateBrowser } from './template-browser.tsx';
import { refreshWorkflowLists, useWorkflowTemplates } from './workflow-queries.ts';

export type CreateWay = 'blank' | 'template' | 'import';

interface Props {
  open: boolean;
  spaceId: string;
  groups: WorkflowGroup[];
  /** The group the new workflow goes into (the one being looked at), or null. */
  groupId: string | null;
  initialWay?: CreateWay;
  initialTemplate?: WorkflowTemplate | null;
  onClose: () => void;
  /** The new workflow's id: the caller opens the editor. */
  onCreated: (workflowId: string) => void;
}

interface Values {
  name: string;
  description: string;
  group_id: string;
}

const NO_GROUP = '';

/**
 * New workflow, three ways: blank, from a built-in or team template, or from a file (our export
 * or a Dify DSL file: the server reads it and says what it refuses, shown above the buttons).
 */
export function CreateWorkflowModal(props: Props) {
  const { open, spaceId, groups, groupId, onClose, onCreated } = props;
  const { t } = useTranslation();
  const { notification } = App.useApp();
  const language = currentLocale();
  const [form] = Form.useForm<Values>();
  const [way, setWay] = useState<CreateWay>(props.initialWay ?? 'blank');
  const [template, setTemplate] = useState<WorkflowTemplate | null>(props.initialTemplate ?? null);
  const [file, setFile] = useState<{ name: string; size: number; content: string } | null>(null);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const templates = useWorkflowTemplates(spaceId, open && way === 'template');
  const gallery = useRef<HTMLDivElement>(null);
  const revealed = useRef(false);
  const preselected = props.initialTemplate?.id;

  // Opened with a template already chosen: scroll its card into the middle of the gallery, once.
  // Layout offsets rather than scrollIntoView: while the dialog zooms in, its transform skews the
  // measured rectangles. Tried when the list arrives and again when the dialog has opened.
  const reveal = useCallback(() => {
    const box = gallery.current;
    if (revealed.current || !box || !preselected) return;
    const card = box.querySelector<HTMLElement>(`[data-template-id="${CSS.escape(preselected)}"]`);
    if (!card || card.offsetParent === null) return;
    revealed.current = true;
    box.scrollTop = card.offsetTop - (box.clientHeight - card.offsetHeight) / 2;
  }, [preselected]);
  useEffect(() => {
    if (templates.data) reveal();
  }, [templates.data, reveal]);

  const pickTemplate = (picked: WorkflowTemplate) => {
    const name = form.getFieldValue('name') as string | undefined;
    // The template's name is a good default until the person types their own.
    if (!name || name === template?.name) form.setFieldValue('name', picked.name);
    setTemplate(picked);
    setError(null);
  };

  const pickFile = async (chosen: File | undefined) => {
    setError(null);
    if (!chosen) return;
    if (chosen.size > WORKFLOW_LIMITS.maxDocumentBytes) {
      setFile(null);
      setError(ERRORS.WORKFLOW_TOO_LARGE.msg[language]);
      return;
    }
    setFile({ name: chosen.name, size: chosen.size, content: await chosen.text() });
  };

  // What a Dify file could not bring over stays on screen (in the editor too) until dismissed.
  const importFile = async (content: string, group: string | null, name: string) => {
    const imported = await api(workflowRoutes.import, { content, group_id: group, ...(name ? { name } : {}) });
    if (imported.import_notes.length > 0) {
      notification.warning({
        message: t('workflows.createDialog.importNotes'),
        description: <ImportNotes notes={imported.import_notes} language={language} />,
        duration: 0,
      });
    }
    return imported;
  };

  const submit = async (values: Values) => {
    setError(null);
    if (way === 'template' && !template) return setError(t('workflows.createDialog.chooseTemplate'));
    if (way === 'import' && !file) return setError(t('workflows.createDialog.chooseFile'));
    setSaving(true);
    try {
      const name = values.name?.trim() ?? '';
      const group = values.group_id || null;
      const created =
        way === 'import' && file
          ? await importFile(file.content, group, name)
          : await api(workflowRoutes.create, {
              name,
              description: values.description?.trim() ?? '',
              group_id: group,
              ...(way === 'template' && template ? { template_id: template.id } : {}),
            });
      await refreshWorkflowLists(spaceId);
      onCreated(created.id);
    } catch (caught) {
      setError(errorNotice(caught, language));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={open}
      title={t('workflows.createDialog.title')}
      okText={way === 'import' ? t('workflows.createDialog.importOk') : t('workflows.createDialog.ok')}
      cancelText={t('workflows.form.cancel')}
      onOk={() => form.submit()}
      onCancel={onClose}
      afterOpenChange={(opened) => opened && reveal()}
      confirmLoading={saving}
      destroyOnHidden
      width={way === 'template' ? 880 : 560}
      okButtonProps={{ 'data-testid': 'workflow-create-submit' }}
    >
      <Flex vertical gap={16} data-testid="workflow-create-modal" data-way={way}>
        <Segmented<CreateWay>
          block
          value={way}
          onChange={(next) => {
            // A template's name filled in for the person goes with the template: an import
            // without a typed name takes the file's.
            const name = form.getFieldValue('name') as string | undefined;
            if (template && next !== 'template' && name === template.name) form.setFieldValue('name', '');
            if (template && next === 'template' && !name) form.setFieldValue('name', template.name);
            setWay(next);
            setError(null);
          }}
          data-testid="workflow-create-way"
          options={[
            { value: 'blank', label: t('workflows.createDialog.blank') },
            { value: 'template', label: t('workflows.createDialog.fromTemplate') },
            { value: 'import', label: t('workflows.createDialog.import') },
          ]}
        />
        {way === 'blank' ? (
          <Typography.Text type="secondary">{t('workflows.createDialog.blankHint')}</Typography.Text>
        ) : null}
        {way === 'template' ? (
          <div
            ref={gallery}
            style={{ maxHeight: 340, overflowY: 'auto', paddingInlineEnd: 4, position: 'relative' }}
            data-testid="workflow-template-gallery"
          >
            <TemplateBrowser
              query={templates}
              minCardWidth={240}
              selectedId={template?.id ?? null}
              onSelect={pickTemplate}
              testId="workflow-template-picker"
            />
          </div>
        ) : null}
        {way === 'import' ? (
          <Flex vertical gap={8}>
            <Typography.Text type="secondary">{t('workflows.createDialog.importHint')}</Typography.Text>
            <Flex gap={8} align="center" wrap>
              <Button
                icon={<UploadOutlined />}
                onClick={() => fileInput.current?.click()}
                data-testid="workflow-import-pick"
              >
                {t('workflows.createDialog.pickFile')}
              </Button>
              {file ? (
                <Typography.Text data-testid="workflow-import-file">
                  <FileAddOutlined /> {file.name} ({Math.max(1, Math.round(file.size / 1024))} KB)
                </Typography.Text>
              ) : null}
            </Flex>
            <input
              ref={fileInput}
              type="file"
              accept=".json,.yml,.yaml,application/json,application/x-yaml,text/yaml"
              hidden
              data-testid="workflow-import-input"
              onChange={(event) => {
                void pickFile(event.target.files?.[0]);
                event.target.value = '';
              }}
            />
          </Flex>
        ) : null}
        <Form<Values>
          form={form}
          layout="vertical"
          requiredMark={false}
          initialValues={{ name: props.initialTemplate?.name ?? '', description: '', group_id: groupId ?? NO_GROUP }}
          onFinish={(values) => void submit(values)}
        >
          <Form.Item
            name="name"
            label={t('workflows.form.name')}
            extra={way === 'import' ? t('workflows.createDialog.nameFromFile') : undefined}
            rules={[
              ...(way === 'import'
                ? []
                : [{ required: true, whitespace: true, message: ERRORS.WORKFLOW_NAME_REQUIRED.msg[language] }]),
              { max: 50, message: ERRORS.WORKFLOW_NAME_TOO_LONG.msg[language] },
            ]}
          >
            <Input maxLength={60} data-testid="workflow-create-name" />
          </Form.Item>
          {way === 'import' ? null : (
            <Form.Item name="description" label={t('workflows.form.description')}>
              <Input.TextArea
                maxLength={500}
                autoSize={{ minRows: 2, maxRows: 4 }}
                placeholder={t('workflows.form.descriptionPlaceholder')}
                data-testid="workflow-create-description"
              />
            </Form.Item>
          )}
          <Form.Item name="group_id" label={t('workflows.form.group')} style={{ marginBottom: 0 }}>
            <Select
              data-testid="workflow-create-group"
              options={[
                { value: NO_GROUP, label: t('workflows.form.noGroup') },
                ...groups.map((group) => ({ value: group.id, label: group.name })),
              ]}
            />
          </Form.Item>
        </Form>
        {error ? (
          <Typography.Text type="danger" data-testid="workflow-create-error">
            {error}
          </Typography.Text>
        ) : null}
      </Flex>
    </Modal>
  );
}

function ImportNotes({ notes, language }: { notes: ImportNote[]; language: ReturnType<typeof currentLocale> }) {
  return (
    <ul
      data-testid="workflow-import-notes"
      style={{ margin: 0, paddingInlineStart: 18, maxHeight: 320, overflow: 'auto' }}
    >
      {notes.map((note, index) => (
        // The same note can name several nodes; the position keeps the keys apart.
        // biome-ignore lint/suspicious/noArrayIndexKey: notes have no id and never reorder.
        <li key={index}>{isErrorKey(note.key) ? formatMessage(note.key, language, note.params) : note.key}</li>
      ))}
    </ul>
  );
}
