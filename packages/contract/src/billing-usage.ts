import { z } from 'zod';
import { timeRangeSchema } from './chat-history.ts';
import { defineRoute } from './envelope.ts';
import { apiKeyField, baseUrlField, modelNameField, modelVersionField } from './model-key.ts';
import { text } from './text.ts';

/**
 * Model usage and its fees (docs/billing.md, "Usage"): every model call is listed; calls on a
 * platform model are priced by the catalogue's price per 1 000 tokens, calls with the team's own
 * keys cost nothing here. Prices and fees are integer **milli-fen** (1/1000 fen, ¥0.00001) so a
 * call of a few hundred tokens has an exact fee; the balance is debited in whole fen, the fractions
 * carried to the next call. Operators (OPERATOR_PHONES) manage the catalogue and refund or adjust.
 */
const tag = 'billing';
const base = (action: string) => `/api/athena/v1/billing/${action}`;
const id = text().min(1).max(64);

/** Whether the runtime knows this IANA time zone (the server's and the browser's alike). */
function isTimeZone(zone: string) {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** What made a model call, as the fee records group it. */
export const USAGE_KINDS = ['agent', 'workflow', 'knowledge', 'chat', 'model_key'] as const;
export type UsageKind = (typeof USAGE_KINDS)[number];

/** At most ¥100 per 1 000 tokens: a price above it is a typo. */
export const PRICE_MAX_MILLIFEN = 10_000_000;

export const usageFilterSchema = z.object({
  time: timeRangeSchema.nullable().default(null),
  kind: z.enum(USAGE_KINDS).nullable().default(null),
  model: text().trim().max(200).nullable().default(null),
  /** An agent's or workflow's id (with `kind`). */
  subject_id: text().max(64).nullable().default(null),
  user_id: text().max(64).nullable().default(null),
  /** Only calls that cost money (platform models). */
  paid_only: z.boolean().default(false),
});
export type UsageFilter = z.infer<typeof usageFilterSchema>;

export const usageRecordSchema = z.object({
  id: text(),
  created_at: text(),
  kind: z.enum(USAGE_KINDS),
  /**
   * The agent, workflow or knowledge base, when the call had one (its name as it is now; empty when
   * it was deleted); a workflow's call also names the run that made it.
   */
  subject: z.object({ id, name: text(), run_id: text().nullable() }).nullable(),
  user: z.object({ id, nickname: text() }).nullable(),
  /** The model's version (its id at the provider), as the call sent it. */
  model: text(),
  /**
   * The model's name as pickers show it: the platform model's name, or the team key's model name
   * (as they are now); the version when neither is there any more.
   */
  model_name: text(),
  /** A platform model (priced) or the team's own key (free). */
  platform: z.boolean(),
  input_tokens: z.number().int(),
  output_tokens: z.number().int(),
  /** The exact fee in milli-fen (0 with the team's own key). */
  fee_millifen: z.number().int(),
  outcome: z.enum(['ok', 'error', 'cancelled']),
});
export type UsageRecord = z.infer<typeof usageRecordSchema>;

export const platformModelSchema = z.object({
  id,
  model_name: text(),
  version: text(),
  purpose: z.enum(['chat']),
  /** Milli-fen per 1 000 tokens. */
  input_price: z.number().int(),
  output_price: z.number().int(),
  enabled: z.boolean(),
  /** Operators only: where the platform calls it, and its masked key. */
  base_url: text().nullable(),
  api_key_masked: text().nullable(),
});
export type PlatformModel = z.infer<typeof platformModelSchema>;

export const operatorOrderSchema = z.object({
  id,
  order_no: text(),
  channel: z.enum(['wechat', 'alipay', 'dev']),
  amount: z.number().int(),
  refunded: z.number().int(),
  paid_at: text().nullable(),
});

const price = z.number({ error: 'PRICE_INVALID' }).int({ error: 'PRICE_INVALID' }).min(0, { error: 'PRICE_INVALID' });
const reason = text({ error: 'BILLING_REASON_REQUIRED' })
  .trim()
  .min(1, { error: 'BILLING_REASON_REQUIRED' })
  .max(200, { error: 'BILLING_REASON_REQUIRED' });
const platformModelFields = {
  model_name: modelNameField,
  version: modelVersionField,
  base_url: baseUrlField,
  api_key: apiKeyField,
  input_price: price.max(PRICE_MAX_MILLIFEN, { error: 'PRICE_INVALID' }),
  output_price: price.max(PRICE_MAX_MILLIFEN, { error: 'PRICE_INVALID' }),
  enabled: z.boolean().default(true),
};

export const billingUsageRoutes = {
  usageList: defineRoute({
    path: base('usage/list'),
    body: usageFilterSchema.extend({
      page: z.number().int().min(1).max(10_000).default(1),
      page_size: z.number().int().min(1).max(100).default(20),
    }),
    data: z.object({
      items: z.array(usageRecordSchema),
      total: z.number().int(),
      /** Sum of the fees of every matching call (not just this page). */
      total_fee_millifen: z.number().int(),
      /**
       * What the team's platform-model calls cost beyond what the balance was debited: fractions of
       * a fen carried to the next debit (or a shortfall collected then). The balance does not show it.
       */
      unsettled_millifen: z.number().int(),
    }),
    auth: true,
    summary: "Model calls and their fees (all of the team's for creator and admins, a member's own otherwise)",
    tag,
  }),
  usageDaily: defineRoute({
    path: base('usage/daily'),
    body: usageFilterSchema.extend({
      /** The reader's time zone (IANA), so days start at their midnight. */
      time_zone: text().max(64).refine(isTimeZone, { error: 'BAD_REQUEST' }).default('Asia/Shanghai'),
    }),
    data: z.object({
      days: z.array(z.object({ day: text(), fee_millifen: z.number().int(), calls: z.number().int() })),
    }),
    auth: true,
    summary: 'Fees and calls per day, for the chart',
    tag,
  }),
  platformModels: defineRoute({
    path: base('platform_model/list'),
    body: z.object({}).nullish(),
    data: z.object({ items: z.array(platformModelSchema), is_operator: z.boolean() }),
    auth: true,
    summary: 'The models the platform provides and their prices (operators also see disabled ones)',
    tag,
  }),
  platformModelCreate: defineRoute({
    path: base('operator/platform_model/create'),
    body: z.object(platformModelFields),
    data: platformModelSchema,
    auth: true,
    summary: 'Operators: add a priced platform model',
    tag,
  }),
  platformModelUpdate: defineRoute({
    path: base('operator/platform_model/update'),
    body: z.object({ id, ...platformModelFields, api_key: apiKeyField.optional() }),
    data: platformModelSchema,
    auth: true,
    summary: 'Operators: change a platform model, its price (for later calls) or switch it off',
    tag,
  }),
  operatorLookup: defineRoute({
    path: base('operator/lookup'),
    body: z.object({ query: text().trim().min(1).max(64) }),
    data: z.object({
      space: z.object({ id, name: text(), balance: z.number().int() }),
      /** The team's latest paid recharges, the ones a refund can apply to. */
      orders: z.array(operatorOrderSchema),
    }),
    auth: true,
    summary: 'Operators: a team by its id or one of its order numbers, with its latest paid recharges',
    tag,
  }),
  operatorRefund: defineRoute({
    path: base('operator/refund'),
    body: z.object({ order_id: id, amount: z.number().int().min(1), reason }),
    data: z.object({ refunded: z.number().int(), balance: z.number().int() }),
    auth: true,
    summary: 'Operators: return (part of) a paid recharge to the payer',
    tag,
  }),
  operatorAdjust: defineRoute({
    path: base('operator/adjust'),
    body: z.object({
      space_id: id,
      amount: z
        .number()
        .int()
        .min(-1_000_000_000)
        .max(1_000_000_000)
        .refine((n) => n !== 0),
      reason,
      /** Made up by the form once per adjustment: a retried request adjusts once. */
      request_id: text().min(8).max(64),
    }),
    data: z.object({ balance: z.number().int() }),
    auth: true,
    summary: "Operators: correct a team's balance, with a reason",
    tag,
  }),
};

/** The fee-records export: POST with the usage filter and auth headers; answers text/csv. */
export const USAGE_EXPORT_PATH = base('usage/export');
