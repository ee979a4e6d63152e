import { DownloadOutlined, InfoCircleOutlined } from '@ant-design/icons';
import { type BillingSummary, formatMillifen, USAGE_EXPORT_PATH } from '@athena/contract';
import { Alert, App, Button, Card, Empty, Flex, Skeleton, Tooltip, Typography } from 'antd';
import { lazy, type ReactNode, Suspense, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { downloadCsv } from '../../lib/download-csv.ts';
import { showErrorNotice } from '../../lib/error-notice.ts';
import { currentLocale } from '../../lib/i18n.ts';
import { timeRangeOf } from '../../lib/time-range.ts';
import { deviceTimezone } from '../../lib/timezone.ts';
import { useDebouncedValue } from '../../shared/hooks/use-debounced-value.ts';
import { ListLoadError } from '../../shared/ui/list-page-parts.tsx';
import { type UsageQuery, useUsage, useUsageDaily } from './billing-queries.ts';
import { DEFAULT_USAGE_FILTERS, type UsageFilterState, UsageFilters } from './usage-filters.tsx';
import { UsageTable } from './usage-table.tsx';

// ECharts is loaded only when the chart shows, never with the rest of the app.
const UsageChart = lazy(() => import('./usage-chart.tsx').then((m) => ({ default: m.UsageChart })));

function toQuery(filters: UsageFilterState, model: string): UsageQuery {
  return {
    time: timeRangeOf(filters.time),
    kind: filters.kind,
    model: model.trim() || null,
    subject_id: filters.subjectId,
    user_id: filters.userId,
    paid_only: filters.paidOnly,
  };
}

/** Fees per day for the same filter, in the reader's time zone (days start at their midnight). */
function DailyFees({ spaceId, query }: { spaceId: string; query: UsageQuery }) {
  const { t } = useTranslation();
  const daily = useUsageDaily(spaceId, query, deviceTimezone());
  const days = daily.data?.days ?? [];
  let body: ReactNode;
  if (daily.isError) {
    body = (
      <ListLoadError
        title={t('billing.loadFailedShort')}
        error={daily.error}
        onRetry={() => void daily.refetch()}
        testId="usage-chart-error"
      />
    );
  } else if (daily.isPending) {
    body = <Skeleton.Node active style={{ width: '100%', height: 240 }} />;
  } else if (days.every((day) => day.fee_millifen === 0)) {
    body = (
      <Empty
        image={Empty.PRESENTED_IMAGE_SIMPLE}
        description={t('billing.usage.chart.empty')}
        data-testid="usage-chart-empty"
      />
    );
  } else {
    body = (
      <Suspense fallback={<Skeleton.Node active style={{ width: '100%', height: 240 }} />}>
        <UsageChart days={days} />
      </Suspense>
    );
  }
  return (
    <Card size="small" title={t('billing.usage.chart.title')} data-testid="usage-daily">
      {body}
    </Card>
  );
}

/** The fee records: filters, the total of the filter, an export, the daily chart and the calls. */
export function UsageTab({ spaceId, summary }: { spaceId: string; summary: BillingSummary }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const locale = currentLocale();
  const [filters, setFilters] = useState<UsageFilterState>(DEFAULT_USAGE_FILTERS);
  const [page, setPage] = useState(1);
  const [exporting, setExporting] = useState(false);
  const model = useDebouncedValue(filters.model, 400);
  const query = useMemo(() => toQuery(filters, model), [filters, model]);
  const usage = useUsage(spaceId, query, page);
  const filtered = JSON.stringify(filters) !== JSON.stringify(DEFAULT_USAGE_FILTERS);

  const exportCsv = async () => {
    setExporting(true);
    try {
      const name = await downloadCsv(USAGE_EXPORT_PATH, query, 'athena-fees');
      void message.success(t('billing.usage.exported', { name }));
    } catch (error) {
      showErrorNotice(error);
    } finally {
      setExporting(false);
    }
  };

  return (
    <Flex vertical gap={16} data-testid="usage-tab">
      <Alert
        type="info"
        icon={<InfoCircleOutlined />}
        showIcon
        title={t('billing.usage.explain')}
        data-testid="usage-explainer"
      />
      <UsageFilters
        spaceId={spaceId}
        value={filters}
        canSeeAll={summary.can_view_records}
        onChange={(patch) => {
          setFilters((current) => ({ ...current, ...patch }));
          setPage(1);
        }}
      />
      <DailyFees spaceId={spaceId} query={query} />
      <Flex justify="space-between" align="center" wrap gap={8}>
        <Typography.Text>
          {t('billing.usage.total')}{' '}
          <Typography.Text strong data-testid="usage-total" style={{ fontSize: 16 }}>
            {usage.data ? formatMillifen(usage.data.total_fee_millifen, locale) : '—'}
          </Typography.Text>
          {usage.data ? (
            <Typography.Text type="secondary">
              {' '}
              · {t('billing.usage.calls', { count: usage.data.total })}
            </Typography.Text>
          ) : null}
          {usage.data && usage.data.unsettled_millifen > 0 ? (
            // "Where did my charge go": fractions of a fen wait until they add up to one.
            <Tooltip title={t('billing.usage.unsettledHelp')}>
              <Typography.Text type="secondary" data-testid="usage-unsettled" style={{ cursor: 'help' }}>
                {' '}
                · {t('billing.usage.unsettled', { amount: formatMillifen(usage.data.unsettled_millifen, locale) })}
              </Typography.Text>
            </Tooltip>
          ) : null}
        </Typography.Text>
        <Button
          icon={<DownloadOutlined />}
          loading={exporting}
          onClick={() => void exportCsv()}
          data-testid="usage-export"
        >
          {t('billing.usage.export')}
        </Button>
      </Flex>
      <UsageTable query={usage} page={page} filtered={filtered} onPage={setPage} />
    </Flex>
  );
}
