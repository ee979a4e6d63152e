import { billingUsageRoutes, type RouteData } from '@athena/contract';
import { useQuery } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Card,
  Descriptions,
  Divider,
  Empty,
  Flex,
  Input,
  Skeleton,
  Table,
  type TableProps,
  Typography,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, errorText } from '../../lib/api-client.ts';
import { formatFen } from '../../lib/format.ts';
import { currentLocale } from '../../lib/i18n.ts';
import { queryClient } from '../../lib/query-client.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import { userTime } from '../../lib/user-time.ts';
import { useModalSession } from '../../shared/hooks/use-modal-session.ts';
import { AdjustForm } from './adjust-form.tsx';
import { ChannelName } from './billing-tags.tsx';
import { RefundModal, type RefundTarget } from './refund-modal.tsx';

type OperatorOrder = RouteData<typeof billingUsageRoutes.operatorLookup>['orders'][number];

/**
 * Find a team by its id or one of its order numbers (operators), then refund one of its paid
 * recharges or correct its balance.
 */
export function OperatorLookup() {
  const { t } = useTranslation();
  const locale = currentLocale();
  const [typed, setTyped] = useState('');
  const [query, setQuery] = useState('');
  const refund = useModalSession<RefundTarget | null>(null);
  const found = useQuery({
    queryKey: queryKeys.billing.operatorLookup(query),
    queryFn: () => api(billingUsageRoutes.operatorLookup, { query }),
    enabled: query !== '',
    staleTime: 0,
  });
  const reload = () => queryClient.invalidateQueries({ queryKey: queryKeys.billing.operatorLookup(query) });

  const columns: TableProps<OperatorOrder>['columns'] = [
    {
      key: 'no',
      title: t('billing.recharges.columns.orderNo'),
      render: (_, row) => (
        <Typography.Text copyable code>
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
      render: (_, row) => formatFen(row.amount, locale),
    },
    {
      key: 'refunded',
      title: t('billing.recharges.columns.refunded'),
      align: 'right',
      render: (_, row) => formatFen(row.refunded, locale),
    },
    {
      key: 'paid',
      title: t('billing.recharges.columns.paid'),
      render: (_, row) => (row.paid_at ? userTime(row.paid_at).format('YYYY-MM-DD HH:mm') : '—'),
    },
    {
      key: 'refund',
      title: '',
      render: (_, row) => (
        <Button
          size="small"
          danger
          disabled={row.refunded >= row.amount}
          onClick={() => refund.show({ id: row.id, orderNo: row.order_no, refundable: row.amount - row.refunded })}
          data-testid="operator-refund"
        >
          {t('billing.operator.refund.button')}
        </Button>
      ),
    },
  ];

  let result = null;
  if (found.isError) {
    result = (
      <Alert type="warning" showIcon title={errorText(found.error, locale)} data-testid="operator-lookup-error" />
    );
  } else if (found.isFetching && !found.data) {
    result = <Skeleton active />;
  } else if (found.data) {
    const { space, orders } = found.data;
    result = (
      <Flex vertical gap={12} data-testid="operator-lookup-result">
        <Descriptions
          size="small"
          bordered
          column={{ xs: 1, md: 3 }}
          items={[
            { key: 'name', label: t('billing.operator.lookup.team'), children: space.name },
            {
              key: 'id',
              label: t('billing.operator.lookup.teamId'),
              children: (
                <Typography.Text copyable code>
                  {space.id}
                </Typography.Text>
              ),
            },
            {
              key: 'balance',
              label: t('billing.balance.title'),
              children: <strong data-testid="operator-lookup-balance">{formatFen(space.balance, locale)}</strong>,
            },
          ]}
        />
        <Typography.Text strong>{t('billing.operator.lookup.orders')}</Typography.Text>
        <Table<OperatorOrder>
          rowKey="id"
          size="small"
          columns={columns}
          dataSource={orders}
          pagination={false}
          scroll={{ x: 'max-content' }}
          locale={{
            emptyText: (
              <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('billing.operator.lookup.noOrders')} />
            ),
          }}
        />
        <Divider style={{ margin: '8px 0' }} />
        <Typography.Text strong>{t('billing.operator.adjust.title')}</Typography.Text>
        <AdjustForm key={space.id} space={space} onDone={() => void reload()} />
        <RefundModal
          key={refund.key}
          open={refund.open}
          target={refund.value}
          onClose={refund.close}
          onDone={() => void reload()}
        />
      </Flex>
    );
  }

  return (
    <Card size="small" title={t('billing.operator.lookup.title')} data-testid="operator-lookup">
      <Flex vertical gap={16}>
        <Input.Search
          value={typed}
          onChange={(event) => setTyped(event.target.value)}
          onSearch={(value) => setQuery(value.trim())}
          enterButton={t('billing.operator.lookup.search')}
          placeholder={t('billing.operator.lookup.placeholder')}
          maxLength={64}
          allowClear
          style={{ maxWidth: 520 }}
          data-testid="operator-lookup-input"
        />
        {result}
      </Flex>
    </Card>
  );
}
