import { billingUsageRoutes, ERRORS, type PlatformModel, PRICE_MAX_MILLIFEN } from '@athena/contract';
import { App, Col, Form, Input, Modal, Row, Switch } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLocale } from '../../lib/i18n.ts';
import { useApiMutation } from '../../shared/hooks/use-api-mutation.ts';
import { KEY_FIELD_MAX, type KeyFieldName, keyFieldError } from '../auth-center/key-fields.ts';
import { refreshPlatformModels } from './billing-queries.ts';
import { millifenToYuanText, parseYuanToMillifen } from './money-input.ts';

interface Values {
  model_name: string;
  version: string;
  base_url: string;
  api_key: string;
  /** Yuan per 1 000 tokens, as typed (up to 5 decimals). */
  input_price: string;
  output_price: string;
  enabled: boolean;
}

const priceOf = (typed: string | undefined) => {
  const millifen = parseYuanToMillifen(typed ?? '');
  return millifen !== null && millifen <= PRICE_MAX_MILLIFEN ? millifen : null;
};

/**
 * Add or change a platform model (operators). Prices are typed in yuan per 1 000 tokens and sent
 * as integer milli-fen; a new price applies to later calls. Editing with the key left empty keeps it.
 */
export function PlatformModelModal(props: {
  open: boolean;
  editing: PlatformModel | null;
  spaceId: string;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const locale = currentLocale();
  const { editing } = props;
  const [form] = Form.useForm<Values>();
  const [saving, setSaving] = useState(false);
  const create = useApiMutation(billingUsageRoutes.platformModelCreate);
  const update = useApiMutation(billingUsageRoutes.platformModelUpdate);

  const fieldRule = (field: KeyFieldName) => ({
    validator: (_rule: unknown, value: string | undefined) => {
      if (field === 'api_key' && editing && !value?.trim()) return Promise.resolve();
      const problem = keyFieldError(field, value, locale);
      return problem ? Promise.reject(new Error(problem)) : Promise.resolve();
    },
  });
  const priceRule = {
    validator: (_rule: unknown, value: string | undefined) =>
      priceOf(value) === null ? Promise.reject(new Error(ERRORS.PRICE_INVALID.msg[locale])) : Promise.resolve(),
  };

  const submit = async () => {
    const values = await form.validateFields();
    const body = {
      model_name: values.model_name.trim(),
      version: values.version.trim(),
      base_url: values.base_url.trim(),
      input_price: priceOf(values.input_price) ?? 0,
      output_price: priceOf(values.output_price) ?? 0,
      enabled: values.enabled,
    };
    const apiKey = values.api_key?.trim() ?? '';
    setSaving(true);
    try {
      if (editing) await update.mutateAsync({ id: editing.id, ...body, ...(apiKey ? { api_key: apiKey } : {}) });
      else await create.mutateAsync({ ...body, api_key: apiKey });
      void message.success(t(editing ? 'billing.operator.models.updated' : 'billing.operator.models.created'));
      await refreshPlatformModels(props.spaceId);
      props.onClose();
    } catch {
      // The failure's notice is already showing.
    } finally {
      setSaving(false);
    }
  };

  const initial: Partial<Values> = editing
    ? {
        model_name: editing.model_name,
        version: editing.version,
        base_url: editing.base_url ?? '',
        api_key: '',
        input_price: millifenToYuanText(editing.input_price),
        output_price: millifenToYuanText(editing.output_price),
        enabled: editing.enabled,
      }
    : { enabled: true };

  return (
    <Modal
      open={props.open}
      title={t(editing ? 'billing.operator.models.editTitle' : 'billing.operator.models.addTitle')}
      onCancel={props.onClose}
      onOk={() => void submit()}
      okText={t('billing.operator.models.save')}
      okButtonProps={{ 'data-testid': 'platform-model-save' }}
      confirmLoading={saving}
      destroyOnHidden
      width={600}
    >
      <Form
        form={form}
        layout="vertical"
        initialValues={initial}
        requiredMark={false}
        data-testid="platform-model-form"
      >
        <Row gutter={16}>
          <Col xs={24} sm={12}>
            <Form.Item name="model_name" label={t('billing.operator.models.name')} rules={[fieldRule('model_name')]}>
              <Input maxLength={KEY_FIELD_MAX.model_name} data-testid="platform-model-name" />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item name="version" label={t('billing.operator.models.version')} rules={[fieldRule('version')]}>
              <Input maxLength={KEY_FIELD_MAX.version} data-testid="platform-model-version" />
            </Form.Item>
          </Col>
        </Row>
        <Form.Item name="base_url" label={t('billing.operator.models.baseUrl')} rules={[fieldRule('base_url')]}>
          <Input maxLength={KEY_FIELD_MAX.base_url} placeholder="https://" data-testid="platform-model-base-url" />
        </Form.Item>
        <Form.Item
          name="api_key"
          label={t('billing.operator.models.apiKey')}
          extra={editing ? t('billing.operator.models.keepKey', { masked: editing.api_key_masked ?? '' }) : undefined}
          rules={[fieldRule('api_key')]}
        >
          <Input.Password
            maxLength={KEY_FIELD_MAX.api_key}
            autoComplete="new-password"
            data-testid="platform-model-key"
          />
        </Form.Item>
        <Row gutter={16}>
          {(['input', 'output'] as const).map((side) => (
            <Col xs={24} sm={12} key={side}>
              <Form.Item
                name={`${side}_price`}
                label={t(
                  side === 'input' ? 'billing.operator.models.inputPrice' : 'billing.operator.models.outputPrice',
                )}
                rules={[priceRule]}
              >
                <Input
                  prefix="¥"
                  suffix={t('billing.operator.models.per1k')}
                  inputMode="decimal"
                  data-testid={`platform-model-${side}-price`}
                />
              </Form.Item>
            </Col>
          ))}
        </Row>
        <Form.Item name="enabled" label={t('billing.operator.models.enabled')} valuePropName="checked">
          <Switch data-testid="platform-model-enabled" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
