import { PROFILE_LIMITS, type ProfileField } from '@athena/contract';
import { DatePicker, Input, Select } from 'antd';
import dayjs from 'dayjs';
import type { CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';

interface Props {
  field: ProfileField;
  value: string;
  onChange: (value: string) => void;
  onEnter?: () => void;
  autoFocus?: boolean;
  status?: 'error';
  style?: CSSProperties;
  testId: string;
}

/**
 * The input a field's type takes: text, a number (typed, checked before saving so a mistake is
 * said rather than swallowed), a day from a calendar, or one of a select field's choices.
 */
export function ValueInput({ field, value, onChange, onEnter, autoFocus, status, style, testId }: Props) {
  const { t } = useTranslation();
  if (field.type === 'date') {
    const day = value && dayjs(value).isValid() ? dayjs(value) : null;
    return (
      <DatePicker
        value={day}
        onChange={(next) => onChange(next ? next.format('YYYY-MM-DD') : '')}
        format="YYYY-MM-DD"
        autoFocus={autoFocus}
        status={status}
        style={style}
        placeholder={t('userProfile.value.pickDate')}
        data-testid={testId}
      />
    );
  }
  if (field.type === 'select') {
    return (
      <Select
        value={value || undefined}
        onChange={(next) => onChange(next ?? '')}
        options={field.options.map((option) => ({ value: option, label: option }))}
        allowClear
        autoFocus={autoFocus}
        status={status}
        style={{ minWidth: 160, ...style }}
        placeholder={t('userProfile.value.pickOption')}
        popupMatchSelectWidth={false}
        data-testid={testId}
      />
    );
  }
  return (
    <Input
      value={value}
      onChange={(event) => onChange(event.target.value)}
      onPressEnter={onEnter}
      inputMode={field.type === 'number' ? 'decimal' : undefined}
      maxLength={field.type === 'text' ? PROFILE_LIMITS.textValue : 40}
      autoFocus={autoFocus}
      status={status}
      style={style}
      placeholder={field.type === 'number' ? t('userProfile.value.typeNumber') : t('userProfile.value.typeText')}
      data-testid={testId}
    />
  );
}
