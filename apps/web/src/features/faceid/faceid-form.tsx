import { IdcardOutlined, UserOutlined } from '@ant-design/icons';
import { accountRoutes, ERRORS, isValidIdNumber } from '@athena/contract';
import { Alert, Button, Form, Input } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, errorText } from '../../lib/api-client.ts';
import { currentLocale } from '../../lib/i18n.ts';

interface Values {
  name: string;
  id_number: string;
}

interface Props {
  /** The check has started; `verifyUrl` is where the face check happens. */
  onStarted: (verifyUrl: string) => void;
}

/** Legal name + 18-character ID number (checksum checked here too), then start the face check. */
export function FaceidForm({ onStarted }: Props) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const locale = currentLocale();

  const onFinish = async (values: Values) => {
    setError(null);
    setSubmitting(true);
    try {
      const result = await api(accountRoutes.realNameStart, {
        name: values.name.trim(),
        id_number: values.id_number.trim().toUpperCase(),
      });
      onStarted(result.verify_url);
    } catch (caught) {
      setError(errorText(caught, currentLocale()));
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <Form
      form={form}
      layout="vertical"
      requiredMark={false}
      onFinish={onFinish}
      data-testid="faceid-form"
      style={{ maxWidth: 440 }}
    >
      <Form.Item
        name="name"
        label={t('faceid.name')}
        rules={[{ required: true, whitespace: true, message: ERRORS.REAL_NAME_REQUIRED.msg[locale] }]}
      >
        <Input
          data-testid="faceid-name"
          prefix={<UserOutlined />}
          placeholder={t('faceid.namePlaceholder')}
          maxLength={50}
          autoComplete="name"
        />
      </Form.Item>
      <Form.Item
        name="id_number"
        label={t('faceid.idNumber')}
        normalize={(value: string) => value.replace(/\s/g, '').toUpperCase()}
        validateTrigger="onBlur"
        rules={[
          {
            validator: (_, value: string | undefined) =>
              value && isValidIdNumber(value)
                ? Promise.resolve()
                : Promise.reject(new Error(ERRORS.ID_NUMBER_INVALID.msg[locale])),
          },
        ]}
      >
        <Input
          data-testid="faceid-id-number"
          prefix={<IdcardOutlined />}
          placeholder={t('faceid.idNumberPlaceholder')}
          maxLength={18}
          autoComplete="off"
          spellCheck={false}
        />
      </Form.Item>
      {error ? (
        <Alert data-testid="faceid-error" type="error" showIcon title={error} style={{ marginBottom: 16 }} />
      ) : null}
      <Button data-testid="faceid-submit" type="primary" htmlType="submit" loading={submitting}>
        {t('faceid.submit')}
      </Button>
    </Form>
  );
}
