import { sql } from 'drizzle-orm';
import { bigint, bigserial, boolean, check, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from '../../platform/db/columns.ts';
import { spaces } from '../space/space.schema.ts';

// Tables of the billing module (docs/billing.md, "Usage"). Other modules may join them in queries.

/**
 * The models the platform provides, priced per 1 000 tokens in milli-fen (1/1000 fen). Operators
 * manage them; a price change applies to later calls (each usage row keeps the prices it paid).
 */
export const platformModels = pgTable('platform_models', {
  id: uuid('id').primaryKey().defaultRandom(),
  modelName: text('model_name').notNull(),
  version: text('version').notNull(),
  baseUrl: text('base_url').notNull(),
  apiKeyEncrypted: text('api_key_encrypted').notNull(),
  apiKeyMasked: text('api_key_masked').notNull(),
  purpose: text('purpose', { enum: ['chat'] })
    .notNull()
    .default('chat'),
  inputPrice: integer('input_price').notNull(),
  outputPrice: integer('output_price').notNull(),
  enabled: boolean('enabled').notNull().default(true),
  createdAt: createdAt(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * What a team's platform-model calls have cost (`fee_millifen`, exact) and what the ledger has
 * debited for them (`charged_fen`, whole fen). The difference is the fraction of a fen carried to
 * the next call, or a shortfall when a call cost more than the balance held (collected next time).
 */
export const usageAccounts = pgTable('usage_accounts', {
  spaceId: uuid('space_id')
    .primaryKey()
    .references(() => spaces.id, { onDelete: 'cascade' }),
  feeMillifen: bigint('fee_millifen', { mode: 'number' }).notNull().default(0),
  chargedFen: bigint('charged_fen', { mode: 'number' }).notNull().default(0),
});

/**
 * Money set aside for a platform-model call in flight: taken before the call, given back when it
 * is settled. One that outlives `expires_at` (its process died) no longer counts and is removed.
 */
export const usageHolds = pgTable(
  'usage_holds',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    spaceId: uuid('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    amountMillifen: bigint('amount_millifen', { mode: 'number' }).notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('usage_holds_space_idx').on(t.spaceId, t.expiresAt),
    check('usage_holds_amount_positive', sql`${t.amountMillifen} > 0`),
  ],
);
