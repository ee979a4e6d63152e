import { PlusOutlined, WalletOutlined } from '@ant-design/icons';
import type { BillingSummary } from '@athena/contract';
import { Alert, Button, Card, Flex, Typography, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatFen } from '../../lib/format.ts';
import { currentLocale } from '../../lib/i18n.ts';
import { useUserStore } from '../../stores/user-store.ts';
import { ThresholdControl } from './threshold-control.tsx';

/**
 * The team's balance, the low-balance notice when it is below the team's threshold, the threshold
 * itself (creator and admins change it) and the way to recharge (creator and admins).
 */
export function BalanceCard({ summary, onRecharge }: { summary: BillingSummary; onRecharge: () => void }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const locale = currentLocale();
  // The live stream updates the store before the summary is read again: show the newest.
  const live = useUserStore((s) => s.balance);
  const balance = live ?? summary.balance;
  const threshold = summary.low_balance_threshold;
  const low = threshold !== null && balance < threshold;

  return (
    <Card data-testid="fees-balance-card">
      <Flex vertical gap={16}>
        <Flex justify="space-between" align="flex-end" gap={24} wrap>
          <Flex vertical gap={4}>
            <Typography.Text type="secondary">
              <WalletOutlined style={{ marginInlineEnd: 6 }} />
              {t('billing.balance.title')}
            </Typography.Text>
            <span
              data-testid="fees-balance"
              data-balance={balance}
              style={{
                fontSize: 36,
                fontWeight: 600,
                lineHeight: 1.2,
                fontVariantNumeric: 'tabular-nums',
                color: low ? token.colorWarningText : token.colorText,
              }}
            >
              {formatFen(balance, locale)}
            </span>
            <ThresholdControl threshold={threshold} canManage={summary.can_manage_settings} />
          </Flex>
          {summary.can_recharge ? (
            <Button
              type="primary"
              size="large"
              icon={<PlusOutlined />}
              onClick={onRecharge}
              data-testid="fees-recharge"
            >
              {t('billing.balance.recharge')}
            </Button>
          ) : (
            <Typography.Text type="secondary" style={{ maxWidth: 360 }} data-testid="fees-recharge-note">
              {t('billing.balance.onlyManagers')}
            </Typography.Text>
          )}
        </Flex>
        {low ? (
          <Alert
            type="warning"
            showIcon
            data-testid="fees-low-balance"
            title={t('billing.balance.lowTitle', { threshold: formatFen(threshold, locale) })}
            description={t(summary.can_recharge ? 'billing.balance.lowText' : 'billing.balance.lowTextMember')}
          />
        ) : null}
      </Flex>
    </Card>
  );
}
