import { z } from 'zod';
import { timeRangeSchema } from './chat-history.ts';
import { defineRoute, emptyBody } from './envelope.ts';
import { defineStream } from './stream.ts';
import { text } from './text.ts';

export { RECHARGE_LIMITS } from './billing-limits.ts';

/**
 * The fees center (docs/billing.md): the team's balance and how it moved, recharge orders paid by
 * WeChat Pay, Alipay or (offline installs) the dev cashier, and the live stream that tells the page
 * when an order is paid or the balance changes. Every amount is integer fen.
 */
const tag = 'billing';
const base = (action: string) => `/api/athena/v1/billing/${action}`;

export const PAYMENT_CHANNELS = ['wechat', 'alipay', 'dev'] as const;
export type PaymentChannelName = (typeof PAYMENT_CHANNELS)[number];

export const RECHARGE_STATUSES = ['created', 'paying', 'paid', 'closed', 'failed'] as const;
export type RechargeStatus = (typeof RECHARGE_STATUSES)[number];

/** The low-balance notice: shown below this many fen; null turns it off. At most ¥1,000,000. */
export const LOW_BALANCE_MAX_FEN = 100_000_000;

const id = text().min(1).max(64);
const page = {
  page: z.number().int().min(1).max(10_000).default(1),
  page_size: z.number().int().min(1).max(100).default(20),
};

export const rechargeOrderSchema = z.object({
  id,
  /** Our order number, as the payer's app and the provider's statement show it. */
  order_no: text(),
  channel: z.enum(PAYMENT_CHANNELS),
  amount: z.number().int(),
  status: z.enum(RECHARGE_STATUSES),
  /** What the QR encodes, while the order can be paid. */
  code_url: text().nullable(),
  expires_at: text(),
  created_at: text(),
  paid_at: text().nullable(),
  provider_trade_no: text().nullable(),
  /** Fen returned to the payer so far by operators' refunds. */
  refunded: z.number().int(),
  failure_reason: text().nullable(),
  created_by: z.object({ id, nickname: text() }).nullable(),
});
export type RechargeOrder = z.infer<typeof rechargeOrderSchema>;

export const LEDGER_ENTRY_KINDS = ['recharge', 'usage', 'refund', 'adjustment', 'forfeit'] as const;
export type LedgerEntryKind = (typeof LEDGER_ENTRY_KINDS)[number];

export const ledgerEntrySchema = z.object({
  id: text(),
  kind: z.enum(LEDGER_ENTRY_KINDS),
  /** Signed fen: positive added to the balance. */
  amount: z.number().int(),
  balance_after: z.number().int(),
  /** What it is about: `order_no`, `model`, `source`… */
  reference: z.record(z.string(), z.string()),
  note: text(),
  actor: z.object({ id, nickname: text() }).nullable(),
  created_at: text(),
});
export type LedgerEntryView = z.infer<typeof ledgerEntrySchema>;

export const billingSummarySchema = z.object({
  balance: z.number().int(),
  low_balance_threshold: z.number().int().nullable(),
  /** Channels this installation offers, in the order the dialog shows them. */
  channels: z.array(z.enum(PAYMENT_CHANNELS)),
  can_recharge: z.boolean(),
  can_view_records: z.boolean(),
  can_manage_settings: z.boolean(),
});
export type BillingSummary = z.infer<typeof billingSummarySchema>;

const fenAmount = z.number({ error: 'RECHARGE_AMOUNT_INVALID' }).int({ error: 'RECHARGE_AMOUNT_INVALID' });

export const billingRoutes = {
  summary: defineRoute({
    path: base('summary'),
    body: emptyBody,
    data: billingSummarySchema,
    auth: true,
    summary: "The team's balance, its low-balance threshold and the payment channels on offer",
    tag,
  }),
  rechargeCreate: defineRoute({
    path: base('recharge/create'),
    body: z.object({ amount: fenAmount, channel: z.enum(PAYMENT_CHANNELS) }),
    data: rechargeOrderSchema,
    auth: true,
    summary: 'Start a recharge: an order and the QR code that pays it',
    tag,
  }),
  rechargeGet: defineRoute({
    path: base('recharge/get'),
    body: z.object({ id }),
    data: rechargeOrderSchema,
    auth: true,
    summary: 'One recharge order of the team',
    tag,
  }),
  rechargeCancel: defineRoute({
    path: base('recharge/cancel'),
    body: z.object({ id }),
    data: rechargeOrderSchema,
    auth: true,
    summary: 'Close an unpaid recharge order (a payment that arrives anyway is still credited)',
    tag,
  }),
  rechargeList: defineRoute({
    path: base('recharge/list'),
    body: z.object({
      ...page,
      status: z.enum(RECHARGE_STATUSES).nullable().default(null),
      time: timeRangeSchema.nullable().default(null),
    }),
    data: z.object({ items: z.array(rechargeOrderSchema), total: z.number().int() }),
    auth: true,
    summary: "The team's recharge orders, newest first",
    tag,
  }),
  ledgerList: defineRoute({
    path: base('ledger/list'),
    body: z.object({
      ...page,
      kind: z.enum(LEDGER_ENTRY_KINDS).nullable().default(null),
      time: timeRangeSchema.nullable().default(null),
    }),
    data: z.object({ items: z.array(ledgerEntrySchema), total: z.number().int() }),
    auth: true,
    summary: "Every change of the team's balance, newest first",
    tag,
  }),
  settingsUpdate: defineRoute({
    path: base('settings/update'),
    body: z.object({
      low_balance_threshold: z.number().int().min(0).max(LOW_BALANCE_MAX_FEN).nullable(),
    }),
    data: billingSummarySchema,
    auth: true,
    summary: 'Set or turn off the low-balance notice',
    tag,
  }),
  devCashierGet: defineRoute({
    path: base('dev-cashier/get'),
    body: z.object({ order_no: text().min(1).max(64) }),
    data: z.object({
      order_no: text(),
      amount: z.number().int(),
      status: z.enum(RECHARGE_STATUSES),
      expires_at: text(),
    }),
    auth: false,
    summary: 'The dev cashier (offline installs): what an order asks to be paid',
    tag,
  }),
  devCashierPay: defineRoute({
    path: base('dev-cashier/pay'),
    body: z.object({ order_no: text().min(1).max(64) }),
    data: z.object({ status: z.enum(RECHARGE_STATUSES) }),
    auth: false,
    summary: 'The dev cashier (offline installs): pay an order as a payer would',
    tag,
  }),
};

/** Where a provider posts its payment notifications: `<prefix><channel>`, signed on the raw body. */
export const PAYMENT_NOTIFY_PATH_PREFIX = '/hooks/pay/';

/**
 * Live billing news for the team: `balance` whenever it changed, `order` whenever one of its
 * recharge orders changed state. After a while the server says `bye`; the reader reconnects.
 */
export const billingLiveStream = defineStream({
  path: base('live'),
  body: emptyBody,
  events: {
    balance: z.object({ balance: z.number().int() }),
    order: z.object({ id, status: z.enum(RECHARGE_STATUSES) }),
    bye: z.object({}),
  },
  framing: 'event',
  end: 'bye',
  auth: true,
  summary: "Live changes of the team's balance and recharge orders (server-sent events)",
  tag,
});
