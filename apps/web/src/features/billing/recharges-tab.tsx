import { RECHARGE_STATUSES, type RechargeOrder, type RechargeStatus } from '@athena/contract';
import { Empty, Flex, Select, Table, type TableProps, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatFen } from '../../lib/format.ts';
import { currentLocale } from '../../lib/i18n.ts';
import { dataAttrs } from '../../lib/test-id.ts';
import { ANY_TIME, type TimeChoice, timeRangeOf } from '../../lib/time-range.ts';
import { userTime } from '../../lib/user-time.ts';
import { TimeFilterSelect, TimeRangeField } from '../../shared/ui/time-filter.tsx';
import { PAGE_SIZE, useRecharges } from './billing-queries.ts';
import { ChannelName, RechargeStatusTag } from './billing-tags.tsx';
import { LoadError } from './load-error.tsx';

const dash = <Typography.Text type="secondary">—</Typography.Text>;
const when = (iso: string | null) =>
  iso ? <span style={{ whiteSpace: 'nowrap' }}>{userTime(iso).format('YYYY-MM-DD HH:mm:ss')}</span> : dash;

/** The team's recharge orders (creator and admins): status and time filters, newest first. */
export function RechargesTab({ spaceId }: { spaceId: string }) {
  const { t } = useTranslation();
  const locale = currentLocale();
  const [status, setStatus] = useState<RechargeStatus | null>(null);
  const [time, setTime] = useState<TimeChoice>(ANY_TIME);
  const [page, setPage] = useState(1);
  const recharges = useRecharges(spaceId, { status, time: timeRangeOf(time), page }, true);
  const filtered = status !== null || time.time !== '';

  const columns: TableProps<RechargeOrder>['columns'] = [
    {
      key: 'no',
      title: t('billing.recharges.columns.orderNo'),
      render: (_, row) => (
        <Typography.Text copyable code style={{ whiteSpace: 'nowrap' }} data-testid="recharge-row-no">
          {row.order_no}
        </Typography.Text>
      ),
    },
    {
      key: 'channel',
      title: t('billing.recharges.columns.channel'),
      render: (_, row) => <ChannelName channel={row.channel} />,
    },
    {
      key: 'amount',
      title: t('billing.recharges.columns.amount'),
      align: 'right',
      render: (_, row) => (
        <span style={{ fontVariantNumeric: 'tabular-nums' }} data-testid="recharge-row-amount">
          {formatFen(row.amount, locale)}
        </span>
      ),
    },
    {
      key: 'status',
      title: t('billing.recharges.columns.status'),
      render: (_, row) => <RechargeStatusTag status={row.status} />,
    },
    { key: 'created', title: t('billing.recharges.columns.created'), render: (_, row) => when(row.created_at) },
    { key: 'paid', title: t('billing.recharges.columns.paid'), render: (_, row) => when(row.paid_at) },
    {
      key: 'refunded',
      title: t('billing.recharges.columns.refunded'),
      align: 'right',
      render: (_, row) => (row.refunded > 0 ? formatFen(row.refunded, locale) : dash),
    },
    { key: 'by', title: t('billing.recharges.columns.by'), render: (_, row) => row.created_by?.nickname ?? dash },
  ];

  return (
    <Flex vertical gap={16} data-testid="recharges-tab">
      <Flex wrap gap={8} align="flex-start">
        <Select<RechargeStatus | 'all'>
          value={status ?? 'all'}
          onChange={(next) => {
            setStatus(next === 'all' ? null : next);
            setPage(1);
          }}
          options={[
            { value: 'all' as const, label: t('billing.recharges.allStatuses') },
            ...RECHARGE_STATUSES.map((value) => ({ value, label: t(`billing.status.${value}`) })),
          ]}
          style={{ width: 160 }}
          aria-label={t('billing.recharges.columns.status')}
          data-testid="recharges-filter-status"
        />
        <TimeFilterSelect
          value={time}
          onChange={(next) => {
            setTime(next);
            setPage(1);
          }}
          style={{ width: 160 }}
          testId="recharges-filter-time"
        />
        <TimeRangeField value={time} onChange={setTime} testId="recharges-filter-range" style={{ width: 380 }} />
      </Flex>
      {recharges.isError ? (
        <LoadError error={recharges.error} onRetry={() => void recharges.refetch()} testId="recharges-error" />
      ) : (
        <Table<RechargeOrder>
          data-testid="recharges-table"
          rowKey="id"
          size="middle"
          columns={columns}
          dataSource={recharges.data?.items ?? []}
          loading={recharges.isFetching}
          scroll={{ x: 'max-content' }}
          onRow={(row) =>
            dataAttrs({ 'data-testid': 'recharge-row', 'data-status': row.status, 'data-no': row.order_no })
          }
          locale={{
            emptyText: recharges.isPending ? (
              ' '
            ) : (
              <Empty
                image={Empty.PRESENTED_IMAGE_SIMPLE}
                description={t(filtered ? 'billing.recharges.emptyFiltered' : 'billing.recharges.empty')}
              />
            ),
          }}
          pagination={{
            current: page,
            pageSize: PAGE_SIZE,
            total: recharges.data?.total ?? 0,
            showSizeChanger: false,
            hideOnSinglePage: true,
            onChange: setPage,
          }}
        />
      )}
    </Flex>
  );
}
