import { SearchOutlined } from '@ant-design/icons';
import { USAGE_KINDS, type UsageKind } from '@athena/contract';
import { Flex, Input, Select, Spin, Switch, Typography } from 'antd';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TimeChoice } from '../../lib/time-range.ts';
import { useDebouncedValue } from '../../shared/hooks/use-debounced-value.ts';
import { TimeFilterSelect, TimeRangeField } from '../../shared/ui/time-filter.tsx';
import { useMemberOptions, useSubjectOptions } from './billing-queries.ts';

/** What narrows the fee records (and the chart and the export, which take the same filter). */
export interface UsageFilterState {
  time: TimeChoice;
  kind: UsageKind | null;
  /** As typed; the page sends it once typing pauses. */
  model: string;
  userId: string | null;
  /** An agent or a workflow, with the matching kind. */
  subjectId: string | null;
  paidOnly: boolean;
}

export const DEFAULT_USAGE_FILTERS: UsageFilterState = {
  time: { time: '30d', from: null, to: null },
  kind: null,
  model: '',
  userId: null,
  subjectId: null,
  paidOnly: false,
};

/** The team's members to pick from, searched as one types (asked only once the list opens). */
function MemberSelect({
  spaceId,
  value,
  onChange,
}: {
  spaceId: string;
  value: string | null;
  onChange: (userId: string | null) => void;
}) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState('');
  // The chosen member stays named when the current search no longer lists them.
  const [chosenName, setChosenName] = useState('');
  const keyword = useDebouncedValue(typed.trim());
  const members = useMemberOptions(spaceId, keyword, open);
  const options = (members.data?.items ?? []).map((member) => ({ value: member.user_id, label: member.nickname }));
  if (value && !options.some((option) => option.value === value)) {
    options.unshift({ value, label: chosenName || value });
  }
  return (
    <Select<string>
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) setTyped('');
      }}
      showSearch={{ filterOption: false, onSearch: setTyped, searchValue: typed }}
      allowClear
      value={value ?? undefined}
      onChange={(next) => {
        setChosenName(options.find((option) => option.value === next)?.label ?? '');
        onChange(next ?? null);
      }}
      placeholder={t('billing.usage.filters.memberAny')}
      options={options}
      notFoundContent={members.isFetching ? <Spin size="small" /> : t('billing.usage.filters.memberNone')}
      style={{ width: 180 }}
      popupMatchSelectWidth={false}
      aria-label={t('billing.usage.filters.member')}
      data-testid="usage-filter-member"
    />
  );
}

/** The team's agents or workflows, for the calls of one of them (shown once the kind is chosen). */
function SubjectSelect({
  kind,
  value,
  onChange,
}: {
  kind: 'agent' | 'workflow';
  value: string | null;
  onChange: (subjectId: string | null) => void;
}) {
  const { t } = useTranslation();
  const subjects = useSubjectOptions(kind);
  return (
    <Select<string>
      allowClear
      showSearch={{ optionFilterProp: 'label' }}
      value={value ?? undefined}
      onChange={(next) => onChange(next ?? null)}
      placeholder={t(kind === 'agent' ? 'billing.usage.filters.agentAny' : 'billing.usage.filters.workflowAny')}
      options={subjects.data ?? []}
      loading={subjects.isPending}
      style={{ width: 180 }}
      popupMatchSelectWidth={false}
      aria-label={t(kind === 'agent' ? 'billing.usage.filters.agentAny' : 'billing.usage.filters.workflowAny')}
      data-testid="usage-filter-subject"
    />
  );
}

export function UsageFilters({
  spaceId,
  value,
  canSeeAll,
  onChange,
}: {
  spaceId: string;
  value: UsageFilterState;
  /** Creator and admins: everyone's calls, so a member filter; a member sees their own only. */
  canSeeAll: boolean;
  onChange: (patch: Partial<UsageFilterState>) => void;
}) {
  const { t } = useTranslation();
  const paidOnlyId = useId();
  return (
    <Flex vertical gap={8} data-testid="usage-filters">
      <Flex wrap gap={8} align="center">
        <TimeFilterSelect
          value={value.time}
          onChange={(time) => onChange({ time })}
          style={{ width: 160 }}
          testId="usage-filter-time"
        />
        <Select<UsageKind | 'all'>
          value={value.kind ?? 'all'}
          onChange={(kind) => onChange({ kind: kind === 'all' ? null : kind, subjectId: null })}
          options={[
            { value: 'all' as const, label: t('billing.usage.filters.kindAny') },
            ...USAGE_KINDS.map((kind) => ({ value: kind, label: t(`billing.usageKind.${kind}`) })),
          ]}
          style={{ width: 150 }}
          popupMatchSelectWidth={false}
          aria-label={t('billing.usage.filters.kind')}
          data-testid="usage-filter-kind"
        />
        <Input
          allowClear
          prefix={<SearchOutlined />}
          value={value.model}
          maxLength={200}
          onChange={(event) => onChange({ model: event.target.value })}
          placeholder={t('billing.usage.filters.model')}
          aria-label={t('billing.usage.filters.model')}
          style={{ width: 200 }}
          data-testid="usage-filter-model"
        />
        {value.kind === 'agent' || value.kind === 'workflow' ? (
          <SubjectSelect
            key={value.kind}
            kind={value.kind}
            value={value.subjectId}
            onChange={(subjectId) => onChange({ subjectId })}
          />
        ) : null}
        {canSeeAll ? (
          <MemberSelect spaceId={spaceId} value={value.userId} onChange={(userId) => onChange({ userId })} />
        ) : null}
        {/* A label, so the words toggle the switch as well as the switch itself. */}
        <label htmlFor={paidOnlyId} style={{ display: 'inline-flex', alignItems: 'center', gap: 6, cursor: 'pointer' }}>
          <Switch
            id={paidOnlyId}
            size="small"
            checked={value.paidOnly}
            onChange={(paidOnly) => onChange({ paidOnly })}
            data-testid="usage-filter-paid"
          />
          <Typography.Text data-testid="usage-filter-paid-text">{t('billing.usage.filters.paidOnly')}</Typography.Text>
        </label>
      </Flex>
      <TimeRangeField
        value={value.time}
        onChange={(time) => onChange({ time })}
        testId="usage-filter-range"
        style={{ maxWidth: 420 }}
      />
    </Flex>
  );
}
