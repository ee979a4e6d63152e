import { Empty, Table, type TableProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { ListLoadError } from '../../shared/ui/list-page-parts.tsx';
import { PAGE_SIZE } from './billing-queries.ts';

/** The parts of a list query the table reads (any of the billing lists' queries fits). */
export interface RecordsQuery<T> {
  data: { items: T[]; total: number } | undefined;
  error: unknown;
  isError: boolean;
  isFetching: boolean;
  isPending: boolean;
  refetch: () => Promise<unknown>;
}

/**
 * One page of billing records (ledger, recharges, fee records), or the failed read with a retry.
 * The empty text waits for the first answer, so "nothing here" never flashes before the rows.
 */
export function RecordsTable<T extends { id: string }>({
  query,
  page,
  onPage,
  columns,
  onRow,
  empty,
  testIds,
}: {
  query: RecordsQuery<T>;
  page: number;
  onPage: (page: number) => void;
  columns: TableProps<T>['columns'];
  onRow: TableProps<T>['onRow'];
  /** What an empty page says (usually different when filters are on). */
  empty: string;
  testIds: { table: string; error: string; empty?: string };
}) {
  const { t } = useTranslation();
  if (query.isError) {
    return (
      <ListLoadError
        title={t('billing.loadFailedShort')}
        error={query.error}
        onRetry={() => void query.refetch()}
        testId={testIds.error}
      />
    );
  }
  return (
    <Table<T>
      data-testid={testIds.table}
      rowKey="id"
      size="middle"
      columns={columns}
      dataSource={query.data?.items ?? []}
      loading={query.isFetching}
      scroll={{ x: 'max-content' }}
      onRow={onRow}
      locale={{
        emptyText: query.isPending ? (
          ' '
        ) : (
          <Empty data-testid={testIds.empty} image={Empty.PRESENTED_IMAGE_SIMPLE} description={empty} />
        ),
      }}
      pagination={{
        current: page,
        pageSize: PAGE_SIZE,
        total: query.data?.total ?? 0,
        showSizeChanger: false,
        hideOnSinglePage: true,
        onChange: onPage,
      }}
    />
  );
}
