import { LEDGER_ENTRY_KINDS, type LedgerEntryKind, type LedgerEntryView } from '@athena/contract';
import { Empty, Flex, Select, Table, type TableProps, Typography, theme } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatFen } from '../../lib/format.ts';
import { currentLocale } from '../../lib/i18n.ts';
import { dataAttrs } from '../../lib/test-id.ts';
import { ANY_TIME, type TimeChoice, timeRangeOf } from '../../lib/time-range.ts';
import { userTime } from '../../lib/user-time.ts';
import { TimeFilterSelect, TimeRangeField } from '../../shared/ui/time-filter.tsx';
import { PAGE_SIZE, useLedger } from './billing-queries.ts';
import { LedgerKindTag } from './billing-tags.tsx';
import { LoadError } from './load-error.tsx';

/** What an entry is about, from its reference (order number, model, reason…) and note. */
function Reference({ entry }: { entry: LedgerEntryView }) {
  const { t } = useTranslation();
  // Only what a person reads: provider trade numbers and internal ids stay in the API.
  const { order_no: orderNo, model, reason } = entry.reference;
  const parts: string[] = [];
  if (orderNo) parts.push(t('billing.ledger.refOrder', { orderNo }));
  if (model) parts.push(t('billing.ledger.refModel', { model }));
  if (reason) parts.push(reason);
  if (entry.note && !parts.includes(entry.note)) parts.push(entry.note);
  if (parts.length === 0) return <Typography.Text type="secondary">—</Typography.Text>;
  return (
    <Typography.Text ellipsis={{ tooltip: parts.join(' · ') }} style={{ maxWidth: 360 }} data-testid="ledger-reference">
      {parts.join(' · ')}
    </Typography.Text>
  );
}

/** Every change of the balance like a bank statement (creator and admins): signed amount, balance after. */
export function LedgerTab({ spaceId }: { spaceId: string }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const locale = currentLocale();
  const [kind, setKind] = useState<LedgerEntryKind | null>(null);
  const [time, setTime] = useState<TimeChoice>(ANY_TIME);
  const [page, setPage] = useState(1);
  const ledger = useLedger(spaceId, { kind, time: timeRangeOf(time), page }, true);
  const filtered = kind !== null || time.time !== '';

  const columns: TableProps<LedgerEntryView>['columns'] = [
    {
      key: 'time',
      title: t('billing.ledger.columns.time'),
      render: (_, row) => (
        <span style={{ whiteSpace: 'nowrap' }}>{userTime(row.created_at).format('YYYY-MM-DD HH:mm:ss')}</span>
      ),
    },
    { key: 'kind', title: t('billing.ledger.columns.kind'), render: (_, row) => <LedgerKindTag kind={row.kind} /> },
    {
      key: 'amount',
      title: t('billing.ledger.columns.amount'),
      align: 'right',
      render: (_, row) => (
        <span
          data-testid="ledger-amount"
          style={{
            fontVariantNumeric: 'tabular-nums',
            fontWeight: 500,
            color: row.amount > 0 ? token.colorSuccess : row.amount < 0 ? token.colorError : undefined,
          }}
        >
          {row.amount > 0 ? '+' : ''}
          {formatFen(row.amount, locale)}
        </span>
      ),
    },
    {
      key: 'after',
      title: t('billing.ledger.columns.balanceAfter'),
      align: 'right',
      render: (_, row) => (
        <span style={{ fontVariantNumeric: 'tabular-nums' }} data-testid="ledger-balance-after">
          {formatFen(row.balance_after, locale)}
        </span>
      ),
    },
    { key: 'ref', title: t('billing.ledger.columns.reference'), render: (_, row) => <Reference entry={row} /> },
    {
      key: 'who',
      title: t('billing.ledger.columns.who'),
      render: (_, row) =>
        row.actor?.nickname ?? <Typography.Text type="secondary">{t('billing.ledger.system')}</Typography.Text>,
    },
  ];

  return (
    <Flex vertical gap={16} data-testid="ledger-tab">
      <Flex wrap gap={8} align="flex-start">
        <Select<LedgerEntryKind | 'all'>
          value={kind ?? 'all'}
          onChange={(next) => {
            setKind(next === 'all' ? null : next);
            setPage(1);
          }}
          options={[
            { value: 'all' as const, label: t('billing.ledger.allKinds') },
            ...LEDGER_ENTRY_KINDS.map((value) => ({ value, label: t(`billing.ledgerKind.${value}`) })),
          ]}
          style={{ width: 160 }}
          aria-label={t('billing.ledger.columns.kind')}
          data-testid="ledger-filter-kind"
        />
        <TimeFilterSelect
          value={time}
          onChange={(next) => {
            setTime(next);
            setPage(1);
          }}
          style={{ width: 160 }}
          testId="ledger-filter-time"
        />
        <TimeRangeField value={time} onChange={setTime} testId="ledger-filter-range" style={{ width: 380 }} />
      </Flex>
      {ledger.isError ? (
        <LoadError error={ledger.error} onRetry={() => void ledger.refetch()} testId="ledger-error" />
      ) : (
        <Table<LedgerEntryView>
          data-testid="ledger-table"
          rowKey="id"
          size="middle"
          columns={columns}
          dataSource={ledger.data?.items ?? []}
          loading={ledger.isFetching}
          scroll={{ x: 'max-content' }}
          onRow={(row) => dataAttrs({ 'data-testid': 'ledger-row', 'data-kind': row.kind })}
          locale={{
            emptyText: ledger.isPending ? (
              ' '
            ) : (
              <Empty
                image={Empty.PRESENTED_IMAGE_SIMPLE}
                description={t(filtered ? 'billing.ledger.emptyFiltered' : 'billing.ledger.empty')}
              />
            ),
          }}
          pagination={{
            current: page,
            pageSize: PAGE_SIZE,
            total: ledger.data?.total ?? 0,
            showSizeChanger: false,
            hideOnSinglePage: true,
            onChange: setPage,
          }}
        />
      )}
    </Flex>
  );
}
