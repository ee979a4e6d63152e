import { AlipayCircleOutlined, ExperimentOutlined, WechatOutlined } from '@ant-design/icons';
import type { LedgerEntryKind, PaymentChannelName, RechargeStatus, UsageKind } from '@athena/contract';
import { Space, Tag } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

const CHANNEL_ICONS: Record<PaymentChannelName, ReactNode> = {
  wechat: <WechatOutlined style={{ color: '#07c160' }} />,
  alipay: <AlipayCircleOutlined style={{ color: '#1677ff' }} />,
  dev: <ExperimentOutlined style={{ color: '#fa8c16' }} />,
};

export const channelIcon = (channel: PaymentChannelName) => CHANNEL_ICONS[channel];

/** WeChat Pay / Alipay / Dev cashier, with its icon. */
export function ChannelName({ channel }: { channel: PaymentChannelName }) {
  const { t } = useTranslation();
  return (
    <Space size={6}>
      {CHANNEL_ICONS[channel]}
      {t(`billing.channel.${channel}`)}
    </Space>
  );
}

const STATUS_COLORS: Record<RechargeStatus, string> = {
  created: 'default',
  paying: 'processing',
  paid: 'success',
  closed: 'default',
  failed: 'error',
};

export function RechargeStatusTag({ status }: { status: RechargeStatus }) {
  const { t } = useTranslation();
  return (
    <Tag color={STATUS_COLORS[status]} data-testid="recharge-status-tag" data-status={status}>
      {t(`billing.status.${status}`)}
    </Tag>
  );
}

const LEDGER_COLORS: Record<LedgerEntryKind, string> = {
  recharge: 'success',
  usage: 'blue',
  refund: 'warning',
  adjustment: 'gold',
  forfeit: 'default',
};

export function LedgerKindTag({ kind }: { kind: LedgerEntryKind }) {
  const { t } = useTranslation();
  return (
    <Tag color={LEDGER_COLORS[kind]} data-testid="ledger-kind" data-kind={kind}>
      {t(`billing.ledgerKind.${kind}`)}
    </Tag>
  );
}

export function UsageKindTag({ kind }: { kind: UsageKind }) {
  const { t } = useTranslation();
  return <Tag bordered={false}>{t(`billing.usageKind.${kind}`)}</Tag>;
}
