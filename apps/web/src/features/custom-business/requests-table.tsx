import { PlusOutlined } from '@ant-design/icons';
import { CUSTOM_BUSINESS_STATUSES, type CustomBusinessStatus, type RequestSummary } from '@athena/contract';
import type { UseQueryResult } from '@tanstack/react-query';
import { Alert, Button, Empty, Flex, Select, Table, type TableProps, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../lib/api-client.ts';
import { formatFen } from '../../lib/format.ts';
import { currentLocale } from '../../lib/i18n.ts';
import { dataAttrs } from '../../lib/test-id.ts';
import { RelativeTime } from '../../shared/ui/relative-time.tsx';
import { PAGE_SIZE } from './queries.ts';
import { StatusTag } from './status.tsx';

/** The columns both lists share; the operator list adds the space. */
export function useSummaryColumns<T extends RequestSummary>(extra: TableProps<T>['columns'] = []) {
  const { t } = useTranslation();
  const columns: TableProps<T>['columns'] = [
    {
      key: 'title',
      title: t('customBusiness.list.title'),
      render: (_, row) => (
        <Typography.Link data-testid="cab-row-title" style={{ fontWeight: 500 }}>
          {row.title}
        </Typography.Link>
      ),
    },
    ...extra,
    {
      key: 'scenario',
      title: t('customBusiness.list.scenario'),
      render: (_, row) => t(`customBusiness.scenario.${row.scenario}`),
    },
    {
      key: 'budget',
      title: t('customBusiness.list.budget'),
      render: (_, row) => t(`customBusiness.budget.${row.budget_range}`),
    },
    { key: 'status', title: t('customBusiness.list.status'), render: (_, row) => <StatusTag status={row.status} /> },
    {
      key: 'quote',
      title: t('customBusiness.list.quote'),
      render: (_, row) =>
        row.quote_fen !== null && (row.status === 'quoted' || row.status === 'accepted') ? (
          <span data-testid="cab-row-quote">{formatFen(row.quote_fen, currentLocale())}</span>
        ) : (
          <Typography.Text type="secondary">—</Typography.Text>
        ),
    },
    { key: 'requester', title: t('customBusiness.list.requester'), render: (_, row) => row.requester.nickname },
    {
      key: 'created',
      title: t('customBusiness.list.created'),
      render: (_, row) => <RelativeTime iso={row.created_at} />,
    },
  ];
  return columns;
}

export function StatusFilter({
  value,
  onChange,
  testId,
}: {
  value: CustomBusinessStatus | undefined;
  onChange: (value: CustomBusinessStatus | undefined) => void;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <Select<CustomBusinessStatus | 'all'>
      data-testid={testId}
      style={{ minWidth: 160 }}
      value={value ?? 'all'}
      onChange={(next) => onChange(next === 'all' ? undefined : next)}
      options={[
        { value: 'all' as const, label: t('customBusiness.list.allStatuses') },
        ...CUSTOM_BUSINESS_STATUSES.map((status) => ({ value: status, label: t(`customBusiness.status.${status}`) })),
      ]}
    />
  );
}

type ListQuery = UseQueryResult<{ items: RequestSummary[]; total: number }>;

/** A paged list of requests with its loading, empty and error states; a row opens the drawer. */
export function RequestsTable<T extends RequestSummary>(props: {
  query: UseQueryResult<{ items: T[]; total: number }>;
  columns: TableProps<T>['columns'];
  page: number;
  onPage: (page: number) => void;
  onOpen: (id: string) => void;
  testId: string;
  empty: ReactNode;
}) {
  const { t } = useTranslation();
  const { query } = props;
  if (query.isError && !query.data) {
    return (
      <Alert
        type="error"
        showIcon
        data-testid="cab-error"
        title={t('customBusiness.list.loadFailed')}
        description={errorText(query.error, currentLocale())}
        action={
          <Button size="small" onClick={() => void (query as ListQuery).refetch()}>
            {t('common.retry')}
          </Button>
        }
      />
    );
  }
  return (
    <Table<T>
      data-testid={props.testId}
      rowKey="id"
      size="middle"
      loading={
        query.isFetching && !query.data
          ? { spinning: true, ...dataAttrs({ 'data-testid': 'cab-loading' }) }
          : query.isFetching
      }
      dataSource={query.data?.items ?? []}
      columns={props.columns}
      scroll={{ x: 'max-content' }}
      locale={{ emptyText: query.isPending ? ' ' : props.empty }}
      onRow={(row) => ({
        onClick: () => props.onOpen(row.id),
        style: { cursor: 'pointer' },
        ...dataAttrs({ 'data-testid': `cab-row`, 'data-id': row.id, 'data-status': row.status }),
      })}
      pagination={{
        current: props.page,
        pageSize: PAGE_SIZE,
        total: query.data?.total ?? 0,
        hideOnSinglePage: true,
        showSizeChanger: false,
        onChange: props.onPage,
      }}
    />
  );
}

export function EmptyRequests({ onNew }: { onNew: () => void }) {
  const { t } = useTranslation();
  return (
    <Empty data-testid="cab-empty" description={t('customBusiness.list.empty')}>
      <Button type="primary" icon={<PlusOutlined />} onClick={onNew}>
        {t('customBusiness.newRequest')}
      </Button>
    </Empty>
  );
}

export const Toolbar = ({ children }: { children: ReactNode }) => (
  <Flex wrap gap={12} align="center" justify="space-between" style={{ marginBottom: 12 }}>
    {children}
  </Flex>
);
