import { DownloadOutlined, ReloadOutlined } from '@ant-design/icons';
import { type ReportFilter, TIME_FILTERS, type TimeFilter } from '@athena/contract';
import { App, Button, Empty, Flex, Select, Skeleton, Typography } from 'antd';
import { lazy, Suspense, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { showErrorNotice } from '../../lib/error-notice.ts';
import { type TimeChoice, timeRangeOf } from '../../lib/time-range.ts';
import { activeTimezone } from '../../lib/timezone.ts';
import { ListLoadError } from '../../shared/ui/list-page-parts.tsx';
import { RelativeTime } from '../../shared/ui/relative-time.tsx';
import { TimeRangeField } from '../../shared/ui/time-filter.tsx';
import { ReportKpis } from './report-kpis.tsx';
import { downloadReportCsv, useReport } from './report-queries.ts';
import { ReportSatisfaction } from './report-satisfaction.tsx';

// ECharts is large: the charts load only when a report is shown.
const ReportCharts = lazy(() => import('./report-charts.tsx').then((m) => ({ default: m.ReportCharts })));

const START: TimeChoice = { time: '7d', from: null, to: null };

/**
 * The scene's service reports (docs/user-profiles.md, Reports): the time filter of the lists
 * (without "any time": a report is always of a window), the headline figures, the charts and the
 * CSV export. Days are the reader's (the time zone of their settings, else the device's).
 */
export function ReportTab({
  spaceId,
  sceneId,
  onOpenCustomer,
}: {
  spaceId: string | null;
  sceneId: number | null;
  /** Opens a customer's profile (from the latest ratings). */
  onOpenCustomer?: (customerId: string) => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [choice, setChoice] = useState<TimeChoice>(START);
  const [exporting, setExporting] = useState(false);
  const timeZone = activeTimezone();
  const time = useMemo(() => timeRangeOf(choice), [choice]);
  const filter = useMemo<ReportFilter | null>(
    () => (time ? { time: { from: null, to: null, ...time }, time_zone: timeZone } : null),
    [time, timeZone],
  );
  const report = useReport(spaceId, sceneId, filter);

  const exportCsv = async () => {
    if (!filter) return;
    setExporting(true);
    try {
      const name = await downloadReportCsv(filter);
      void message.success(t('userProfile.report.exported', { name }));
    } catch (error) {
      showErrorNotice(error);
    } finally {
      setExporting(false);
    }
  };

  const body = () => {
    if (report.isError) {
      return (
        <ListLoadError
          title={t('userProfile.report.loadFailed')}
          error={report.error}
          onRetry={() => void report.refetch()}
          testId="report-error"
        />
      );
    }
    if (!report.data) {
      return filter ? <Skeleton active paragraph={{ rows: 8 }} data-testid="report-loading" /> : null;
    }
    const days = report.data.days;
    const nothing = days.every(
      (day) =>
        day.sessions === 0 &&
        Object.values(day.messages).every((n) => n === 0) &&
        day.activation_sent + day.activation_failed + day.surveys_requested === 0,
    );
    if (nothing)
      return <Empty style={{ marginTop: 48 }} description={t('userProfile.report.empty')} data-testid="report-empty" />;
    return (
      <Flex vertical gap={12} style={{ opacity: report.isPlaceholderData ? 0.6 : 1 }} data-testid="report-figures">
        <ReportKpis days={days} />
        <Suspense fallback={<Skeleton.Node active style={{ width: '100%', height: 240 }} />}>
          <ReportCharts report={report.data} />
        </Suspense>
        {time ? (
          <ReportSatisfaction spaceId={spaceId} sceneId={sceneId} time={time} onOpenCustomer={onOpenCustomer} />
        ) : null}
      </Flex>
    );
  };

  return (
    <Flex vertical gap={12} data-testid="report-tab">
      <Flex gap={8} align="center" wrap>
        <Select<TimeFilter>
          value={choice.time === '' ? '7d' : choice.time}
          onChange={(time) => setChoice({ time, from: null, to: null })}
          options={TIME_FILTERS.map((preset) => ({ value: preset, label: t(`timeFilter.${preset}`) }))}
          style={{ minWidth: 150 }}
          popupMatchSelectWidth={false}
          aria-label={t('userProfile.report.time')}
          data-testid="report-time"
        />
        <TimeRangeField value={choice} onChange={setChoice} testId="report-range" style={{ width: 360 }} />
        <Flex gap={8} align="center" style={{ marginInlineStart: 'auto' }}>
          {report.data ? (
            <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="report-updated">
              {t('userProfile.report.updated', { time: '' })}
              <RelativeTime iso={new Date(report.dataUpdatedAt).toISOString()} />
            </Typography.Text>
          ) : null}
          <Button
            icon={<ReloadOutlined />}
            onClick={() => void report.refetch()}
            loading={report.isFetching}
            aria-label={t('userProfile.report.refresh')}
            data-testid="report-refresh"
          />
          <Button
            icon={<DownloadOutlined />}
            onClick={() => void exportCsv()}
            loading={exporting}
            disabled={!filter}
            data-testid="report-export"
          >
            {t('userProfile.report.export')}
          </Button>
        </Flex>
      </Flex>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {t('userProfile.report.help', { zone: timeZone })}
      </Typography.Text>
      {body()}
    </Flex>
  );
}
