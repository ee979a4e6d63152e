import { CHAT_SEND_TYPES, type ReportOverview } from '@athena/contract';
import { Card, Col, Empty, Row, theme } from 'antd';
import type { BarSeriesOption, LineSeriesOption } from 'echarts/charts';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { type ChartOption, EChart } from '../../shared/ui/echart.tsx';

/** A share in percent with one decimal, or null (a gap in the line) when there is nothing to divide. */
const percent = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 1000) / 10 : null);

/**
 * The report's charts, one card each: volume, messages by sender, first response, the two rates,
 * activation sends and satisfaction. Loaded lazily with ECharts (report-tab.tsx).
 */
export function ReportCharts({ report }: { report: ReportOverview }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const options = useMemo(() => {
    const days = report.days;
    const axis = (data: string[]): ChartOption['xAxis'] => ({
      type: 'category',
      data,
      axisLabel: { color: token.colorTextSecondary },
      axisLine: { lineStyle: { color: token.colorBorder } },
      axisTick: { show: false },
    });
    const base = (extra: { percent?: boolean } = {}): ChartOption => ({
      grid: { left: 8, right: 16, top: 36, bottom: 8, containLabel: true },
      tooltip: { trigger: 'axis', valueFormatter: extra.percent ? (v) => (v == null ? '—' : `${v}%`) : undefined },
      legend: { top: 0, textStyle: { color: token.colorTextSecondary } },
      xAxis: axis(days.map((day) => day.day.slice(5))),
      yAxis: {
        type: 'value',
        minInterval: 1,
        max: extra.percent ? 100 : undefined,
        axisLabel: { color: token.colorTextSecondary, formatter: extra.percent ? '{value}%' : '{value}' },
        splitLine: { lineStyle: { color: token.colorBorderSecondary } },
      },
    });
    const bar = (name: string, data: (number | null)[], stack?: string): BarSeriesOption => ({
      type: 'bar',
      name,
      data,
      stack,
      barMaxWidth: 24,
    });
    const line = (name: string, data: (number | null)[]): LineSeriesOption => ({
      type: 'line',
      name,
      data,
      connectNulls: false,
      // A day between two empty ones has no segment to draw: its dot is what shows it.
      showAllSymbol: true,
      symbolSize: 6,
    });
    const scores = [1, 2, 3, 4, 5].map((score) => t('userProfile.report.chart.scoreLabel', { score }));
    return {
      volume: {
        ...base(),
        series: [
          bar(
            t('userProfile.report.chart.sessions'),
            days.map((d) => d.sessions),
          ),
          bar(
            t('userProfile.report.chart.newCustomers'),
            days.map((d) => d.new_customers),
          ),
        ],
      },
      messages: {
        ...base(),
        series: CHAT_SEND_TYPES.map((type) =>
          bar(
            t(`chatHistory.sendType.${type}`),
            days.map((d) => d.messages[type]),
            'messages',
          ),
        ),
      },
      firstResponse: {
        ...base(),
        series: [
          line(
            t('userProfile.report.chart.firstResponse'),
            days.map((d) => d.first_response_seconds),
          ),
        ],
      },
      rates: {
        ...base({ percent: true }),
        series: [
          line(
            t('userProfile.report.chart.aiResolution'),
            days.map((d) => percent(d.ai_resolved, d.asked)),
          ),
          line(
            t('userProfile.report.chart.handOver'),
            days.map((d) => percent(d.handed_over, d.asked)),
          ),
        ],
      },
      activation: {
        ...base(),
        series: [
          {
            ...bar(
              t('userProfile.report.chart.sent'),
              days.map((d) => d.activation_sent),
              'sends',
            ),
            color: token.colorSuccess,
          },
          {
            ...bar(
              t('userProfile.report.chart.failed'),
              days.map((d) => d.activation_failed),
              'sends',
            ),
            color: token.colorError,
          },
        ],
      },
      satisfaction: {
        ...base(),
        series: [
          line(
            t('userProfile.report.chart.score'),
            days.map((d) => d.satisfaction_score),
          ),
        ],
        yAxis: { type: 'value', min: 0, max: 5, axisLabel: { color: token.colorTextSecondary } },
      },
      distribution: {
        ...base(),
        xAxis: axis(scores),
        series: [
          { ...bar(t('userProfile.report.chart.distribution'), report.score_distribution), color: token.colorWarning },
        ],
      },
    } satisfies Record<string, ChartOption>;
  }, [report, t, token]);

  const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
  const days = report.days;
  const rated = sum(days.map((d) => d.surveys_rated));
  // Charts of figures the window does not have say so, instead of drawing empty axes.
  const hasData: Partial<Record<keyof typeof options, boolean>> = {
    activation: sum(days.map((d) => d.activation_sent + d.activation_failed)) > 0,
    satisfaction: rated > 0,
    distribution: rated > 0,
    firstResponse: sum(days.map((d) => d.replied)) > 0,
    rates: sum(days.map((d) => d.asked)) > 0,
  };
  const cards: [keyof typeof options, string][] = [
    ['volume', t('userProfile.report.chart.volume')],
    ['messages', t('userProfile.report.chart.messages')],
    ['firstResponse', t('userProfile.report.chart.firstResponse')],
    ['rates', t('userProfile.report.chart.rates')],
    ['activation', t('userProfile.report.chart.activation')],
    ['satisfaction', t('userProfile.report.chart.satisfaction')],
    ['distribution', t('userProfile.report.chart.distribution')],
  ];
  return (
    <Row gutter={[12, 12]}>
      {cards.map(([key, title]) => (
        <Col key={key} xs={24} lg={12}>
          <Card size="small" title={title} style={{ height: '100%' }}>
            {hasData[key] === false ? (
              <Empty
                image={Empty.PRESENTED_IMAGE_SIMPLE}
                description={t('userProfile.report.noData')}
                style={{ height: 240, alignContent: 'center', margin: 0 }}
                data-testid={`report-chart-${key}-empty`}
              />
            ) : (
              <EChart option={options[key]} testId={`report-chart-${key}`} />
            )}
          </Card>
        </Col>
      ))}
    </Row>
  );
}
