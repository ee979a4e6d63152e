import { PAYMENT_CHANNELS, RECHARGE_STATUSES } from '@athena/contract';
import { sql } from 'drizzle-orm';
import { bigint, check, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from '../../platform/db/columns.ts';
import { users } from '../auth/auth.schema.ts';
import { spaces } from '../space/space.schema.ts';

// Tables of the billing module (docs/billing.md). Other modules may join them in queries.

/**
 * A recharge order: created → paying (the provider gave a QR) → paid (the credit is in the
 * ledger, in the same transaction) | closed (expired or cancelled) | failed (the provider refused
 * it). A payment the provider confirms for a closed or failed order is still credited: the money
 * arrived. `out_trade_no` is what the provider files it under.
 */
export const rechargeOrders = pgTable(
  'recharge_orders',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    spaceId: uuid('space_id')
      .notNull()
      .references(() => spaces.id),
    outTradeNo: text('out_trade_no').notNull(),
    channel: text('channel', { enum: PAYMENT_CHANNELS }).notNull(),
    amount: bigint('amount', { mode: 'number' }).notNull(),
    status: text('status', { enum: RECHARGE_STATUSES }).notNull().default('created'),
    codeUrl: text('code_url'),
    providerTradeNo: text('provider_trade_no'),
    refunded: bigint('refunded', { mode: 'number' }).notNull().default(0),
    failureReason: text('failure_reason'),
    createdBy: uuid('created_by').references(() => users.id),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    /** When the reconciliation job last asked the provider; orders are asked in this order. */
    checkedAt: timestamp('checked_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('recharge_orders_out_trade_no').on(t.outTradeNo),
    index('recharge_orders_space_idx').on(t.spaceId, t.createdAt),
    // The reconciliation job's work list: orders still waiting for their payment.
    index('recharge_orders_open_idx').on(t.checkedAt).where(sql`status in ('created', 'paying')`),
    check('recharge_orders_amount_positive', sql`${t.amount} > 0`),
    check('recharge_orders_status', sql.raw(`status in (${RECHARGE_STATUSES.map((v) => `'${v}'`).join(', ')})`)),
    check('recharge_orders_channel', sql.raw(`channel in (${PAYMENT_CHANNELS.map((v) => `'${v}'`).join(', ')})`)),
    check('recharge_orders_refunded_range', sql`${t.refunded} >= 0 and ${t.refunded} <= ${t.amount}`),
  ],
);

/** Per-team billing settings. */
export const billingSettings = pgTable('billing_settings', {
  spaceId: uuid('space_id')
    .primaryKey()
    .references(() => spaces.id, { onDelete: 'cascade' }),
  /** Fen; below it the pages show a low-balance notice. Null: no notice. */
  lowBalanceThreshold: bigint('low_balance_threshold', { mode: 'number' }),
});
