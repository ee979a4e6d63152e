import { ApiOutlined } from '@ant-design/icons';
import { type KeyTestResult, type ModelKey, type ModelPurpose, modelKeyRoutes } from '@athena/contract';
import { Alert, App, Button, type ButtonProps, Flex, Form, Modal, Typography } from 'antd';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, api } from '../../lib/api-client.ts';
import { errorNotice } from '../../lib/error-notice.ts';
import { currentLocale } from '../../lib/i18n.ts';
import { draftBody, fieldOfErrorCode, type KeyFormValues, sameAsSaved, updateBody } from './key-fields.ts';
import { KeyFormFields } from './key-form-fields.tsx';
import { refreshModelKeys, useModelKeys } from './key-queries.ts';
import type { ProviderPreset } from './presets.ts';
import { failureKindOf, TestResultAlert } from './test-result.tsx';

interface Props {
  open: boolean;
  /** The key being edited; null adds a new one. */
  editing: ModelKey | null;
  /** A provider picked in the empty state before the form opened. */
  initialPreset?: ProviderPreset;
  spaceId: string;
  onClose: () => void;
}

type Outcome = { result: KeyTestResult; purpose: ModelPurpose } | { needKey: true } | null;

const FORM_ID = 'model-key-form';

/**
 * Add or edit a key. Fields are checked with the contract's rules and messages before anything is
 * sent; "Test" tries the values as typed (test_draft) before saving. When editing with the key
 * left empty, the saved key is tested instead, which is only possible while the other fields still
 * match what is saved (the browser never gets the saved key back).
 */
export function KeyFormModal({ open, editing, initialPreset, spaceId, onClose }: Props) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  // The page's own list query (shared, not fetched again): it says whether private addresses work.
  const keys = useModelKeys(spaceId);
  const locale = currentLocale();
  const [form] = Form.useForm<KeyFormValues>();
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [testing, setTesting] = useState(false);
  const [saving, setSaving] = useState(false);
  // A test answer for values the person has since changed must not show as theirs.
  const generation = useRef(0);
  const purpose: ModelPurpose = Form.useWatch('purpose', form) ?? editing?.purpose ?? 'chat';
  const baseUrl: string = Form.useWatch('base_url', form) ?? '';

  const initialValues: KeyFormValues = editing
    ? {
        purpose: editing.purpose,
        model_name: editing.model_name,
        version: editing.version,
        base_url: editing.base_url,
        api_key: '',
      }
    : { purpose: 'chat', model_name: '', version: '', base_url: initialPreset?.baseUrl ?? '', api_key: '' };

  const valuesOf = (values: Partial<KeyFormValues>): KeyFormValues => ({
    ...initialValues,
    ...values,
    api_key: values.api_key ?? '',
  });

  /** A failed call: under its field when the server names one, otherwise above the buttons. */
  const showFailure = (error: unknown) => {
    const text = errorNotice(error, locale);
    if (text === null) return;
    const field = error instanceof ApiError ? fieldOfErrorCode(error.code) : undefined;
    if (field) form.setFields([{ name: field, errors: [text] }]);
    else setFormError(text);
  };

  const pickPreset = (picked: ProviderPreset) => {
    form.setFieldsValue({ base_url: picked.baseUrl });
    void form.validateFields(['base_url']);
    generation.current++;
    setOutcome(null);
  };

  const runTest = async () => {
    setFormError(null);
    setOutcome(null);
    let values: KeyFormValues;
    try {
      values = valuesOf(await form.validateFields());
    } catch {
      return;
    }
    const keepKey = editing !== null && !values.api_key.trim();
    if (keepKey && !sameAsSaved(values, editing)) {
      setOutcome({ needKey: true });
      return;
    }
    const mine = ++generation.current;
    setTesting(true);
    try {
      const result = keepKey
        ? await api(modelKeyRoutes.test, { id: editing.id })
        : await api(modelKeyRoutes.testDraft, draftBody(values));
      if (keepKey) void refreshModelKeys(spaceId);
      if (mine === generation.current) setOutcome({ result, purpose: values.purpose });
    } catch (error) {
      showFailure(error);
    } finally {
      setTesting(false);
    }
  };

  /**
   * Values whose test just failed are saved only when the person says so: a key saved by mistake
   * fails every workflow and chat that uses it (and the first key of a purpose becomes its default).
   */
  const confirmSave = (raw: Partial<KeyFormValues>) => {
    const failed = outcome && 'result' in outcome && !outcome.result.ok ? outcome.result : null;
    if (!failed) return void save(raw);
    const values = valuesOf(raw);
    const becomesDefault = editing === null && !(keys.data?.items ?? []).some((key) => key.purpose === values.purpose);
    const reason = t(`authCenter.failure.${failureKindOf(failed.error_kind)}.title`);
    modal.confirm({
      title: t('authCenter.form.failedSaveTitle'),
      content: (
        <div data-testid="key-form-failed-confirm">
          <p>{t('authCenter.form.failedSaveText', { reason })}</p>
          {becomesDefault ? (
            <p>{t('authCenter.form.failedSaveDefault', { purpose: t(`authCenter.purpose.${values.purpose}`) })}</p>
          ) : null}
        </div>
      ),
      okText: t('authCenter.form.failedSaveOk'),
      okButtonProps: { danger: true, 'data-testid': 'key-form-failed-save' } as ButtonProps,
      cancelText: t('authCenter.form.failedSaveCancel'),
      onOk: () => save(raw),
    });
  };

  const save = async (raw: Partial<KeyFormValues>) => {
    const values = valuesOf(raw);
    setFormError(null);
    setSaving(true);
    try {
      if (editing) await api(modelKeyRoutes.update, updateBody(editing.id, values));
      else await api(modelKeyRoutes.create, draftBody(values));
      await refreshModelKeys(spaceId);
      void message.success(
        t(editing ? 'authCenter.form.saved' : 'authCenter.form.added', { name: values.model_name.trim() }),
      );
      onClose();
    } catch (error) {
      showFailure(error);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={open}
      width={760}
      title={editing ? t('authCenter.form.editTitle', { name: editing.model_name }) : t('authCenter.form.addTitle')}
      onCancel={onClose}
      maskClosable={false}
      destroyOnHidden
      footer={
        <Flex justify="space-between" align="center" wrap gap={8}>
          <Button
            icon={<ApiOutlined />}
            loading={testing}
            disabled={saving}
            onClick={() => void runTest()}
            data-testid="key-form-test"
          >
            {testing ? t('authCenter.test.running') : t('authCenter.form.test')}
          </Button>
          <Flex gap={8}>
            <Button onClick={onClose} data-testid="key-form-cancel">
              {t('authCenter.form.cancel')}
            </Button>
            <Button
              type="primary"
              htmlType="submit"
              form={FORM_ID}
              loading={saving}
              disabled={testing}
              data-testid="key-form-submit"
            >
              {editing ? t('authCenter.form.save') : t('authCenter.form.add')}
            </Button>
          </Flex>
        </Flex>
      }
    >
      <div data-testid="key-form-modal" data-mode={editing ? 'edit' : 'create'}>
        <Form<KeyFormValues>
          form={form}
          id={FORM_ID}
          layout="vertical"
          requiredMark={false}
          initialValues={initialValues}
          onFinish={confirmSave}
          onValuesChange={() => {
            generation.current++;
            setOutcome(null);
            setFormError(null);
          }}
        >
          <KeyFormFields
            editing={editing}
            purpose={purpose}
            baseUrl={baseUrl}
            onPickPreset={pickPreset}
            privateAddressesAllowed={keys.data?.private_addresses_allowed ?? false}
          />
        </Form>
        <Flex vertical gap={8}>
          {outcome && 'result' in outcome ? (
            <TestResultAlert result={outcome.result} purpose={outcome.purpose} testId="key-form-test-result" />
          ) : null}
          {outcome && 'needKey' in outcome ? (
            <Alert type="warning" showIcon data-testid="key-form-need-key" title={t('authCenter.form.needKey')} />
          ) : null}
          {formError ? <Alert type="error" showIcon data-testid="key-form-error" title={formError} /> : null}
          {testing ? (
            <Typography.Text type="secondary" data-testid="key-form-testing">
              {t('authCenter.test.runningHint')}
            </Typography.Text>
          ) : null}
        </Flex>
      </div>
    </Modal>
  );
}
