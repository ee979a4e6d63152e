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

/** WeCom's errcodes a send meets, by the words that explain them (activation-sender.ts keeps them in the reason). */
type WecomWords = 'busy' | 'frequency' | 'concurrency' | 'sessionState' | 'account' | 'empty' | 'token';
const WECOM_ERRCODES: Record<string, WecomWords | undefined> = {
  '-1': 'busy',
  '45009': 'frequency',
  '45033': 'concurrency',
  '95018': 'sessionState',
  '95000': 'account',
  '44004': 'empty',
  '40014': 'token',
  '42001': 'token',
};
/** What the writer says of a model failure (activation-writer.ts: its own words and the gateway's kinds). */
const MODEL_DETAILS = [
  'empty_answer',
  'placeholder_in_answer',
  'no_agent',
  'auth',
  'model_not_found',
  'blocked_address',
  'timeout',
  'unreachable',
  'rate_limited',
  'server_error',
  'bad_response',
] as const;
type ModelDetail = (typeof MODEL_DETAILS)[number];
const isModelDetail = (details: string): details is ModelDetail =>
  (MODEL_DETAILS as readonly string[]).includes(details);

/** A reason's details in plain words where they are known; WeCom's own words otherwise. */
function detailText(t: TFunction, code: ActivationReason, details: string): string {
  if (code === 'wecom_rejected') {
    const errcode = /errcode (-?\d+)/.exec(details)?.[1];
    if (errcode === undefined) return details;
    const known = WECOM_ERRCODES[errcode];
    return known ? `${t(`userProfile.activation.reasonDetail.wecom.${known}`)} (${errcode})` : details;
  }
  if (code === 'model_failed' && isModelDetail(details)) {
    return t(`userProfile.activation.reasonDetail.model.${details}`, { placeholder: '{{…}}' });
  }
  return details;
}

/** A send's reason (`code` or `code: details`) in words, with the details after it. */
export function reasonText(t: TFunction, reason: string | null): string {
  if (!reason) return '';
  const at = reason.indexOf(':');
  const code = at === -1 ? reason : reason.slice(0, at);
  const details = at === -1 ? '' : reason.slice(at + 1).trim();
  if (!(ACTIVATION_REASONS as readonly string[]).includes(code)) return reason;
  const label = t(`userProfile.activation.reason.${code as ActivationReason}`);
  return details ? `${label} — ${detailText(t, code as ActivationReason, details)}` : label;
}

/** What a customer got, or (not delivered) what was tried; nothing when no message was written. */
export function SendText({ text, delivered }: { text: string | null; delivered: boolean }) {
  const { t } = useTranslation();
  if (!text) return null;
  return (
    <Typography.Paragraph
      type={delivered ? undefined : 'secondary'}
      ellipsis={{ rows: 3, expandable: 'collapsible' }}
      style={{ whiteSpace: 'pre-wrap', marginBottom: 0, fontSize: 13 }}
      data-testid="activation-send-text"
    >
      {delivered ? text : t('userProfile.activation.event.messageNotDelivered', { text })}
    </Typography.Paragraph>
  );
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
