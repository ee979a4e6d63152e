import { LEDGER_ENTRY_KINDS, type LedgerEntryKind } from '@athena/contract';
import { sql } from 'drizzle-orm';
import { bigint, check, index, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from '../../platform/db/columns.ts';
import { users } from '../auth/auth.schema.ts';
import { spaces } from '../space/space.schema.ts';

// Tables of the billing module (docs/billing.md). Other modules may join them in queries.

export type LedgerKind = LedgerEntryKind;

/**
 * Every change of a team's balance, in fen, append-only: a recharge adds, a model call's usage,
 * a refund of a recharge and giving the balance up on dissolving take away, an operator's
 * adjustment does either. `spaces.balance` is the sum of a team's entries, kept with them in one
 * transaction; `balance_after` is that sum right after the entry, so the history reads like a
 * bank statement. `idempotency_key` makes posting the same change twice post it once (an order
 * number, a usage id).
 */
export const ledgerEntries = pgTable(
  'ledger_entries',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    spaceId: uuid('space_id')
      .notNull()
      .references(() => spaces.id),
    kind: text('kind', { enum: LEDGER_ENTRY_KINDS }).notNull(),
    /** Signed fen: positive adds to the balance. */
    amount: bigint('amount', { mode: 'number' }).notNull(),
    balanceAfter: bigint('balance_after', { mode: 'number' }).notNull(),
    idempotencyKey: text('idempotency_key').notNull(),
    /** What the entry is about: an order number, a usage row, a model, an agent… (never money). */
    reference: jsonb('reference').$type<Record<string, string>>().notNull().default({}),
    /** Who caused it, when a person did (a recharge, an operator's adjustment, a dissolve). */
    actorId: uuid('actor_id').references(() => users.id),
    /** An operator's reason for an adjustment or refund. */
    note: text('note').notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('ledger_entries_idempotency_key').on(t.idempotencyKey),
    index('ledger_entries_space_idx').on(t.spaceId, t.createdAt, t.id),
    check('ledger_entries_amount_nonzero', sql`${t.amount} <> 0`),
    check('ledger_entries_kind', sql.raw(`kind in (${LEDGER_ENTRY_KINDS.map((kind) => `'${kind}'`).join(', ')})`)),
  ],
);
