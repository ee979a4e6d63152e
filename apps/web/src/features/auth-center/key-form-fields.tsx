import { InfoCircleOutlined } from '@ant-design/icons';
import { MODEL_PURPOSES, type ModelKey, type ModelPurpose } from '@athena/contract';
import { Col, Form, Input, Row, Segmented, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { currentLocale } from '../../lib/i18n.ts';
import { KEY_FIELD_MAX, type KeyFieldName, keyFieldError, looksPrivate } from './key-fields.ts';
import { PresetButtons } from './preset-buttons.tsx';
import { type ProviderPreset, presetByUrl, versionHint } from './presets.ts';

interface Props {
  /** The key being edited; null when adding. */
  editing: ModelKey | null;
  purpose: ModelPurpose;
  baseUrl: string;
  onPickPreset: (preset: ProviderPreset) => void;
  /** The server lets keys call private and local addresses: no warning for one. */
  privateAddressesAllowed: boolean;
}

/**
 * The key form's fields, each checked by the contract's rule with its localised message. Hints
 * follow the address: a provider's address, picked or typed, suggests its model name and version.
 */
export function KeyFormFields({ editing, purpose, baseUrl, onPickPreset, privateAddressesAllowed }: Props) {
  const { t } = useTranslation();
  const locale = currentLocale();
  const preset = presetByUrl(baseUrl);

  const rule = (field: KeyFieldName) => ({
    validator: (_rule: unknown, value: string | undefined) => {
      // Editing: an empty key keeps the stored one.
      if (field === 'api_key' && editing && !value?.trim()) return Promise.resolve();
      const problem = keyFieldError(field, value, locale);
      return problem ? Promise.reject(new Error(problem)) : Promise.resolve();
    },
  });

  const placeholderName = preset
    ? t('authCenter.form.example', { value: t(`authCenter.presets.${preset.id}`) })
    : t('authCenter.form.modelNamePlaceholder');
  const placeholderVersion = preset
    ? t('authCenter.form.example', { value: versionHint(preset, purpose) })
    : t('authCenter.form.versionPlaceholder');

  return (
    <>
      <Form.Item name="purpose" label={t('authCenter.form.purpose')} extra={t(`authCenter.purposeHelp.${purpose}`)}>
        <Segmented<ModelPurpose>
          data-testid="key-form-purpose"
          options={MODEL_PURPOSES.map((value) => ({
            value,
            label: <span data-testid={`key-form-purpose-${value}`}>{t(`authCenter.purpose.${value}`)}</span>,
          }))}
        />
      </Form.Item>
      {editing ? null : (
        <Form.Item label={t('authCenter.form.presets')} extra={t('authCenter.form.presetsHelp')}>
          <PresetButtons onPick={onPickPreset} selected={preset?.id} testIdPrefix="key-form-preset" />
        </Form.Item>
      )}
      <Row gutter={16}>
        <Col xs={24} sm={12}>
          <Form.Item
            name="model_name"
            label={t('authCenter.form.modelName')}
            tooltip={t('authCenter.form.modelNameHelp')}
            rules={[rule('model_name')]}
          >
            <Input
              data-testid="key-form-model-name"
              placeholder={placeholderName}
              maxLength={KEY_FIELD_MAX.model_name}
              autoComplete="off"
            />
          </Form.Item>
        </Col>
        <Col xs={24} sm={12}>
          <Form.Item
            name="version"
            label={t('authCenter.form.version')}
            tooltip={t('authCenter.form.versionHelp')}
            rules={[rule('version')]}
          >
            <Input
              data-testid="key-form-version"
              placeholder={placeholderVersion}
              maxLength={KEY_FIELD_MAX.version}
              autoComplete="off"
              spellCheck={false}
            />
          </Form.Item>
        </Col>
      </Row>
      <Form.Item
        name="base_url"
        label={t('authCenter.form.baseUrl')}
        extra={
          looksPrivate(baseUrl) && !privateAddressesAllowed ? (
            <Typography.Text type="warning" data-testid="key-form-local-note">
              <InfoCircleOutlined /> {t('authCenter.form.localNote')}
            </Typography.Text>
          ) : (
            t('authCenter.form.baseUrlHelp')
          )
        }
        rules={[rule('base_url')]}
      >
        <Input
          data-testid="key-form-base-url"
          placeholder="https://…/v1"
          maxLength={KEY_FIELD_MAX.base_url}
          autoComplete="off"
          spellCheck={false}
        />
      </Form.Item>
      <Form.Item
        name="api_key"
        label={t('authCenter.form.apiKey')}
        extra={editing ? t('authCenter.form.apiKeyKeepHelp') : t('authCenter.form.apiKeyHelp')}
        rules={[rule('api_key')]}
      >
        <Input.Password
          data-testid="key-form-api-key"
          placeholder={editing ? t('authCenter.form.apiKeyKeep', { masked: editing.api_key_masked }) : 'sk-…'}
          maxLength={KEY_FIELD_MAX.api_key}
          autoComplete="new-password"
          spellCheck={false}
        />
      </Form.Item>
    </>
  );
}
