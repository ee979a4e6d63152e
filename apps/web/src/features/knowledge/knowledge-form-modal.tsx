import { DatabaseOutlined } from '@ant-design/icons';
import { ERRORS, type KnowledgeBase, knowledgeRoutes } from '@athena/contract';
import { Alert, Divider, Flex, Form, Input, Modal, Select, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../lib/api-client.ts';
import { errorNotice } from '../../lib/error-notice.ts';
import { currentLocale } from '../../lib/i18n.ts';
import { queryClient } from '../../lib/query-client.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import {
  type BaseFormValues,
  embeddingChanged,
  fromBase,
  newBaseValues,
  toCreateBody,
  toUpdateBody,
} from './base-form-values.ts';
import { EmbeddingField } from './embedding-field.tsx';
import { refreshBase, refreshKnowledge, useEmbeddingKeys, useKnowledgeGroups } from './knowledge-queries.ts';
import { RetrievalFields } from './retrieval-fields.tsx';

interface Props {
  open: boolean;
  spaceId: string;
  /** null: a new base (in `groupId` when given); otherwise that base's settings. */
  base: KnowledgeBase | null;
  groupId?: string | null;
  onClose: () => void;
  onSaved?: (base: KnowledgeBase) => void;
}

/**
 * New knowledge base, or a base's settings: name, description, group, embedding model and (for
 * an existing base) how it searches. Changing the embedding model warns that every file indexes again.
 */
export function KnowledgeFormModal({ open, spaceId, base, groupId = null, onClose, onSaved }: Props) {
  const { t } = useTranslation();
  const [form] = Form.useForm<BaseFormValues>();
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const groups = useKnowledgeGroups(spaceId);
  const keys = useEmbeddingKeys(spaceId);
  const language = currentLocale();
  const embedding = Form.useWatch('embedding', form);
  const reindexes = base !== null && embedding !== undefined && embeddingChanged(base, { embedding });
  const defaultKey = keys.data?.items.find((key) => key.is_default)?.id ?? null;

  const submit = async (values: BaseFormValues) => {
    setSaving(true);
    setError(null);
    try {
      const saved = base
        ? await api(knowledgeRoutes.update, toUpdateBody(base.id, values))
        : await api(knowledgeRoutes.create, toCreateBody(values));
      queryClient.setQueryData(queryKeys.knowledge.detail(spaceId, saved.id), saved);
      await (base ? refreshBase(spaceId, saved.id) : Promise.resolve());
      await refreshKnowledge(spaceId);
      onSaved?.(saved);
      onClose();
    } catch (caught) {
      setError(errorNotice(caught, language));
    } finally {
      setSaving(false);
    }
  };

  // A new base waits for the keys so it starts with the team's default embedding model.
  const ready = base !== null || !keys.isPending;

  return (
    <Modal
      open={open}
      title={base ? t('knowledge.form.editTitle') : t('knowledge.form.createTitle')}
      okText={base ? t('knowledge.save') : t('knowledge.form.createOk')}
      cancelText={t('knowledge.cancel')}
      onOk={() => form.submit()}
      onCancel={onClose}
      confirmLoading={saving}
      okButtonProps={{ disabled: !ready, 'data-testid': 'knowledge-form-submit' }}
      destroyOnHidden
      width={base ? 640 : 560}
    >
      {ready ? (
        <Form<BaseFormValues>
          form={form}
          layout="vertical"
          requiredMark={false}
          initialValues={base ? fromBase(base) : newBaseValues(groupId, defaultKey)}
          onFinish={(values) => void submit(values)}
          data-testid="knowledge-form"
        >
          <Form.Item
            name="name"
            label={t('knowledge.form.name')}
            rules={[
              { required: true, whitespace: true, message: ERRORS.KNOWLEDGE_NAME_REQUIRED.msg[language] },
              { max: 50, message: ERRORS.KNOWLEDGE_NAME_TOO_LONG.msg[language] },
            ]}
          >
            <Input
              autoFocus
              maxLength={60}
              placeholder={t('knowledge.form.namePlaceholder')}
              data-testid="knowledge-name-input"
            />
          </Form.Item>
          <Form.Item name="description" label={t('knowledge.form.description')}>
            <Input.TextArea
              maxLength={500}
              autoSize={{ minRows: 2, maxRows: 4 }}
              placeholder={t('knowledge.form.descriptionPlaceholder')}
              data-testid="knowledge-description-input"
            />
          </Form.Item>
          {base ? null : (
            <Form.Item label={t('knowledge.form.type')} extra={t('knowledge.form.typeHelp')}>
              <Flex align="center" gap={8} data-testid="knowledge-type-normal">
                <DatabaseOutlined />
                <Typography.Text>{t('knowledge.type.normal')}</Typography.Text>
              </Flex>
            </Form.Item>
          )}
          <Form.Item name="group_id" label={t('knowledge.form.group')}>
            <Select
              loading={groups.isPending}
              data-testid="knowledge-group-select"
              options={[
                { value: '', label: t('knowledge.groups.ungrouped') },
                ...(groups.data?.items ?? []).map((group) => ({ value: group.id, label: group.name })),
              ]}
            />
          </Form.Item>
          <EmbeddingField spaceId={spaceId} savedKeyId={base?.embedding_model_key_id ?? null} />
          {reindexes ? (
            <Alert
              type="warning"
              showIcon
              data-testid="knowledge-reindex-warning"
              title={t('knowledge.form.reindexWarning')}
              style={{ marginBottom: 16 }}
            />
          ) : null}
          {base ? (
            <>
              <Divider titlePlacement="start" plain style={{ margin: '8px 0 12px' }}>
                {t('knowledge.retrieval.title')}
              </Divider>
              <RetrievalFields testPrefix="knowledge-retrieval" />
            </>
          ) : null}
          {error ? <Alert type="error" showIcon title={error} data-testid="knowledge-form-error" /> : null}
        </Form>
      ) : null}
    </Modal>
  );
}
