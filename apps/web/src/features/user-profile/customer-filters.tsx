import { CloseOutlined, FilterOutlined, PlusOutlined, SearchOutlined } from '@ant-design/icons';
import {
  PROFILE_INACTIVE_FILTERS,
  PROFILE_LIMITS,
  PROFILE_SATISFACTION_FILTERS,
  type ProfileField,
  type ProfileInactiveFilter,
  type ProfileSatisfactionFilter,
} from '@athena/contract';
import { Button, Flex, Input, Select, Typography, theme } from 'antd';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { TimeFilterSelect, TimeRangeField } from '../../shared/ui/time-filter.tsx';
import {
  type ConditionOp,
  type DraftCondition,
  needsValue,
  newCondition,
  OPS_BY_TYPE,
  type ProfileFilters,
  withField,
} from './profile-filters.ts';
import { ValueInput } from './value-input.tsx';

interface Props {
  filters: ProfileFilters;
  fields: readonly ProfileField[];
  onChange: (patch: Partial<ProfileFilters>) => void;
  onClear: (() => void) | null;
}

function ConditionRow({
  condition,
  fields,
  onChange,
  onRemove,
  index,
}: {
  condition: DraftCondition;
  fields: readonly ProfileField[];
  onChange: (next: DraftCondition) => void;
  onRemove: () => void;
  index: number;
}) {
  const { t } = useTranslation();
  const field = fields.find((candidate) => candidate.id === condition.fieldId);
  return (
    <Flex gap={8} align="center" wrap data-testid="profile-condition">
      <Select
        value={field ? condition.fieldId : undefined}
        onChange={(id) => {
          const next = fields.find((candidate) => candidate.id === id);
          if (next) onChange(withField(condition, next));
        }}
        options={fields.map((candidate) => ({ value: candidate.id, label: candidate.name }))}
        style={{ width: 160 }}
        placeholder={t('userProfile.filters.field')}
        popupMatchSelectWidth={false}
        data-testid={`profile-condition-field-${index}`}
      />
      <Select<ConditionOp>
        value={condition.op}
        onChange={(op) => onChange({ ...condition, op })}
        options={(field ? OPS_BY_TYPE[field.type] : []).map((op) => ({
          value: op,
          label: t(`userProfile.op.${op}`),
        }))}
        style={{ width: 130 }}
        popupMatchSelectWidth={false}
        data-testid={`profile-condition-op-${index}`}
      />
      {field && needsValue(condition.op) ? (
        <ValueInput
          field={field}
          value={condition.value}
          onChange={(value) => onChange({ ...condition, value })}
          style={{ width: 200 }}
          testId={`profile-condition-value-${index}`}
        />
      ) : null}
      <Button
        type="text"
        icon={<CloseOutlined />}
        onClick={onRemove}
        aria-label={t('userProfile.filters.removeCondition')}
        data-testid={`profile-condition-remove-${index}`}
      />
    </Flex>
  );
}

/** Search, last-active time, quiet time, satisfaction and field conditions above the customer list. */
export function CustomerFilters({ filters, fields, onChange, onClear }: Props) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const nextKey = useRef(1);
  const conditions = filters.conditions;
  const setCondition = (index: number, next: DraftCondition) =>
    onChange({ conditions: conditions.map((condition, at) => (at === index ? next : condition)) });
  const add = () => {
    const first = fields[0];
    if (!first) return;
    nextKey.current += 1;
    onChange({ conditions: [...conditions, newCondition(nextKey.current, first)] });
  };

  return (
    <Flex vertical gap={8} data-testid="profile-filters">
      <Flex gap={8} wrap align="center">
        <Input
          allowClear
          prefix={<SearchOutlined />}
          placeholder={t('userProfile.filters.keyword')}
          maxLength={PROFILE_LIMITS.keyword}
          value={filters.keyword}
          onChange={(event) => onChange({ keyword: event.target.value })}
          style={{ width: 340, maxWidth: '100%' }}
          aria-label={t('userProfile.filters.keyword')}
          data-testid="profile-filter-keyword"
        />
        <TimeFilterSelect
          style={{ width: 200 }}
          value={filters}
          onChange={(time) => onChange(time)}
          testId="profile-filter-time"
        />
        <TimeRangeField
          style={{ width: 340 }}
          value={filters}
          onChange={(time) => onChange(time)}
          testId="profile-filter-range"
        />
        <Select<ProfileInactiveFilter>
          allowClear
          value={filters.inactive || undefined}
          onChange={(inactive) => onChange({ inactive: inactive ?? '' })}
          options={PROFILE_INACTIVE_FILTERS.map((value) => ({
            value,
            label: t(`userProfile.search.inactive.${value}`),
          }))}
          placeholder={t('userProfile.search.inactive.placeholder')}
          aria-label={t('userProfile.search.inactive.placeholder')}
          style={{ width: 170 }}
          popupMatchSelectWidth={false}
          data-testid="profile-filter-inactive"
        />
        <Select<ProfileSatisfactionFilter>
          allowClear
          value={filters.satisfaction || undefined}
          onChange={(satisfaction) => onChange({ satisfaction: satisfaction ?? '' })}
          options={PROFILE_SATISFACTION_FILTERS.map((value) => ({
            value,
            label: t(`userProfile.search.satisfaction.${value}`),
          }))}
          placeholder={t('userProfile.search.satisfaction.placeholder')}
          aria-label={t('userProfile.search.satisfaction.placeholder')}
          style={{ width: 170 }}
          popupMatchSelectWidth={false}
          data-testid="profile-filter-satisfaction"
        />
        <Button
          icon={<PlusOutlined />}
          onClick={add}
          disabled={fields.length === 0 || conditions.length >= PROFILE_LIMITS.conditions}
          title={fields.length === 0 ? t('userProfile.filters.noFields') : undefined}
          data-testid="profile-condition-add"
        >
          {t('userProfile.filters.addCondition')}
        </Button>
        {onClear ? (
          <Button type="link" onClick={onClear} data-testid="profile-filters-clear">
            {t('userProfile.filters.clear')}
          </Button>
        ) : null}
      </Flex>
      {conditions.length > 0 ? (
        <Flex
          vertical
          gap={8}
          style={{ padding: 10, background: token.colorFillQuaternary, borderRadius: token.borderRadius }}
        >
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            <FilterOutlined /> {t('userProfile.filters.conditionsHint', { max: PROFILE_LIMITS.conditions })}
          </Typography.Text>
          {conditions.map((condition, index) => (
            <ConditionRow
              key={condition.key}
              index={index}
              condition={condition}
              fields={fields}
              onChange={(next) => setCondition(index, next)}
              onRemove={() => onChange({ conditions: conditions.filter((_, at) => at !== index) })}
            />
          ))}
        </Flex>
      ) : null}
    </Flex>
  );
}
