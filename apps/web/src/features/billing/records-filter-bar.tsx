import { Flex, Select } from 'antd';
import { TimeFilterSelect, TimeRangeField } from '../../shared/ui/time-filter.tsx';
import type { RecordsFilter } from './use-records-filter.ts';

/** A records list's filters in one row: its choice (or all), the time, and the custom range when picked. */
export function RecordsFilterBar<C extends string>({
  filter,
  choices,
  choiceLabel,
  allLabel,
  label,
  testIds,
}: {
  filter: RecordsFilter<C>;
  choices: readonly C[];
  choiceLabel: (choice: C) => string;
  allLabel: string;
  /** The choice select's accessible name. */
  label: string;
  testIds: { choice: string; time: string; range: string };
}) {
  return (
    <Flex wrap gap={8} align="flex-start">
      <Select<C | 'all'>
        value={filter.choice ?? 'all'}
        onChange={(next) => filter.choose(next === 'all' ? null : next)}
        options={[
          { value: 'all' as const, label: allLabel },
          ...choices.map((value) => ({ value, label: choiceLabel(value) })),
        ]}
        style={{ width: 160 }}
        aria-label={label}
        data-testid={testIds.choice}
      />
      <TimeFilterSelect value={filter.time} onChange={filter.setTime} style={{ width: 160 }} testId={testIds.time} />
      <TimeRangeField value={filter.time} onChange={filter.setTime} testId={testIds.range} style={{ width: 380 }} />
    </Flex>
  );
}
