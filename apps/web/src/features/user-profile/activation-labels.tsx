import {
  ACTIVATION_REASONS,
  type ActivationEventStatus,
  type ActivationReason,
  type ActivationSendState,
} from '@athena/contract';
import { Tag, Typography } from 'antd';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';

const STATUS_COLOR: Record<ActivationEventStatus, string> = {
  scheduled: 'blue',
  sending: 'processing',
  done: 'success',
  cancelled: 'default',
};
const STATE_COLOR: Record<ActivationSendState, string> = { pending: 'processing', sent: 'success', failed: 'error' };

export function EventStatusTag({ status }: { status: ActivationEventStatus }) {
  const { t } = useTranslation();
  return (
    <Tag color={STATUS_COLOR[status]} data-testid={`activation-status-${status}`}>
      {t(`userProfile.activation.status.${status}`)}
    </Tag>
  );
}

export function SendStateTag({ state }: { state: ActivationSendState }) {
  const { t } = useTranslation();
  return <Tag color={STATE_COLOR[state]}>{t(`userProfile.activation.state.${state}`)}</Tag>;
}

/** A send's reason (`code` or `code: details`) in words, with the details after it. */
export function reasonText(t: TFunction, reason: string | null): string {
  if (!reason) return '';
  const at = reason.indexOf(':');
  const code = at === -1 ? reason : reason.slice(0, at);
  const details = at === -1 ? '' : reason.slice(at + 1).trim();
  if (!(ACTIVATION_REASONS as readonly string[]).includes(code)) return reason;
  const label = t(`userProfile.activation.reason.${code as ActivationReason}`);
  return details ? `${label} — ${details}` : label;
}

export function SendReason({ reason, pending }: { reason: string | null; pending: boolean }) {
  const { t } = useTranslation();
  if (!reason) return null;
  const text = reasonText(t, reason);
  return (
    <Typography.Text type={pending ? 'warning' : 'danger'} style={{ fontSize: 12 }}>
      {pending ? t('userProfile.activation.retrying', { reason: text }) : text}
    </Typography.Text>
  );
}
