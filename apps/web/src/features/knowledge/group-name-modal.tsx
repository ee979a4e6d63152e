import { ERRORS, knowledgeRoutes } from '@athena/contract';
import { Form, Input, Modal } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../lib/api-client.ts';
import { errorNotice } from '../../lib/error-notice.ts';
import { currentLocale } from '../../lib/i18n.ts';
import type { KnowledgeGroup } from './group-list.tsx';
import { refreshKnowledge } from './knowledge-queries.ts';

interface Props {
  open: boolean;
  spaceId: string;
  /** null: a new group. */
  group: KnowledgeGroup | null;
  onClose: () => void;
  onSaved?: (group: KnowledgeGroup) => void;
}

/** Creates a group or renames one: just a name. */
export function GroupNameModal({ open, spaceId, group, onClose, onSaved }: Props) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ name: string }>();
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const language = currentLocale();

  const submit = async ({ name }: { name: string }) => {
    setSaving(true);
    setError(null);
    try {
      const saved = group
        ? await api(knowledgeRoutes.groupRename, { id: group.id, name: name.trim() })
        : await api(knowledgeRoutes.groupCreate, { name: name.trim() });
      await refreshKnowledge(spaceId);
      onSaved?.(saved);
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
      title={group ? t('knowledge.groups.renameTitle') : t('knowledge.groups.createTitle')}
      okText={group ? t('knowledge.save') : t('knowledge.groups.createOk')}
      cancelText={t('knowledge.cancel')}
      onOk={() => form.submit()}
      onCancel={onClose}
      confirmLoading={saving}
      destroyOnHidden
      okButtonProps={{ 'data-testid': 'group-name-submit' }}
    >
      <Form
        form={form}
        layout="vertical"
        requiredMark={false}
        initialValues={{ name: group?.name ?? '' }}
        onFinish={(values) => void submit(values)}
        data-testid="group-name-modal"
      >
        <Form.Item
          name="name"
          label={t('knowledge.groups.name')}
          validateStatus={error ? 'error' : undefined}
          help={error ?? undefined}
          rules={[
            { required: true, whitespace: true, message: ERRORS.GROUP_NAME_REQUIRED.msg[language] },
            { max: 50, message: ERRORS.KNOWLEDGE_NAME_TOO_LONG.msg[language] },
          ]}
        >
          <Input autoFocus maxLength={60} data-testid="group-name-input" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
