import {
  authRoutes,
  CODE_MAX_LENGTH,
  ERRORS,
  PHONE_MAX_LENGTH,
  PHONE_PATTERN,
  SMS_COOLDOWN_SECONDS,
} from '@athena/contract';
import { Button, Form, type FormInstance, Space, theme } from 'antd';
// The bare Input, not antd's `Input` namespace (which drags TextArea, OTP, Search into /login).
import Input from 'antd/es/input/Input';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, api, errorText } from '../../lib/api-client.ts';
import { currentLocale } from '../../lib/i18n.ts';
import { useCountdown } from '../hooks/use-countdown.ts';
import { waitTime } from './wait-time.ts';

export interface PhoneCodeValues {
  phone: string;
  code: string;
}

interface Props {
  form: FormInstance<PhoneCodeValues>;
  /** Reports a send-code failure (or clears it with null). */
  onError: (message: string | null) => void;
  onCodeSent: () => void;
  /** What the code is for (send_sms `type`); 'change_phone' on the account page. */
  smsType?: 'login' | 'change_phone';
  /** Label of the phone field (e.g. "New phone number"); defaults to the login wording. */
  phoneLabel?: string;
}

const digitsOnly = (event: React.ChangeEvent<HTMLInputElement>) => event.target.value.replace(/\D/g, '');

/**
 * Phone + code inputs with the send-code button and its 15-second cooldown (requirements.md, States
 * and Validation), or the longer wait the server names for a number that got many codes.
 */
export function PhoneCodeFields({ form, onError, onCodeSent, smsType = 'login', phoneLabel }: Props) {
  const { t } = useTranslation();
  const locale = currentLocale();
  const phone = Form.useWatch('phone', form);
  const { remaining, start } = useCountdown();
  const [sending, setSending] = useState(false);
  const codeInput = useRef<React.ComponentRef<typeof Input>>(null);
  // Token colours keep the +86 prefix readable in the dark theme too.
  const { token: design } = theme.useToken();

  const sendCode = async () => {
    onError(null);
    try {
      await form.validateFields(['phone']);
    } catch {
      return;
    }
    setSending(true);
    try {
      const result = await api(authRoutes.sendSms, { phone: form.getFieldValue('phone'), type: smsType });
      start(result.cooldown_seconds || SMS_COOLDOWN_SECONDS);
      onCodeSent();
      // An earlier "please enter the code" is stale now that a code is on its way.
      form.setFields([{ name: 'code', errors: [] }]);
      codeInput.current?.focus();
    } catch (error) {
      // The server says how long this number must wait (the resend interval, or longer after many
      // codes): the button counts that down as it does after a send.
      if (error instanceof ApiError && error.retryAfter) start(error.retryAfter);
      onError(errorText(error, locale));
    } finally {
      setSending(false);
    }
  };

  return (
    <>
      <Form.Item
        name="phone"
        label={phoneLabel ?? t('login.phone')}
        getValueFromEvent={digitsOnly}
        rules={[
          { required: true, whitespace: true, message: ERRORS.PHONE_REQUIRED.msg[locale] },
          { pattern: PHONE_PATTERN, message: ERRORS.PHONE_INVALID.msg[locale] },
        ]}
        validateTrigger="onBlur"
      >
        <Input
          data-testid="phone-input"
          size="large"
          prefix={
            <span
              className="athena-phone-prefix"
              style={{ color: design.colorTextTertiary, borderInlineEndColor: design.colorBorderSecondary }}
            >
              +86
            </span>
          }
          placeholder={t('login.phonePlaceholder')}
          autoFocus
          maxLength={PHONE_MAX_LENGTH}
          inputMode="numeric"
          autoComplete="tel-national"
          allowClear
        />
      </Form.Item>
      <Form.Item label={t('login.code')} required>
        <Space.Compact block>
          <Form.Item
            name="code"
            noStyle
            rules={[{ required: true, whitespace: true, message: ERRORS.CODE_REQUIRED.msg[locale] }]}
            validateTrigger="onBlur"
          >
            <Input
              ref={codeInput}
              data-testid="code-input"
              size="large"
              placeholder={t('login.codePlaceholder')}
              maxLength={CODE_MAX_LENGTH}
              inputMode="numeric"
              autoComplete="one-time-code"
            />
          </Form.Item>
          <Button
            data-testid="send-code-button"
            size="large"
            style={{ minWidth: 136 }}
            disabled={!phone || remaining > 0}
            loading={sending}
            onClick={sendCode}
          >
            {remaining >= 60
              ? t('login.resendInTime', { time: waitTime(remaining) })
              : remaining > 0
                ? t('login.resendIn', { seconds: remaining })
                : t('login.sendCode')}
          </Button>
        </Space.Compact>
      </Form.Item>
    </>
  );
}
