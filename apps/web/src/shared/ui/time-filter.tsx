import { TIME_FILTERS } from '@athena/contract';
import { DatePicker, Flex, Select, Typography } from 'antd';
import dayjs from 'dayjs';
import type { CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import { isRangeIncomplete, type TimeChoice } from '../../lib/time-range.ts';

interface TimeFilterProps {
  value: TimeChoice;
  onChange: (next: TimeChoice) => void;
  /** The control's id; TimeRangeField's hint is `<testId>-hint`. */
  testId: string;
  style?: CSSProperties;
}

/**
 * The time filter of the lists (chat history, fee records…): "any time", the presets (last hour
 * to last 90 days) and "custom", which shows TimeRangeField. Two pieces, so a page places the
 * range where it fits (below a row of selects, or beside them).
 */
export function TimeFilterSelect({ value, onChange, testId, style }: TimeFilterProps) {
  const { t } = useTranslation();
  return (
    <Select
      style={style}
      value={value.time}
      onChange={(time) => onChange({ time, from: null, to: null })}
      options={[
        { value: '', label: t('timeFilter.any') },
        ...TIME_FILTERS.map((preset) => ({ value: preset, label: t(`timeFilter.${preset}`) })),
      ]}
      popupMatchSelectWidth={false}
      data-testid={testId}
      aria-label={t('timeFilter.label')}
    />
  );
}

/** The custom range (minutes precision) with a hint while one end is missing; nothing unless "custom". */
export function TimeRangeField({ value, onChange, testId, style }: TimeFilterProps) {
  const { t } = useTranslation();
  if (value.time !== 'custom') return null;
  const range = [value.from === null ? null : dayjs(value.from), value.to === null ? null : dayjs(value.to)] as [
    dayjs.Dayjs | null,
    dayjs.Dayjs | null,
  ];
  return (
    <Flex vertical gap={2} style={style}>
      <DatePicker.RangePicker
        showTime={{ format: 'HH:mm' }}
        format="YYYY-MM-DD HH:mm"
        value={range}
        allowEmpty={[true, true]}
        onChange={(dates) =>
          onChange({ time: 'custom', from: dates?.[0]?.valueOf() ?? null, to: dates?.[1]?.valueOf() ?? null })
        }
        placeholder={[t('timeFilter.rangeStart'), t('timeFilter.rangeEnd')]}
        style={{ width: '100%' }}
        data-testid={testId}
      />
      {isRangeIncomplete(value) ? (
        <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid={`${testId}-hint`}>
          {t('timeFilter.pickRange')}
        </Typography.Text>
      ) : null}
    </Flex>
  );
}
