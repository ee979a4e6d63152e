import { accountRoutes } from '@athena/contract';
import { Alert, App, Button, Form, Modal } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, errorText } from '../../lib/api-client.ts';
import { currentLocale } from '../../lib/i18n.ts';
import { patchUserInfo } from '../../lib/session.ts';
import { PhoneCodeFields, type PhoneCodeValues } from '../../shared/ui/phone-code-fields.tsx';

interface Props {
  open: boolean;
  /** The account has a phone already (change) or not yet (add). */
  hasPhone: boolean;
  onClose: () => void;
}

/** New phone + a code sent to it (send_sms type change_phone, same 15 s cooldown as sign-in). */
export function ChangePhoneModal({ open, hasPhone, onClose }: Props) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<PhoneCodeValues>();
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const submit = async () => {
    let values: PhoneCodeValues;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    setError(null);
    setSaving(true);
    try {
      const result = await api(accountRoutes.changePhone, { phone: values.phone.trim(), code: values.code.trim() });
      patchUserInfo({ phone_masked: result.phone_masked });
      void message.success(t('account.phoneChanged', { phone: result.phone_masked }));
      onClose();
    } catch (caught) {
      setError(errorText(caught, currentLocale()));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={open}
      title={hasPhone ? t('account.changePhoneTitle') : t('account.addPhoneTitle')}
      onCancel={onClose}
      footer={[
        <Button key="cancel" onClick={onClose}>
          {t('account.cancel')}
        </Button>,
        <Button
          key="ok"
          type="primary"
          data-testid="change-phone-submit"
          loading={saving}
          onClick={() => void submit()}
        >
          {t('account.confirmPhone')}
        </Button>,
      ]}
      destroyOnHidden
      afterClose={() => {
        form.resetFields();
        setError(null);
        setNotice(null);
      }}
      width={440}
    >
      <div data-testid="change-phone-modal">
        <p style={{ marginTop: 0 }}>{t('account.changePhoneHint')}</p>
        <Form form={form} layout="vertical" requiredMark={false} onFinish={() => void submit()}>
          <PhoneCodeFields
            form={form}
            smsType="change_phone"
            phoneLabel={t('account.newPhone')}
            onError={(text) => {
              setError(text);
              if (text) setNotice(null);
            }}
            onCodeSent={() => setNotice(t('login.codeSent'))}
          />
          {/* Enter in a field submits. */}
          <button type="submit" hidden aria-hidden tabIndex={-1} />
        </Form>
        {error ? (
          <Alert data-testid="change-phone-error" type="error" showIcon title={error} />
        ) : notice ? (
          <Alert type="success" showIcon title={notice} />
        ) : null}
      </div>
    </Modal>
  );
}
