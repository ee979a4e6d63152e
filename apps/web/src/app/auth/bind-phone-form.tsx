import { authRoutes, ERRORS } from '@athena/contract';
import { Alert, Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { ApiError, api } from '../../lib/api-client.ts';
import type { PhoneCodeValues } from '../../shared/ui/phone-code-fields.tsx';
import { SmsLoginForm } from './sms-login-form.tsx';

interface Props {
  loginToken: string;
  onSignedIn: (token: string) => void;
  /** Back to the QR; `reason` is set when the binding session has expired. */
  onRestart: (reason?: string) => void;
}

/** After a WeChat login with no phone on the account, bind one (same fields, same cooldown). */
export function BindPhoneForm({ loginToken, onSignedIn, onRestart }: Props) {
  const { t } = useTranslation();

  const submit = async (values: PhoneCodeValues) => {
    try {
      return await api(authRoutes.bindPhone, {
        phone: values.phone.trim(),
        code: values.code.trim(),
        login_token: loginToken,
      });
    } catch (error) {
      if (error instanceof ApiError && error.code === ERRORS.BIND_TOKEN_INVALID.code) onRestart(error.message);
      throw error;
    }
  };

  return (
    <div data-testid="bind-phone-form">
      <Alert type="info" showIcon title={t('login.bindHint')} style={{ marginBottom: 16 }} />
      <SmsLoginForm submit={submit} submitLabel={t('login.bindSubmit')} onSignedIn={onSignedIn} />
      <Button data-testid="bind-phone-back" type="link" block onClick={() => onRestart()} style={{ marginTop: 8 }}>
        {t('login.backToWechat')}
      </Button>
    </div>
  );
}
