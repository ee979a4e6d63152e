import {
  BUDGET_RANGES,
  type BudgetRange,
  CONTACT_NAME_MAX,
  CUSTOM_BUSINESS_SCENARIOS,
  CUSTOM_REQUIREMENTS_MAX,
  CUSTOM_TITLE_MAX,
  type CustomBusinessScenario,
  customBusinessRoutes,
  PHONE_MAX_LENGTH,
  type RequestDetail,
} from '@athena/contract';
import { Alert, App, Col, DatePicker, Form, Input, Modal, Radio, Row, Select, Typography } from 'antd';
import type { Rule } from 'antd/es/form';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, api } from '../../lib/api-client.ts';
import { errorNotice } from '../../lib/error-notice.ts';
import { currentLocale } from '../../lib/i18n.ts';
import { testId } from '../../lib/test-id.ts';
import { AttachmentField } from './attachment-field.tsx';
import { contactError, FIELD_RULES, fieldError, fieldOfCode, type RuledField } from './form-rules.ts';
import { refreshCustomBusiness } from './queries.ts';
import { useAttachmentUploads } from './use-attachment-uploads.ts';

interface Values {
  title?: string;
  scenario?: CustomBusinessScenario;
  requirements?: string;
  budget_range?: BudgetRange;
  expected_date?: Dayjs | null;
  contact_name?: string;
  contact_phone?: string;
  contact_email?: string;
}

/** An antd rule that runs the contract's own field rule, so the form says what the server would. */
const contractRule =
  (field: RuledField): Rule =>
  () => ({
    validator: (_rule, value: unknown) => {
      const input = dayjs.isDayjs(value)
        ? value.format('YYYY-MM-DD')
        : (value ?? (field === 'expected_date' ? null : ''));
      const message = fieldError(FIELD_RULES[field], input, currentLocale());
      return message ? Promise.reject(new Error(message)) : Promise.resolve();
    },
  });

/** The "new request" form: validated field by field, attachments upload while it is filled in. */
export function RequestForm({
  open,
  onClose,
  onCreated,
}: {
  open: boolean;
  onClose: () => void;
  onCreated: (request: RequestDetail) => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const uploads = useAttachmentUploads();
  const [submitting, setSubmitting] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  const [attachmentError, setAttachmentError] = useState<string | null>(null);

  const close = () => {
    form.resetFields();
    uploads.reset();
    setFormError(null);
    setAttachmentError(null);
    onClose();
  };

  const submit = async () => {
    setFormError(null);
    setAttachmentError(null);
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    setSubmitting(true);
    try {
      const created = await api(customBusinessRoutes.create, {
        title: values.title ?? '',
        scenario: values.scenario as CustomBusinessScenario,
        requirements: values.requirements ?? '',
        budget_range: values.budget_range as BudgetRange,
        expected_date: values.expected_date ? values.expected_date.format('YYYY-MM-DD') : null,
        contact_name: values.contact_name ?? '',
        contact_phone: values.contact_phone ?? null,
        contact_email: values.contact_email ?? null,
        attachment_ids: uploads.ids,
      });
      await refreshCustomBusiness();
      void message.success(t('customBusiness.form.created'));
      close();
      onCreated(created);
    } catch (error) {
      const text = errorNotice(error);
      if (text === null) return;
      const field = error instanceof ApiError ? fieldOfCode(error.code) : null;
      if (field === 'attachments') setAttachmentError(text);
      else if (field) form.setFields([{ name: field as keyof Values, errors: [text] }]);
      else setFormError(text);
    } finally {
      setSubmitting(false);
    }
  };

  const contactRule: Rule = ({ getFieldValue }) => ({
    validator: (_rule, value: string | undefined) => {
      const language = currentLocale();
      const message =
        fieldError(FIELD_RULES.contact_phone, value ?? '', language) ??
        contactError(value, getFieldValue('contact_email'), language);
      return message ? Promise.reject(new Error(message)) : Promise.resolve();
    },
  });

  return (
    <Modal
      open={open}
      title={t('customBusiness.form.heading')}
      width={760}
      onCancel={close}
      onOk={() => void submit()}
      okText={uploads.uploading ? t('customBusiness.form.waitUploads') : t('customBusiness.form.submit')}
      cancelText={t('customBusiness.form.cancel')}
      okButtonProps={{ loading: submitting, disabled: uploads.uploading, ...testId('cab-submit') }}
      cancelButtonProps={{ ...testId('cab-form-cancel') }}
      maskClosable={false}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">{t('customBusiness.form.intro')}</Typography.Paragraph>
      <Form form={form} layout="vertical" data-testid="cab-form" requiredMark validateTrigger="onBlur">
        <Form.Item name="title" label={t('customBusiness.form.title')} required rules={[contractRule('title')]}>
          <Input
            maxLength={CUSTOM_TITLE_MAX}
            showCount
            placeholder={t('customBusiness.form.titlePlaceholder')}
            data-testid="cab-title"
          />
        </Form.Item>
        <Row gutter={16}>
          <Col xs={24} sm={12}>
            <Form.Item
              name="scenario"
              label={t('customBusiness.form.scenario')}
              rules={[{ required: true, message: t('customBusiness.form.scenarioRequired') }]}
            >
              <Select
                data-testid="cab-scenario"
                placeholder={t('customBusiness.form.scenarioPlaceholder')}
                options={CUSTOM_BUSINESS_SCENARIOS.map((value) => ({
                  value,
                  label: <span data-testid={`cab-scenario-${value}`}>{t(`customBusiness.scenario.${value}`)}</span>,
                }))}
              />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item
              name="expected_date"
              label={t('customBusiness.form.expectedDate')}
              rules={[contractRule('expected_date')]}
            >
              <DatePicker
                style={{ width: '100%' }}
                data-testid="cab-expected-date"
                placeholder={t('customBusiness.form.expectedDatePlaceholder')}
                disabledDate={(day) => day.isBefore(dayjs().startOf('day'))}
              />
            </Form.Item>
          </Col>
        </Row>
        <Form.Item
          name="requirements"
          label={t('customBusiness.form.requirements')}
          required
          rules={[contractRule('requirements')]}
          extra={t('customBusiness.form.requirementsHint')}
        >
          <Input.TextArea
            data-testid="cab-requirements"
            autoSize={{ minRows: 5, maxRows: 12 }}
            maxLength={CUSTOM_REQUIREMENTS_MAX}
            showCount
            placeholder={t('customBusiness.form.requirementsPlaceholder')}
          />
        </Form.Item>
        <Form.Item
          name="budget_range"
          label={t('customBusiness.form.budget')}
          rules={[{ required: true, message: t('customBusiness.form.budgetRequired') }]}
        >
          <Radio.Group data-testid="cab-budget" optionType="button" buttonStyle="solid">
            {BUDGET_RANGES.map((value) => (
              <Radio.Button key={value} value={value} data-testid={`cab-budget-${value}`}>
                {t(`customBusiness.budget.${value}`)}
              </Radio.Button>
            ))}
          </Radio.Group>
        </Form.Item>
        <Typography.Title level={5} style={{ marginTop: 8, marginBottom: 0 }}>
          {t('customBusiness.form.contactHeading')}
        </Typography.Title>
        <Typography.Paragraph type="secondary" style={{ fontSize: 12, marginBottom: 8 }}>
          {t('customBusiness.form.contactHint')}
        </Typography.Paragraph>
        <Row gutter={16}>
          <Col xs={24} sm={8}>
            <Form.Item
              name="contact_name"
              label={t('customBusiness.form.contactName')}
              required
              rules={[contractRule('contact_name')]}
            >
              <Input maxLength={CONTACT_NAME_MAX} data-testid="cab-contact-name" autoComplete="name" />
            </Form.Item>
          </Col>
          <Col xs={24} sm={8}>
            <Form.Item
              name="contact_phone"
              label={t('customBusiness.form.contactPhone')}
              dependencies={['contact_email']}
              rules={[contactRule]}
            >
              <Input
                maxLength={PHONE_MAX_LENGTH}
                inputMode="numeric"
                data-testid="cab-contact-phone"
                autoComplete="tel"
              />
            </Form.Item>
          </Col>
          <Col xs={24} sm={8}>
            <Form.Item
              name="contact_email"
              label={t('customBusiness.form.contactEmail')}
              rules={[contractRule('contact_email')]}
            >
              <Input type="email" data-testid="cab-contact-email" autoComplete="email" />
            </Form.Item>
          </Col>
        </Row>
        <Form.Item label={t('customBusiness.form.attachments')}>
          <AttachmentField uploads={uploads} error={attachmentError} />
        </Form.Item>
      </Form>
      {formError ? <Alert type="error" showIcon title={formError} data-testid="cab-form-error" /> : null}
    </Modal>
  );
}
