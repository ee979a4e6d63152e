import { AuditOutlined, BarChartOutlined, FileTextOutlined, WalletOutlined } from '@ant-design/icons';
import { Button, Card, Empty, Flex, Result, Skeleton, Tabs } from 'antd';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { errorText } from '../../lib/api-client.ts';
import { currentLocale } from '../../lib/i18n.ts';
import { useSpaceId } from '../../shared/hooks/use-current-space.ts';
import { PageHeader } from '../../shared/ui/page-header.tsx';
import { BalanceCard } from './balance-card.tsx';
import { useBillingSummary, usePlatformModels } from './billing-queries.ts';
import { LedgerTab } from './ledger-tab.tsx';
import { OperatorTab } from './operator-tab.tsx';
import { RechargeDialog } from './recharge-dialog.tsx';
import { RechargesTab } from './recharges-tab.tsx';
import { UsageTab } from './usage-tab.tsx';

const TABS = ['usage', 'recharges', 'ledger', 'operator'] as const;
type TabKey = (typeof TABS)[number];

/**
 * /fees-center: the team's balance (with recharge and the low-balance notice), its fee records,
 * recharges and statement, and for platform operators the catalogue, refunds and corrections.
 * What shows follows the summary's can_* flags; the server checks them again.
 */
export function FeesCenterPage() {
  const { t } = useTranslation();
  const spaceId = useSpaceId();
  const summary = useBillingSummary(spaceId);
  const models = usePlatformModels(spaceId);
  const [params, setParams] = useSearchParams();
  const [recharging, setRecharging] = useState(false);

  const heading = <PageHeader title={t('routes.feesCenter')} subtitle={t('pageIntro.feesCenter')} />;
  if (!spaceId) {
    return (
      <Flex vertical gap={16} data-testid="page-feesCenter">
        {heading}
        <Card>
          <Empty description={t('dashboard.noSpace')} />
        </Card>
      </Flex>
    );
  }
  if (summary.isError) {
    return (
      <Flex vertical gap={16} data-testid="page-feesCenter">
        {heading}
        <Card>
          <Result
            status="warning"
            title={t('billing.loadFailed')}
            subTitle={errorText(summary.error, currentLocale())}
            extra={
              <Button type="primary" onClick={() => void summary.refetch()} data-testid="fees-retry">
                {t('common.retry')}
              </Button>
            }
            data-testid="fees-error"
          />
        </Card>
      </Flex>
    );
  }
  if (!summary.data) {
    return (
      <Flex vertical gap={16} data-testid="page-feesCenter">
        {heading}
        <Card>
          <Skeleton active data-testid="fees-loading" />
        </Card>
      </Flex>
    );
  }

  const data = summary.data;
  const isOperator = models.data?.is_operator === true;
  const allowed: Record<TabKey, boolean> = {
    usage: true,
    recharges: data.can_view_records,
    ledger: data.can_view_records,
    operator: isOperator,
  };
  const asked = params.get('tab');
  const tab: TabKey = TABS.find((key) => key === asked && allowed[key]) ?? 'usage';
  const label = (key: TabKey, icon: ReactNode) => ({
    key,
    icon,
    label: <span data-testid={`fees-tab-${key}`}>{t(`billing.tabs.${key}`)}</span>,
  });

  return (
    <Flex vertical gap={16} data-testid="page-feesCenter">
      {heading}
      <BalanceCard summary={data} onRecharge={() => setRecharging(true)} />
      <Card styles={{ body: { paddingTop: 4 } }}>
        <Tabs
          activeKey={tab}
          destroyOnHidden
          onChange={(key) =>
            setParams(
              (current) => {
                const next = new URLSearchParams(current);
                if (key === 'usage') next.delete('tab');
                else next.set('tab', key);
                return next;
              },
              { replace: true },
            )
          }
          items={[
            { ...label('usage', <BarChartOutlined />), children: <UsageTab spaceId={spaceId} summary={data} /> },
            ...(allowed.recharges
              ? [{ ...label('recharges', <WalletOutlined />), children: <RechargesTab spaceId={spaceId} /> }]
              : []),
            ...(allowed.ledger
              ? [{ ...label('ledger', <FileTextOutlined />), children: <LedgerTab spaceId={spaceId} /> }]
              : []),
            ...(allowed.operator
              ? [{ ...label('operator', <AuditOutlined />), children: <OperatorTab spaceId={spaceId} /> }]
              : []),
          ]}
        />
      </Card>
      {data.can_recharge ? (
        <RechargeDialog
          open={recharging}
          spaceId={spaceId}
          channels={data.channels}
          onClose={() => setRecharging(false)}
        />
      ) : null}
    </Flex>
  );
}
