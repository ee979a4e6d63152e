import { RECHARGE_STATUSES, type RechargeOrder, type RechargeStatus } from '@athena/contract';
import { Flex, type TableProps, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatFen } from '../../lib/format.ts';
import { currentLocale } from '../../lib/i18n.ts';
import { dataAttrs } from '../../lib/test-id.ts';
import { timeRangeOf } from '../../lib/time-range.ts';
import { userTime } from '../../lib/user-time.ts';
import { useRecharges } from './billing-queries.ts';
import { ChannelName, RechargeStatusTag } from './billing-tags.tsx';
import { RecordsFilterBar } from './records-filter-bar.tsx';
import { RecordsTable } from './records-table.tsx';
import { useRecordsFilter } from './use-records-filter.ts';

const dash = <Typography.Text type="secondary">—</Typography.Text>;
const when = (iso: string | null) =>
  iso ? <span style={{ whiteSpace: 'nowrap' }}>{userTime(iso).format('YYYY-MM-DD HH:mm:ss')}</span> : dash;

/** The team's recharge orders (creator and admins): status and time filters, newest first. */
export function RechargesTab({ spaceId }: { spaceId: string }) {
  const { t } = useTranslation();
  const locale = currentLocale();
  const filter = useRecordsFilter<RechargeStatus>();
  const recharges = useRecharges(
    spaceId,
    { status: filter.choice, time: timeRangeOf(filter.time), page: filter.page },
    true,
  );

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
      <RecordsFilterBar
        filter={filter}
        choices={RECHARGE_STATUSES}
        choiceLabel={(value) => t(`billing.status.${value}`)}
        allLabel={t('billing.recharges.allStatuses')}
        label={t('billing.recharges.columns.status')}
        testIds={{ choice: 'recharges-filter-status', time: 'recharges-filter-time', range: 'recharges-filter-range' }}
      />
      <RecordsTable<RechargeOrder>
        query={recharges}
        page={filter.page}
        onPage={filter.setPage}
        columns={columns}
        onRow={(row) =>
          dataAttrs({ 'data-testid': 'recharge-row', 'data-status': row.status, 'data-no': row.order_no })
        }
        empty={t(filter.filtered ? 'billing.recharges.emptyFiltered' : 'billing.recharges.empty')}
        testIds={{ table: 'recharges-table', error: 'recharges-error' }}
      />
    </Flex>
  );
}
