import { ExperimentOutlined, PayCircleOutlined } from '@ant-design/icons';
import { billingRoutes, type RechargeStatus } from '@athena/contract';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Flex, Result, Skeleton, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { api, errorText } from '../../lib/api-client.ts';
import { formatClock, formatFen } from '../../lib/format.ts';
import { currentLocale } from '../../lib/i18n.ts';
import { queryClient } from '../../lib/query-client.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import { useNow } from '../../shared/hooks/use-now.ts';
import { LanguageSwitcher } from '../../shared/ui/language-switcher.tsx';

type Shown = RechargeStatus | 'expired';

/** An order that waits to be paid; the page reads it again now and then to show it closing. */
const isOpen = (status: Shown | null) => status === 'created' || status === 'paying';
const REFRESH_MS = 5000;

const STATUS_COLORS: Record<Shown, string> = {
  created: 'processing',
  paying: 'processing',
  paid: 'success',
  closed: 'default',
  failed: 'error',
  expired: 'default',
};

/**
 * The dev cashier (offline installs): the recharge QR of the `dev` channel opens this page, which
 * stands in for a payer's phone. "Pay" settles the order like a provider's notice would; no money
 * moves. Public, like the simulated WeChat scan: whoever holds the link may pay.
 */
export function DevCashierPage() {
  const { t } = useTranslation();
  const locale = currentLocale();
  const { orderNo = '' } = useParams();
  const now = useNow(1000);
  const order = useQuery({
    queryKey: queryKeys.billing.devCashier(orderNo),
    queryFn: () => api(billingRoutes.devCashierGet, { order_no: orderNo }),
    refetchInterval: (query) => (isOpen(query.state.data?.status ?? null) ? REFRESH_MS : false),
    retry: false,
  });
  const pay = useMutation({
    mutationFn: () => api(billingRoutes.devCashierPay, { order_no: orderNo }),
    meta: { errorNotice: false },
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.billing.devCashier(orderNo) }),
  });

  const data = order.data;
  const secondsLeft = data ? Math.max(0, Math.ceil((Date.parse(data.expires_at) - now) / 1000)) : 0;
  // The pay answer is newer than the last read; an open order past its time is as good as closed.
  let status: Shown | null = data?.status ?? null;
  if (pay.data?.status === 'paid') status = 'paid';
  else if (isOpen(status) && secondsLeft === 0) status = 'expired';

  let body = null;
  if (order.isPending) body = <Skeleton active />;
  else if (order.isError || !data) {
    body = (
      <Result
        status="error"
        title={t('billing.devCashier.notFound')}
        subTitle={errorText(order.error, locale)}
        data-testid="dev-cashier-missing"
      />
    );
  } else if (status === 'paid') {
    body = (
      <Result
        status="success"
        title={t('billing.devCashier.paidTitle')}
        subTitle={t('billing.devCashier.paidText', { amount: formatFen(data.amount, locale) })}
        data-testid="dev-cashier-paid"
      />
    );
  } else if (!isOpen(status)) {
    body = (
      <Result
        status="warning"
        title={t('billing.devCashier.closedTitle')}
        subTitle={t('billing.devCashier.closedText')}
        data-testid="dev-cashier-closed"
        data-status={status}
      />
    );
  } else {
    body = (
      <Flex vertical gap={16}>
        <Flex vertical align="center" gap={2}>
          <Typography.Text type="secondary">{t('billing.devCashier.toPay')}</Typography.Text>
          <span
            style={{ fontSize: 40, fontWeight: 600, fontVariantNumeric: 'tabular-nums' }}
            data-testid="dev-cashier-amount"
          >
            {formatFen(data.amount, locale)}
          </span>
        </Flex>
        {pay.isError ? (
          <Alert type="error" showIcon title={errorText(pay.error, locale)} data-testid="dev-cashier-error" />
        ) : null}
        <Button
          type="primary"
          size="large"
          block
          icon={<PayCircleOutlined />}
          loading={pay.isPending}
          onClick={() => pay.mutate()}
          data-testid="dev-cashier-pay"
        >
          {t('billing.devCashier.pay', { amount: formatFen(data.amount, locale) })}
        </Button>
      </Flex>
    );
  }

  return (
    <Flex justify="center" align="center" style={{ minHeight: '100vh', padding: 16, background: '#e9edf3' }}>
      <Card
        data-testid="dev-cashier"
        style={{ width: '100%', maxWidth: 380, borderRadius: 28, boxShadow: '0 16px 48px rgba(15, 23, 42, 0.16)' }}
        styles={{ body: { padding: 24 } }}
      >
        <Flex justify="space-between" align="center">
          <Tag color="orange">{t('billing.devCashier.badge')}</Tag>
          <LanguageSwitcher />
        </Flex>
        <Flex vertical align="center" gap={4} style={{ margin: '16px 0' }}>
          <ExperimentOutlined style={{ fontSize: 40, color: '#fa8c16' }} />
          <Typography.Title level={4} style={{ margin: 0 }}>
            {t('billing.devCashier.title')}
          </Typography.Title>
          <Typography.Text type="secondary" style={{ textAlign: 'center' }}>
            {t('billing.devCashier.intro')}
          </Typography.Text>
        </Flex>
        {body}
        {data ? (
          <Flex vertical gap={12} style={{ marginTop: 20 }}>
            <Flex justify="space-between" align="center" gap={8} wrap>
              <Tag
                color={STATUS_COLORS[status ?? data.status]}
                data-testid="dev-cashier-status"
                data-status={status ?? ''}
              >
                {status === 'expired' ? t('billing.devCashier.expired') : t(`billing.status.${status ?? data.status}`)}
              </Tag>
              {isOpen(status) ? (
                <Typography.Text type="secondary" style={{ fontVariantNumeric: 'tabular-nums' }}>
                  {t('billing.order.expiresIn')} {formatClock(secondsLeft)}
                </Typography.Text>
              ) : null}
            </Flex>
            {/* On its own line: 27 characters do not fit beside a label on a phone. */}
            <Flex vertical gap={2}>
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {t('billing.order.orderNo')}
              </Typography.Text>
              <Typography.Text copyable code style={{ fontSize: 12 }} data-testid="dev-cashier-order-no">
                {data.order_no}
              </Typography.Text>
            </Flex>
          </Flex>
        ) : null}
      </Card>
    </Flex>
  );
}
