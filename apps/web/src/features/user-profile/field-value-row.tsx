import { CheckOutlined, CloseOutlined, EditOutlined, HistoryOutlined } from '@ant-design/icons';
import { type ProfileCustomer, type ProfileField, type ProfileValue, profileRoutes } from '@athena/contract';
import { Button, Flex, Space, Tooltip, Typography, theme } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorNotice } from '../../lib/error-notice.ts';
import { currentLocale } from '../../lib/i18n.ts';
import { useApiMutation } from '../../shared/hooks/use-api-mutation.ts';
import { ChangeSource } from './change-source.tsx';
import { afterValueChange } from './profile-queries.ts';
import { checkValue } from './profile-values.ts';
import { ValueInput } from './value-input.tsx';

interface Props {
  field: ProfileField;
  value: ProfileValue | undefined;
  customerId: string;
  canEdit: boolean;
  spaceId: string | null;
  sceneId: number;
  onHistory: () => void;
}

/**
 * One field of a profile: its value and who set it last; "edit" turns it into the type's input,
 * checked here with the server's own messages before it is sent, and the server's refusal (if any)
 * shows under it too.
 */
export function FieldValueRow({ field, value, customerId, canEdit, spaceId, sceneId, onHistory }: Props) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const [draft, setDraft] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const save = useApiMutation(profileRoutes.valueSet, { meta: { errorNotice: false } });
  const editing = draft !== null;
  const testId = `profile-value-${field.name}`;

  const start = () => {
    setDraft(value?.value ?? '');
    setError(null);
  };
  const cancel = () => {
    setDraft(null);
    setError(null);
  };
  const submit = async () => {
    if (draft === null) return;
    const checked = checkValue(field, draft, currentLocale());
    if (!checked.ok) {
      setError(checked.message);
      return;
    }
    if (checked.value === (value?.value ?? null)) {
      cancel();
      return;
    }
    try {
      const customer: ProfileCustomer = await save.mutateAsync({
        customer_id: customerId,
        field_id: field.id,
        value: checked.value,
      });
      cancel();
      await afterValueChange(spaceId, sceneId, customer);
    } catch (caught) {
      setError(errorNotice(caught));
    }
  };

  return (
    <div
      style={{ padding: '10px 0', borderBottom: `1px solid ${token.colorBorderSecondary}` }}
      data-testid="profile-field-row"
      data-field={field.name}
    >
      <Flex justify="space-between" align="center" gap={8}>
        <Typography.Text strong>
          {field.required ? (
            <span style={{ color: token.colorError, marginInlineEnd: 4 }} title={t('userProfile.fields.requiredTag')}>
              *
            </span>
          ) : null}
          {field.name}
        </Typography.Text>
        {editing ? null : (
          <Space size={0}>
            <Tooltip title={t('userProfile.value.history')}>
              <Button
                type="text"
                size="small"
                icon={<HistoryOutlined />}
                onClick={onHistory}
                aria-label={t('userProfile.value.history')}
                data-testid={`${testId}-history`}
              />
            </Tooltip>
            {canEdit ? (
              <Tooltip title={t('userProfile.value.edit')}>
                <Button
                  type="text"
                  size="small"
                  icon={<EditOutlined />}
                  onClick={start}
                  aria-label={t('userProfile.value.edit')}
                  data-testid={`${testId}-edit`}
                />
              </Tooltip>
            ) : null}
          </Space>
        )}
      </Flex>
      {field.description ? (
        <Typography.Text type="secondary" style={{ fontSize: 12, display: 'block' }}>
          {field.description}
        </Typography.Text>
      ) : null}
      {editing ? (
        <div style={{ marginTop: 6 }}>
          <Flex gap={6} align="center">
            <ValueInput
              field={field}
              value={draft}
              onChange={(next) => {
                setDraft(next);
                setError(null);
              }}
              onEnter={() => void submit()}
              autoFocus
              status={error ? 'error' : undefined}
              style={{ flex: 1, minWidth: 0 }}
              testId={`${testId}-input`}
            />
            <Button
              type="primary"
              icon={<CheckOutlined />}
              loading={save.isPending}
              onClick={() => void submit()}
              aria-label={t('userProfile.value.save')}
              data-testid={`${testId}-save`}
            />
            <Button icon={<CloseOutlined />} onClick={cancel} aria-label={t('userProfile.value.cancel')} />
          </Flex>
          {error ? (
            <Typography.Text type="danger" style={{ fontSize: 12 }} data-testid={`${testId}-error`}>
              {error}
            </Typography.Text>
          ) : null}
        </div>
      ) : (
        <div style={{ marginTop: 2 }}>
          {value ? (
            <Typography.Paragraph style={{ margin: 0, whiteSpace: 'pre-wrap' }} data-testid={testId}>
              {value.value}
            </Typography.Paragraph>
          ) : (
            <Typography.Text type="secondary" data-testid={testId}>
              {t('userProfile.value.empty')}
            </Typography.Text>
          )}
          {value ? <ChangeSource source={value.source} name={value.updated_by_name} at={value.updated_at} /> : null}
        </div>
      )}
    </div>
  );
}
