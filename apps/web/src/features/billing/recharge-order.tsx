import { ClockCircleOutlined, ExportOutlined } from '@ant-design/icons';
import { billingRoutes, type RechargeOrder } from '@athena/contract';
import { Button, Descriptions, Flex, QRCode, Result, Spin, Typography, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatClock, formatFen } from '../../lib/format.ts';
import { currentLocale } from '../../lib/i18n.ts';
import { isExternalUrl } from '../../lib/navigation.ts';
import { queryClient } from '../../lib/query-client.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import { useApiMutation } from '../../shared/hooks/use-api-mutation.ts';
import { useNow } from '../../shared/hooks/use-now.ts';
import { useUserStore } from '../../stores/user-store.ts';
import { ChannelName } from './billing-tags.tsx';
import { isOpenOrder, useRechargeOrder } from './use-recharge-order.ts';

interface Props {
  spaceId: string;
  initial: RechargeOrder;
  onRestart: () => void;
  onClose: () => void;
}

/** Paid: what was credited and the balance now (kept live by the stream). */
function Paid({ order, onRestart, onClose }: { order: RechargeOrder } & Omit<Props, 'spaceId' | 'initial'>) {
  const { t } = useTranslation();
  const locale = currentLocale();
  const balance = useUserStore((s) => s.balance);
  return (
    <Result
      status="success"
      data-testid="recharge-paid"
      title={t('billing.order.paidTitle')}
      subTitle={
        <Flex vertical gap={4} align="center">
          <span>{t('billing.order.paidText', { amount: formatFen(order.amount, locale) })}</span>
          {balance === null ? null : (
            <Typography.Text strong data-testid="recharge-new-balance">
              {t('billing.order.newBalance', { balance: formatFen(balance, locale) })}
            </Typography.Text>
          )}
        </Flex>
      }
      extra={[
        <Button key="again" onClick={onRestart} data-testid="recharge-again">
          {t('billing.order.again')}
        </Button>,
        <Button key="done" type="primary" onClick={onClose} data-testid="recharge-done">
          {t('billing.order.done')}
        </Button>,
      ]}
    />
  );
}

/**
 * Step two: the order's QR (and, for the dev cashier, a link to its page), the order number and
 * the time left, while it waits for the payment; then paid, or closed / failed with a new start.
 */
export function RechargeOrderView({ spaceId, initial, onRestart, onClose }: Props) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const locale = currentLocale();
  const now = useNow(1000);
  const { data: order } = useRechargeOrder(spaceId, initial);
  const cancel = useApiMutation(billingRoutes.rechargeCancel);
  const secondsLeft = Math.max(0, Math.ceil((Date.parse(order.expires_at) - now) / 1000));
  // The server closes an expired order on its next read; the dialog need not wait for it.
  const expired = isOpenOrder(order.status) && secondsLeft === 0;

  if (order.status === 'paid') return <Paid order={order} onRestart={onRestart} onClose={onClose} />;
  if (!isOpenOrder(order.status) || expired) {
    const failed = order.status === 'failed';
    return (
      <Result
        status={failed ? 'error' : 'warning'}
        data-testid="recharge-ended"
        data-status={expired ? 'expired' : order.status}
        title={t(
          failed ? 'billing.order.failedTitle' : expired ? 'billing.order.expiredTitle' : 'billing.order.closedTitle',
        )}
        subTitle={failed && order.failure_reason ? order.failure_reason : t('billing.order.endedText')}
        extra={[
          <Button key="close" onClick={onClose}>
            {t('billing.order.close')}
          </Button>,
          <Button key="restart" type="primary" onClick={onRestart} data-testid="recharge-restart">
            {t('billing.order.restart')}
          </Button>,
        ]}
      />
    );
  }

  const codeUrl = order.code_url ?? '';
  const closeOrder = async () => {
    try {
      const closed = await cancel.mutateAsync({ id: order.id });
      queryClient.setQueryData(queryKeys.billing.order(spaceId, order.id), closed);
    } catch {
      // The failure's notice is already showing.
    }
  };

  return (
    <Flex vertical align="center" gap={16} data-testid="recharge-order" data-status={order.status}>
      <Typography.Text style={{ fontSize: 28, fontWeight: 600 }} data-testid="recharge-order-amount">
        {formatFen(order.amount, locale)}
      </Typography.Text>
      <QRCode
        value={codeUrl || '-'}
        status={codeUrl ? 'active' : 'loading'}
        size={200}
        data-testid="recharge-qr"
        data-url={codeUrl}
      />
      <Typography.Text type="secondary" style={{ textAlign: 'center' }}>
        {t(`billing.order.scan.${order.channel}`)}
      </Typography.Text>
      {order.channel === 'dev' && isExternalUrl(codeUrl) ? (
        <Typography.Link href={codeUrl} target="_blank" rel="noopener noreferrer" data-testid="recharge-dev-link">
          <ExportOutlined style={{ marginInlineEnd: 6 }} />
          {t('billing.order.openDevCashier')}
        </Typography.Link>
      ) : null}
      <Flex align="center" gap={8} style={{ color: token.colorPrimary }} data-testid="recharge-waiting">
        <Spin size="small" />
        <span>{t('billing.order.waiting')}</span>
      </Flex>
      <Descriptions
        size="small"
        column={1}
        bordered
        style={{ width: '100%' }}
        items={[
          {
            key: 'no',
            label: t('billing.order.orderNo'),
            children: (
              <Typography.Text copyable code data-testid="recharge-order-no">
                {order.order_no}
              </Typography.Text>
            ),
          },
          { key: 'channel', label: t('billing.order.channel'), children: <ChannelName channel={order.channel} /> },
          {
            key: 'expires',
            label: t('billing.order.expiresIn'),
            children: (
              <span data-testid="recharge-countdown" style={{ fontVariantNumeric: 'tabular-nums' }}>
                <ClockCircleOutlined style={{ marginInlineEnd: 6 }} />
                {formatClock(secondsLeft)}
              </span>
            ),
          },
        ]}
      />
      <Flex justify="space-between" style={{ width: '100%' }}>
        <Button danger loading={cancel.isPending} onClick={() => void closeOrder()} data-testid="recharge-cancel">
          {t('billing.order.cancel')}
        </Button>
        <Button onClick={onClose}>{t('billing.order.later')}</Button>
      </Flex>
    </Flex>
  );
}
