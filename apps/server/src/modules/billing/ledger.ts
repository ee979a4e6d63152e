import { formatFen } from '@athena/contract';
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.ts';
import { rowsOf, type Tx } from '../../platform/db/sql.ts';
import { AppError } from '../../platform/http/app-error.ts';
import { spaces } from '../space/space.schema.ts';
import type { BillingNews } from './billing-news.ts';
import { type LedgerKind, ledgerEntries } from './ledger.schema.ts';

/** A change of a team's balance (docs/billing.md, "Ledger"). */
export interface Posting {
  spaceId: string;
  kind: LedgerKind;
  /** Signed whole fen, not zero: positive adds to the balance. */
  amount: number;
  /** The same key posts once: `recharge:<order>`, `usage:<id>`, `forfeit:<space>`… */
  idempotencyKey: string;
  reference?: Record<string, string>;
  actorId?: string | null;
  note?: string;
}

export type LedgerEntry = typeof ledgerEntries.$inferSelect;

/** No entry may leave a balance below this: the platform gives no credit. */
export const BALANCE_FLOOR = 0;

/**
 * The ledger of team balances: the only writer of `spaces.balance`. An entry and the balance it
 * leaves are written in one transaction, under a lock on the team's row, so concurrent postings
 * on one team queue and none is lost; an entry whose key was posted before returns that entry
 * and changes nothing. Nothing may take the balance below BALANCE_FLOOR.
 */
export function createLedger(deps: { db: Db; news: Pick<BillingNews, 'balance'> }) {
  const { db } = deps;

  async function postIn(tx: Tx, posting: Posting): Promise<{ entry: LedgerEntry; posted: boolean }> {
    if (!Number.isSafeInteger(posting.amount) || posting.amount === 0) {
      throw new Error(`a ledger amount is a whole, non-zero number of fen (got ${posting.amount})`);
    }
    const [space] = rowsOf<{ balance: number | string }>(
      await tx.execute(sql`select balance from spaces where id = ${posting.spaceId}::uuid for update`),
    );
    if (!space) throw new Error(`no space ${posting.spaceId} to post to`);
    const [earlier] = await tx
      .select()
      .from(ledgerEntries)
      .where(eq(ledgerEntries.idempotencyKey, posting.idempotencyKey));
    if (earlier) {
      const same =
        earlier.spaceId === posting.spaceId && earlier.kind === posting.kind && earlier.amount === posting.amount;
      if (!same) throw new Error(`ledger key ${posting.idempotencyKey} was posted for another change`);
      return { entry: earlier, posted: false };
    }
    const balance = Number(space.balance);
    const after = balance + posting.amount;
    if (after < BALANCE_FLOOR) {
      throw new AppError('BALANCE_INSUFFICIENT', { balance: formatFen(balance), amount: formatFen(-posting.amount) });
    }
    const [entry] = await tx
      .insert(ledgerEntries)
      .values({
        spaceId: posting.spaceId,
        kind: posting.kind,
        amount: posting.amount,
        balanceAfter: after,
        idempotencyKey: posting.idempotencyKey,
        reference: posting.reference ?? {},
        actorId: posting.actorId ?? null,
        note: posting.note ?? '',
      })
      .returning();
    await tx.update(spaces).set({ balance: after }).where(eq(spaces.id, posting.spaceId));
    return { entry, posted: true };
  }

  return {
    /**
     * Posts one entry in its own transaction, and tells the team's cached readers once committed.
     */
    async post(posting: Posting) {
      const result = await db.transaction((tx) => postIn(tx, posting));
      if (result.posted) await deps.news.balance(posting.spaceId);
      return result;
    },

    /**
     * Posts one entry in the caller's transaction, whose other writes then stand or fall with it.
     * The caller tells `news.balance` after committing (the cached balance changed).
     */
    postIn,

    /**
     * Teams whose cached balance is not the sum of their entries. Never any, unless something
     * wrote `spaces.balance` around the ledger: the scheduled check reports them as an alarm.
     */
    async drift() {
      return rowsOf<{ space_id: string; balance: number | string; ledger: number | string }>(
        await db.execute(sql`
          select s.id as space_id, s.balance, coalesce(l.total, 0) as ledger
          from spaces s
          left join (select space_id, sum(amount) as total from ledger_entries group by space_id) l
            on l.space_id = s.id
          where s.balance <> coalesce(l.total, 0)`),
      ).map((row) => ({ spaceId: row.space_id, balance: Number(row.balance), ledger: Number(row.ledger) }));
    },
  };
}

export type Ledger = ReturnType<typeof createLedger>;
