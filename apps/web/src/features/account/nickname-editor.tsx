import { EditOutlined } from '@ant-design/icons';
import { accountRoutes, ERRORS, NICKNAME_MAX_LENGTH } from '@athena/contract';
import { App, Button, Flex, Form, Input, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, errorText } from '../../lib/api-client.ts';
import { currentLocale } from '../../lib/i18n.ts';
import { patchUserInfo } from '../../lib/session.ts';
import { useUserStore } from '../../stores/user-store.ts';

/** The nickname, shown with an edit button; editing checks the contract's rules (required, ≤ 30). */
export function NicknameEditor() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const nickname = useUserStore((s) => s.userinfo?.nickname ?? '');
  const [editing, setEditing] = useState(false);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [form] = Form.useForm<{ nickname: string }>();
  const locale = currentLocale();

  if (!editing) {
    return (
      <Flex align="center" gap={8} wrap>
        <Typography.Title level={4} style={{ margin: 0 }} data-testid="account-nickname">
          {nickname}
        </Typography.Title>
        <Button
          data-testid="nickname-edit"
          type="text"
          size="small"
          icon={<EditOutlined />}
          aria-label={t('account.editNickname')}
          onClick={() => {
            form.setFieldsValue({ nickname });
            setError(null);
            setEditing(true);
          }}
        >
          {t('account.edit')}
        </Button>
      </Flex>
    );
  }

  const onFinish = async ({ nickname: value }: { nickname: string }) => {
    setSaving(true);
    setError(null);
    try {
      const trimmed = value.trim();
      await api(accountRoutes.update, { nickname: trimmed });
      patchUserInfo({ nickname: trimmed });
      setEditing(false);
      void message.success(t('account.nicknameSaved'));
    } catch (caught) {
      setError(errorText(caught, currentLocale()));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Form form={form} onFinish={onFinish} data-testid="nickname-form" style={{ maxWidth: 420 }}>
      <Space.Compact block>
        <Form.Item
          name="nickname"
          noStyle
          rules={[
            { required: true, whitespace: true, message: ERRORS.NICKNAME_REQUIRED.msg[locale] },
            {
              // Same count as the server (zod .max on the trimmed string): UTF-16 units.
              validator: (_, value: string | undefined) =>
                (value ?? '').trim().length > NICKNAME_MAX_LENGTH
                  ? Promise.reject(new Error(ERRORS.NICKNAME_TOO_LONG.msg[locale]))
                  : Promise.resolve(),
            },
          ]}
        >
          <Input
            data-testid="nickname-input"
            autoFocus
            placeholder={t('account.nicknamePlaceholder')}
            count={{ show: true, max: NICKNAME_MAX_LENGTH }}
            onKeyDown={(event) => {
              if (event.key === 'Escape') setEditing(false);
            }}
          />
        </Form.Item>
        <Button data-testid="nickname-save" type="primary" htmlType="submit" loading={saving}>
          {t('account.save')}
        </Button>
        <Button data-testid="nickname-cancel" onClick={() => setEditing(false)} disabled={saving}>
          {t('account.cancel')}
        </Button>
      </Space.Compact>
      {/* Field errors render here, below the compact group. */}
      <Form.Item shouldUpdate noStyle>
        {() => {
          const fieldError = form.getFieldError('nickname')[0];
          const shown = fieldError ?? error;
          return shown ? (
            <Typography.Text type="danger" data-testid="nickname-error" style={{ display: 'block', marginTop: 6 }}>
              {shown}
            </Typography.Text>
          ) : null;
        }}
      </Form.Item>
    </Form>
  );
}
