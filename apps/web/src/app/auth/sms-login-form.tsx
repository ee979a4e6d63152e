import { authRoutes } from '@athena/contract';
import { Alert, Button, Form } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, errorText } from '../../lib/api-client.ts';
import { currentLocale } from '../../lib/i18n.ts';
import { PhoneCodeFields, type PhoneCodeValues } from '../../shared/ui/phone-code-fields.tsx';

interface Props {
  /** The sign-in call a form submits; by default by_sms. */
  submit?: (values: PhoneCodeValues) => Promise<{ login_token: string }>;
  submitLabel?: string;
  onSignedIn: (token: string) => void;
  /** Extra text under the fields (e.g. the dev-provider hint). */
  hint?: React.ReactNode;
}

const bySms = (values: PhoneCodeValues) =>
  api(authRoutes.bySms, { phone: values.phone.trim(), code: values.code.trim() });

/** Phone + SMS code sign-in (also reused, with another `submit`, to bind a phone). */
export function SmsLoginForm({ submit = bySms, submitLabel, onSignedIn, hint }: Props) {
  const { t } = useTranslation();
  const [form] = Form.useForm<PhoneCodeValues>();
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  const onFinish = async (values: PhoneCodeValues) => {
    setError(null);
    setSubmitting(true);
    try {
      const result = await submit(values);
      onSignedIn(result.login_token);
    } catch (caught) {
      setError(errorText(caught, currentLocale()));
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <Form form={form} layout="vertical" requiredMark={false} onFinish={onFinish} data-testid="sms-form">
      <PhoneCodeFields
        form={form}
        onError={(message) => {
          setError(message);
          if (message) setNotice(null);
        }}
        onCodeSent={() => setNotice(t('login.codeSent'))}
      />
      {error ? (
        <Alert data-testid="login-error" type="error" showIcon title={error} style={{ marginBottom: 16 }} />
      ) : notice ? (
        <Alert data-testid="login-notice" type="success" showIcon title={notice} style={{ marginBottom: 16 }} />
      ) : null}
      <Button data-testid="login-submit" type="primary" htmlType="submit" size="large" block loading={submitting}>
        {submitLabel ?? t('login.submit')}
      </Button>
      {hint}
    </Form>
  );
}
