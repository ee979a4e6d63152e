import {
  ERRORS,
  PROFILE_FIELD_TYPES,
  PROFILE_LIMITS,
  type ProfileField,
  type ProfileFieldType,
  profileRoutes,
} from '@athena/contract';
import { Alert, Form, Input, Modal, Radio, Select, Switch, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../lib/api-client.ts';
import { errorNotice } from '../../lib/error-notice.ts';
import { currentLocale } from '../../lib/i18n.ts';
import { useApiMutation } from '../../shared/hooks/use-api-mutation.ts';
import { refreshProfiles } from './profile-queries.ts';
import { cleanOptions, optionsValid } from './profile-values.ts';

interface Values {
  name: string;
  type: ProfileFieldType;
  options: string[];
  description: string;
  required: boolean;
  ai_extract: boolean;
  ai_overwrite: boolean;
}

interface Props {
  /** The field to edit, or null for a new one. */
  field: ProfileField | null;
  spaceId: string | null;
  sceneId: number;
  onClose: () => void;
}

/**
 * Define or change a field. The name is checked here with the server's own words; whether it is
 * unique only the server knows, so its refusal shows under the name too. The type is chosen once.
 */
export function FieldModal({ field, spaceId, sceneId, onClose }: Props) {
  const { t } = useTranslation();
  const language = currentLocale();
  const [form] = Form.useForm<Values>();
  const [error, setError] = useState<string | null>(null);
  const create = useApiMutation(profileRoutes.fieldCreate, { meta: { errorNotice: false } });
  const update = useApiMutation(profileRoutes.fieldUpdate, { meta: { errorNotice: false } });
  const type = Form.useWatch('type', form) ?? field?.type ?? 'text';
  const aiExtract = Form.useWatch('ai_extract', form) ?? field?.ai_extract ?? false;

  const submit = async (values: Values) => {
    setError(null);
    const body = {
      name: values.name.trim(),
      type: values.type,
      options: values.type === 'select' ? cleanOptions(values.options) : [],
      description: (values.description ?? '').trim(),
      required: values.required,
      ai_extract: values.ai_extract,
      ai_overwrite: values.ai_extract && values.ai_overwrite,
    };
    try {
      if (field) await update.mutateAsync({ id: field.id, ...body });
      else await create.mutateAsync(body);
      await refreshProfiles(spaceId, sceneId);
      onClose();
    } catch (caught) {
      const text = errorNotice(caught);
      const code = caught instanceof ApiError ? caught.code : undefined;
      const nameCodes: unknown[] = [
        ERRORS.PROFILE_FIELD_NAME_TAKEN.code,
        ERRORS.PROFILE_FIELD_NAME_REQUIRED.code,
        ERRORS.PROFILE_FIELD_NAME_TOO_LONG.code,
      ];
      if (text && nameCodes.includes(code)) form.setFields([{ name: 'name', errors: [text] }]);
      else if (text && code === ERRORS.PROFILE_FIELD_OPTIONS_INVALID.code)
        form.setFields([{ name: 'options', errors: [text] }]);
      else setError(text);
    }
  };

  return (
    <Modal
      open
      title={field ? t('userProfile.fields.editTitle') : t('userProfile.fields.createTitle')}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={t('userProfile.fields.save')}
      cancelText={t('userProfile.value.cancel')}
      confirmLoading={create.isPending || update.isPending}
      okButtonProps={{ 'data-testid': 'profile-field-save' }}
      destroyOnHidden
      width={560}
      data-testid="profile-field-modal"
    >
      <Form<Values>
        form={form}
        layout="vertical"
        requiredMark
        onFinish={(values) => void submit(values)}
        onValuesChange={() => setError(null)}
        initialValues={{
          name: field?.name ?? '',
          type: field?.type ?? 'text',
          options: field?.options ?? [],
          description: field?.description ?? '',
          required: field?.required ?? false,
          ai_extract: field?.ai_extract ?? false,
          ai_overwrite: field?.ai_overwrite ?? false,
        }}
        style={{ marginTop: 16 }}
      >
        <Form.Item
          name="name"
          label={t('userProfile.fields.name')}
          rules={[
            { required: true, whitespace: true, message: ERRORS.PROFILE_FIELD_NAME_REQUIRED.msg[language] },
            { max: PROFILE_LIMITS.fieldName, message: ERRORS.PROFILE_FIELD_NAME_TOO_LONG.msg[language] },
          ]}
        >
          <Input autoFocus maxLength={PROFILE_LIMITS.fieldName + 10} data-testid="profile-field-name" />
        </Form.Item>
        <Form.Item
          name="type"
          label={t('userProfile.fields.type')}
          extra={field ? t('userProfile.fields.typeFixed') : t('userProfile.fields.typeOnce')}
        >
          <Radio.Group
            disabled={field !== null}
            optionType="button"
            options={PROFILE_FIELD_TYPES.map((value) => ({ value, label: t(`userProfile.type.${value}`) }))}
            data-testid="profile-field-type"
          />
        </Form.Item>
        {type === 'select' ? (
          <Form.Item
            name="options"
            label={t('userProfile.fields.options')}
            extra={t('userProfile.fields.optionsHint')}
            required
            rules={[
              {
                validator: (_, value: string[] | undefined) =>
                  optionsValid(cleanOptions(value ?? []))
                    ? Promise.resolve()
                    : Promise.reject(new Error(ERRORS.PROFILE_FIELD_OPTIONS_INVALID.msg[language])),
              },
            ]}
          >
            <Select
              mode="tags"
              open={false}
              tokenSeparators={[',', '，', '\n']}
              suffixIcon={null}
              placeholder={t('userProfile.fields.optionsPlaceholder')}
              data-testid="profile-field-options"
            />
          </Form.Item>
        ) : null}
        <Form.Item
          name="description"
          label={t('userProfile.fields.description')}
          rules={[
            { max: PROFILE_LIMITS.fieldDescription, message: ERRORS.PROFILE_FIELD_DESCRIPTION_TOO_LONG.msg[language] },
          ]}
        >
          <Input.TextArea
            autoSize={{ minRows: 2, maxRows: 4 }}
            maxLength={PROFILE_LIMITS.fieldDescription}
            showCount
            placeholder={t('userProfile.fields.descriptionPlaceholder')}
          />
        </Form.Item>
        <SwitchItem
          name="required"
          label={t('userProfile.fields.required')}
          hint={t('userProfile.fields.requiredHint')}
        />
        <SwitchItem
          name="ai_extract"
          label={t('userProfile.fields.aiExtract')}
          hint={t('userProfile.fields.aiExtractHint')}
        />
        <SwitchItem
          name="ai_overwrite"
          label={t('userProfile.fields.aiOverwrite')}
          hint={t('userProfile.fields.aiOverwriteHint')}
          disabled={!aiExtract}
        />
        <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="profile-field-ai-note">
          {t('userProfile.fields.aiHow')}
        </Typography.Text>
        {error ? <Alert type="error" showIcon title={error} style={{ marginTop: 12 }} /> : null}
      </Form>
    </Modal>
  );
}

function SwitchItem({
  name,
  label,
  hint,
  disabled,
}: {
  name: keyof Values;
  label: string;
  hint: string;
  disabled?: boolean;
}) {
  return (
    <Form.Item label={null} style={{ marginBottom: 12 }}>
      <div style={{ display: 'flex', gap: 12, alignItems: 'flex-start' }}>
        <Form.Item name={name} valuePropName="checked" noStyle>
          <Switch size="small" disabled={disabled} style={{ marginTop: 3 }} data-testid={`profile-field-${name}`} />
        </Form.Item>
        <div>
          <Typography.Text disabled={disabled}>{label}</Typography.Text>
          <Typography.Text type="secondary" style={{ display: 'block', fontSize: 12 }}>
            {hint}
          </Typography.Text>
        </div>
      </div>
    </Form.Item>
  );
}
