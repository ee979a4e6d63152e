import { LEDGER_ENTRY_KINDS, type LedgerEntryKind, type LedgerEntryView } from '@athena/contract';
import { Flex, type TableProps, Typography, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatFen } from '../../lib/format.ts';
import { currentLocale } from '../../lib/i18n.ts';
import { dataAttrs } from '../../lib/test-id.ts';
import { timeRangeOf } from '../../lib/time-range.ts';
import { userTime } from '../../lib/user-time.ts';
import { useLedger } from './billing-queries.ts';
import { LedgerKindTag } from './billing-tags.tsx';
import { RecordsFilterBar } from './records-filter-bar.tsx';
import { RecordsTable } from './records-table.tsx';
import { useRecordsFilter } from './use-records-filter.ts';

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
  const filter = useRecordsFilter<LedgerEntryKind>();
  const ledger = useLedger(spaceId, { kind: filter.choice, time: timeRangeOf(filter.time), page: filter.page }, true);

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
      <RecordsFilterBar
        filter={filter}
        choices={LEDGER_ENTRY_KINDS}
        choiceLabel={(value) => t(`billing.ledgerKind.${value}`)}
        allLabel={t('billing.ledger.allKinds')}
        label={t('billing.ledger.columns.kind')}
        testIds={{ choice: 'ledger-filter-kind', time: 'ledger-filter-time', range: 'ledger-filter-range' }}
      />
      <RecordsTable<LedgerEntryView>
        query={ledger}
        page={filter.page}
        onPage={filter.setPage}
        columns={columns}
        onRow={(row) => dataAttrs({ 'data-testid': 'ledger-row', 'data-kind': row.kind })}
        empty={t(filter.filtered ? 'billing.ledger.emptyFiltered' : 'billing.ledger.empty')}
        testIds={{ table: 'ledger-table', error: 'ledger-error' }}
      />
    </Flex>
  );
}
