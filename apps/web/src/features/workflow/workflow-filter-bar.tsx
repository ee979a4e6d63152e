import { SearchOutlined } from '@ant-design/icons';
import { RUN_RESULTS } from '@athena/contract';
import { Button, Flex, Input, Select } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDebouncedValue } from '../../shared/hooks/use-debounced-value.ts';
import { isFiltered, type LastResultFilter, type ListFilters, NO_FILTERS } from './list-filters.ts';

interface Props {
  filters: ListFilters;
  onChange: (next: ListFilters) => void;
}

const yesNo = (value: boolean | null) => (value === null ? undefined : value ? 'yes' : 'no');
const fromYesNo = (value: string | undefined) => (value === undefined ? null : value === 'yes');

/** Search, the two states and the last run's result; any change goes back to the first page. */
export function WorkflowFilterBar({ filters, onChange }: Props) {
  const { t } = useTranslation();
  const [search, setSearch] = useState(filters.keyword);
  const keyword = useDebouncedValue(search.trim());
  const set = (patch: Partial<ListFilters>) => onChange({ ...filters, ...patch, page: 1 });

  // The address may change the keyword too (back button, "clear filters").
  useEffect(
    () => setSearch((typed) => (typed.trim() === filters.keyword ? typed : filters.keyword)),
    [filters.keyword],
  );
  // Only a settled keyword is a change; it applies to the filters of that moment.
  const latest = useRef({ filters, onChange });
  latest.current = { filters, onChange };
  useEffect(() => {
    const now = latest.current;
    if (keyword !== now.filters.keyword.trim()) now.onChange({ ...now.filters, keyword, page: 1 });
  }, [keyword]);

  return (
    <Flex gap={8} wrap align="center" data-testid="workflow-filters">
      <Input
        allowClear
        prefix={<SearchOutlined />}
        placeholder={t('workflows.search')}
        value={search}
        onChange={(event) => setSearch(event.target.value)}
        style={{ width: 220 }}
        maxLength={50}
        data-testid="workflow-search"
      />
      <Select
        allowClear
        placeholder={t('workflows.filters.effective')}
        value={yesNo(filters.effective)}
        onChange={(value: string | undefined) => set({ effective: fromYesNo(value) })}
        style={{ width: 140 }}
        data-testid="workflow-filter-effective"
        options={[
          { value: 'yes', label: t('workflows.state.effective') },
          { value: 'no', label: t('workflows.state.notEffective') },
        ]}
      />
      <Select
        allowClear
        placeholder={t('workflows.filters.locked')}
        value={yesNo(filters.locked)}
        onChange={(value: string | undefined) => set({ locked: fromYesNo(value) })}
        style={{ width: 140 }}
        data-testid="workflow-filter-locked"
        options={[
          { value: 'yes', label: t('workflows.state.locked') },
          { value: 'no', label: t('workflows.state.unlocked') },
        ]}
      />
      <Select<LastResultFilter>
        allowClear
        placeholder={t('workflows.filters.lastResult')}
        value={filters.lastResult ?? undefined}
        onChange={(value) => set({ lastResult: value ?? null })}
        style={{ width: 160 }}
        data-testid="workflow-filter-result"
        options={[...RUN_RESULTS, 'never' as const].map((value) => ({ value, label: t(`workflows.result.${value}`) }))}
      />
      {isFiltered(filters) ? (
        <Button type="link" onClick={() => onChange(NO_FILTERS)} data-testid="workflow-filters-clear">
          {t('workflows.clearFilters')}
        </Button>
      ) : null}
    </Flex>
  );
}
