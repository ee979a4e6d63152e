import { LinkOutlined, ThunderboltOutlined } from '@ant-design/icons';
import { chatHistoryRoutes, ERRORS, type WecomAccount } from '@athena/contract';
import { Alert, Button, Flex, Form, Input, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, errorText } from '../../lib/api-client.ts';
import { currentLocale } from '../../lib/i18n.ts';
import { useApiMutation } from '../../shared/hooks/use-api-mutation.ts';
import { newCallbackToken, newEncodingAesKey } from './random-text.ts';

export interface WecomConnectValues {
  corpid: string;
  secret: string;
  callback_token: string;
  encoding_aes_key: string;
}

interface Props {
  /** The connected corp id when the credentials are being changed. */
  corpId: string | null;
  onConnected: (account: WecomAccount, values: WecomConnectValues) => void;
  /** Changing the credentials can be given up; a first connection has nothing to go back to. */
  onCancel?: () => void;
}

// The server's answer about one field goes under that field; the rest above the button.
const FIELD_OF_CODE = new Map<number | string, keyof WecomConnectValues>([
  [ERRORS.CHAT_WECOM_CORP_ID_INVALID.code, 'corpid'],
  [ERRORS.CHAT_WECOM_SECRET_INVALID.code, 'secret'],
  [ERRORS.CHAT_WECOM_TOKEN_INVALID.code, 'callback_token'],
  [ERRORS.CHAT_WECOM_AES_KEY_INVALID.code, 'encoding_aes_key'],
]);

const mono = { fontFamily: 'monospace' } as const;

/**
 * The credentials of a WeCom customer-service account, labelled as WeCom's console labels them.
 * The callback Token and EncodingAESKey are made up by the admin (here, with "generate") and pasted
 * into WeCom together with the callback URL shown once connected.
 */
export function WecomConnectForm({ corpId, onConnected, onCancel }: Props) {
  const { t } = useTranslation();
  const [form] = Form.useForm<WecomConnectValues>();
  const connect = useApiMutation(chatHistoryRoutes.wecomConnect, { meta: { errorNotice: false } });
  const [error, setError] = useState<string | null>(null);

  const submit = async (values: WecomConnectValues) => {
    setError(null);
    try {
      onConnected(await connect.mutateAsync(values), values);
    } catch (failure) {
      const message = errorText(failure, currentLocale());
      const field = failure instanceof ApiError && failure.code !== undefined ? FIELD_OF_CODE.get(failure.code) : null;
      if (field) form.setFields([{ name: field, errors: [message] }]);
      else setError(message);
    }
  };
  const generate = () => {
    form.setFieldsValue({ callback_token: newCallbackToken(), encoding_aes_key: newEncodingAesKey() });
    void form.validateFields(['callback_token', 'encoding_aes_key']);
  };
  const required = { required: true, message: t('chatHistory.wecom.required') };

  return (
    <Form
      form={form}
      layout="vertical"
      requiredMark={false}
      initialValues={{ corpid: corpId ?? '', secret: '', callback_token: '', encoding_aes_key: '' }}
      onFinish={submit}
      onValuesChange={() => setError(null)}
      data-testid="chat-wecom-form"
    >
      <Form.Item
        name="corpid"
        label={t('chatHistory.wecom.corpId')}
        extra={t('chatHistory.wecom.corpIdHelp')}
        rules={[
          required,
          { pattern: /^[A-Za-z0-9]{6,64}$/, message: ERRORS.CHAT_WECOM_CORP_ID_INVALID.msg[currentLocale()] },
        ]}
      >
        <Input autoComplete="off" style={mono} placeholder="ww…" data-testid="chat-wecom-corpid" />
      </Form.Item>
      <Form.Item
        name="secret"
        label="Secret"
        extra={t('chatHistory.wecom.secretHelp')}
        rules={[
          required,
          { pattern: /^[\x21-\x7e]{8,128}$/, message: ERRORS.CHAT_WECOM_SECRET_INVALID.msg[currentLocale()] },
        ]}
      >
        <Input.Password autoComplete="new-password" style={mono} data-testid="chat-wecom-secret" />
      </Form.Item>
      <Flex justify="space-between" align="center" gap={8} wrap style={{ marginBottom: 8 }}>
        <Typography.Text type="secondary" style={{ flex: 1, minWidth: 200 }}>
          {t('chatHistory.wecom.callbackHelp')}
        </Typography.Text>
        <Button size="small" icon={<ThunderboltOutlined />} onClick={generate} data-testid="chat-wecom-generate">
          {t('chatHistory.wecom.generate')}
        </Button>
      </Flex>
      <Form.Item
        name="callback_token"
        label="Token"
        rules={[
          required,
          { pattern: /^[A-Za-z0-9]{1,32}$/, message: ERRORS.CHAT_WECOM_TOKEN_INVALID.msg[currentLocale()] },
        ]}
      >
        <Input autoComplete="off" maxLength={32} showCount style={mono} data-testid="chat-wecom-token" />
      </Form.Item>
      <Form.Item
        name="encoding_aes_key"
        label="EncodingAESKey"
        rules={[
          required,
          { pattern: /^[A-Za-z0-9+/]{43}$/, message: ERRORS.CHAT_WECOM_AES_KEY_INVALID.msg[currentLocale()] },
        ]}
      >
        <Input autoComplete="off" maxLength={43} showCount style={mono} data-testid="chat-wecom-aes-key" />
      </Form.Item>
      {error ? (
        <Alert type="error" showIcon title={error} style={{ marginBottom: 16 }} data-testid="chat-wecom-error" />
      ) : null}
      <Flex gap={8}>
        <Button
          type="primary"
          htmlType="submit"
          icon={<LinkOutlined />}
          loading={connect.isPending}
          data-testid="chat-wecom-connect"
        >
          {t('chatHistory.wecom.connect')}
        </Button>
        {onCancel ? <Button onClick={onCancel}>{t('chatHistory.wecom.cancel')}</Button> : null}
      </Flex>
    </Form>
  );
}
