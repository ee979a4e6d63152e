import { ERRORS, type KnowledgeUnit, knowledgeRoutes, type Segment } from '@athena/contract';
import { Alert, App, Form, Input, Modal, Segmented, Select } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../lib/api-client.ts';
import { errorNotice } from '../../lib/error-notice.ts';
import { currentLocale } from '../../lib/i18n.ts';
import { refreshBase } from './knowledge-queries.ts';
import { isQa } from './segment-text.tsx';

interface Values {
  unit_id: string;
  kind: 'content' | 'qa';
  question: string;
  answer: string;
  content: string;
}

interface Props {
  open: boolean;
  spaceId: string;
  knowledgeId: string;
  /** The segment being edited, or null to add one. */
  segment: Segment | null;
  /** Where a new segment goes: fixed (a unit's page) or chosen from these (the base's page). */
  units: KnowledgeUnit[];
  /** A new segment's kind to start with (Q&A in a Q&A sheet). */
  defaultKind?: Values['kind'];
  onClose: () => void;
}

/**
 * Edits a segment — question and answer for Q&A, else the content — or adds one by hand. Saving
 * re-indexes only that segment.
 */
export function SegmentEditModal({
  open,
  spaceId,
  knowledgeId,
  segment,
  units,
  defaultKind = 'content',
  onClose,
}: Props) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const kind = Form.useWatch('kind', form);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const language = currentLocale();
  const required = { required: true, whitespace: true, message: ERRORS.SEGMENT_CONTENT_REQUIRED.msg[language] };

  const submit = async (values: Values) => {
    setSaving(true);
    setError(null);
    const fields =
      values.kind === 'qa'
        ? { question: values.question.trim(), answer: values.answer.trim(), content: '' }
        : { question: '', answer: '', content: values.content.trim() };
    try {
      if (segment) await api(knowledgeRoutes.segmentUpdate, { id: segment.id, ...fields });
      else await api(knowledgeRoutes.segmentCreate, { unit_id: values.unit_id, ...fields });
      void message.success(segment ? t('knowledge.segments.savedReindexed') : t('knowledge.segments.added'));
      await refreshBase(spaceId, knowledgeId);
      onClose();
    } catch (caught) {
      setError(errorNotice(caught, language));
    } finally {
      setSaving(false);
    }
  };

  const initial: Values = segment
    ? {
        unit_id: segment.unit_id,
        kind: isQa(segment) ? 'qa' : 'content',
        question: segment.question,
        answer: segment.answer,
        content: segment.content,
      }
    : { unit_id: units[0]?.id ?? '', kind: defaultKind, question: '', answer: '', content: '' };

  return (
    <Modal
      open={open}
      title={segment ? t('knowledge.segments.editTitle') : t('knowledge.segments.addTitle')}
      okText={segment ? t('knowledge.save') : t('knowledge.segments.addOk')}
      cancelText={t('knowledge.cancel')}
      onOk={() => form.submit()}
      onCancel={onClose}
      confirmLoading={saving}
      destroyOnHidden
      width={680}
      okButtonProps={{ 'data-testid': 'segment-save' }}
    >
      <Form<Values>
        form={form}
        layout="vertical"
        requiredMark={false}
        initialValues={initial}
        onFinish={(values) => void submit(values)}
        data-testid="segment-edit-modal"
      >
        {segment || units.length <= 1 ? (
          <Form.Item name="unit_id" hidden>
            <Input />
          </Form.Item>
        ) : (
          <Form.Item name="unit_id" label={t('knowledge.segments.file')}>
            <Select
              data-testid="segment-unit-select"
              options={units.map((unit) => ({ value: unit.id, label: unit.file_name }))}
            />
          </Form.Item>
        )}
        <Form.Item name="kind" label={t('knowledge.segments.kind')} hidden={Boolean(segment)}>
          <Segmented
            data-testid="segment-kind"
            options={[
              { value: 'content', label: t('knowledge.segments.kindContent') },
              { value: 'qa', label: t('knowledge.segments.kindQa') },
            ]}
          />
        </Form.Item>
        {kind === 'qa' ? (
          <>
            <Form.Item name="question" label={t('knowledge.segments.question')} rules={[required]}>
              <Input.TextArea
                autoSize={{ minRows: 2, maxRows: 6 }}
                maxLength={2000}
                showCount
                data-testid="segment-question-input"
              />
            </Form.Item>
            <Form.Item name="answer" label={t('knowledge.segments.answer')} rules={[required]}>
              <Input.TextArea
                autoSize={{ minRows: 4, maxRows: 14 }}
                maxLength={10000}
                showCount
                data-testid="segment-answer-input"
              />
            </Form.Item>
          </>
        ) : (
          <Form.Item name="content" label={t('knowledge.segments.content')} rules={[required]}>
            <Input.TextArea
              autoSize={{ minRows: 6, maxRows: 18 }}
              maxLength={10000}
              showCount
              data-testid="segment-content-input"
            />
          </Form.Item>
        )}
        {segment ? (
          <Alert type="info" showIcon title={t('knowledge.segments.reindexNote')} style={{ marginBottom: 8 }} />
        ) : null}
        {error ? <Alert type="error" showIcon title={error} data-testid="segment-save-error" /> : null}
      </Form>
    </Modal>
  );
}
