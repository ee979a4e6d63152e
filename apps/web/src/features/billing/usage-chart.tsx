import { formatMillifen } from '@athena/contract';
import { theme } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLocale } from '../../lib/i18n.ts';
import { type ChartOption, EChart } from '../../shared/ui/echart.tsx';

export interface UsageDay {
  day: string;
  fee_millifen: number;
  calls: number;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

/**
 * Fees per day as bars. The values stay integer milli-fen (a chart needs numbers) and every label
 * is written by formatMillifen, so no figure on screen ever went through a division.
 */
export function UsageChart({ days }: { days: UsageDay[] }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const locale = currentLocale();

  const option = useMemo(
    (): ChartOption => ({
      grid: { left: 8, right: 16, top: 16, bottom: 8, containLabel: true },
      tooltip: {
        trigger: 'axis',
        axisPointer: { type: 'shadow' },
        formatter: (params) => {
          const first = Array.isArray(params) ? params[0] : params;
          const day = days[first?.dataIndex ?? -1];
          if (!day) return '';
          const fee = t('billing.usage.chart.fee', { amount: formatMillifen(day.fee_millifen, locale) });
          const calls = t('billing.usage.chart.calls', { count: day.calls });
          return `<strong>${escapeHtml(day.day)}</strong><br/>${escapeHtml(fee)}<br/>${escapeHtml(calls)}`;
        },
      },
      xAxis: {
        type: 'category',
        data: days.map((day) => day.day.slice(5)),
        axisLabel: { color: token.colorTextSecondary },
        axisLine: { lineStyle: { color: token.colorBorder } },
        axisTick: { show: false },
      },
      yAxis: {
        type: 'value',
        // Ticks on whole milli-fen, so every label is an exact amount.
        minInterval: 1,
        axisLabel: { color: token.colorTextSecondary, formatter: (value: number) => formatMillifen(value, locale) },
        splitLine: { lineStyle: { color: token.colorBorderSecondary } },
      },
      series: [
        {
          type: 'bar',
          name: t('billing.usage.chart.title'),
          data: days.map((day) => day.fee_millifen),
          itemStyle: { color: token.colorPrimary, borderRadius: [4, 4, 0, 0] },
          barMaxWidth: 28,
        },
      ],
    }),
    [days, locale, t, token],
  );

  return <EChart option={option} testId="usage-chart" />;
}
