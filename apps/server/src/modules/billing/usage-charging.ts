import { formatFen, millifenToFen } from '@athena/contract';
import { and, eq, gt, lte, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.ts';
import { rowsOf, type Tx } from '../../platform/db/sql.ts';
import { AppError } from '../../platform/http/app-error.ts';
import type { UsageCharging } from '../../platform/llm/pricing.ts';
import type { BillingNews } from './billing-news.ts';
import type { Ledger } from './ledger.ts';
import { usageAccounts, usageHolds } from './usage-charge.schema.ts';

/** A hold outlives its call only when the process died: the longest call, retries included, and some. */
export const HOLD_TTL_MS = 15 * 60_000;

/**
 * Charges platform-model calls (docs/billing.md, "Usage"). Each call's exact fee, in milli-fen, is
 * added to the team's usage account; the ledger is debited the whole fen that total has reached,
 * so fractions of a fen carry to the next call instead of being rounded up on each. Before a call,
 * a hold sets its most expensive outcome aside: what the team can spend is its balance less its
 * holds and any fee not yet collected, and a call that cannot be covered is refused.
 */
export function createUsageCharging(deps: { db: Db; ledger: Ledger; news: BillingNews; now: () => Date }) {
  const { db, ledger, news } = deps;

  /**
   * Locks the team's row (the ledger's lock: postings and holds queue on it), then reads its
   * account. Two statements on purpose: a row locked after waiting is re-read, but columns joined
   * to it in the same statement would come from before the wait (a lost update on PostgreSQL).
   */
  async function lockedAccount(tx: Tx, spaceId: string) {
    const [space] = rowsOf<{ balance: number | string }>(
      await tx.execute(sql`select balance from spaces where id = ${spaceId}::uuid for update`),
    );
    if (!space) throw new Error(`no space ${spaceId} to charge`);
    const [account] = await tx
      .select({ fee: usageAccounts.feeMillifen, charged: usageAccounts.chargedFen })
      .from(usageAccounts)
      .where(eq(usageAccounts.spaceId, spaceId));
    return { balance: Number(space.balance), fee: account?.fee ?? 0, charged: account?.charged ?? 0 };
  }

  const charging: UsageCharging = {
    async hold(spaceId, amountMillifen) {
      return db.transaction(async (tx) => {
        const account = await lockedAccount(tx, spaceId);
        const now = deps.now();
        const [held] = await tx
          .select({ total: sql<string>`coalesce(sum(${usageHolds.amountMillifen}), 0)` })
          .from(usageHolds)
          .where(and(eq(usageHolds.spaceId, spaceId), gt(usageHolds.expiresAt, now)));
        const uncollected = account.fee - account.charged * 1000;
        const available = account.balance * 1000 - Number(held?.total ?? 0) - uncollected;
        if (amountMillifen > available) {
          throw new AppError('MODEL_BALANCE_INSUFFICIENT', {
            // Whole fen for people: what is there rounded down, what is needed rounded up.
            available: formatFen(millifenToFen(Math.max(0, available), 'down')),
            hold: formatFen(millifenToFen(amountMillifen, 'up')),
          });
        }
        const [hold] = await tx
          .insert(usageHolds)
          .values({ spaceId, amountMillifen, createdAt: now, expiresAt: new Date(now.getTime() + HOLD_TTL_MS) })
          .returning({ id: usageHolds.id });
        return hold.id;
      });
    },

    async settle(holdId, charge) {
      const debited = await db.transaction(async (tx) => {
        const account = await lockedAccount(tx, charge.spaceId);
        if (holdId !== null) await tx.delete(usageHolds).where(eq(usageHolds.id, holdId));
        if (charge.feeMillifen === 0) return 0;
        const fee = account.fee + charge.feeMillifen;
        // Whole fen owed so far, less what was collected; never more than the balance (the rest
        // stays owed and is collected by the next call, which its hold must cover first).
        const debit = Math.min(Math.floor(fee / 1000) - account.charged, account.balance);
        if (debit > 0) {
          await ledger.postIn(tx, {
            spaceId: charge.spaceId,
            kind: 'usage',
            amount: -debit,
            idempotencyKey: `usage:${charge.usageId}`,
            reference: { usage_id: String(charge.usageId), model: charge.model },
          });
        }
        await tx
          .insert(usageAccounts)
          .values({ spaceId: charge.spaceId, feeMillifen: fee, chargedFen: account.charged + Math.max(debit, 0) })
          .onConflictDoUpdate({
            target: usageAccounts.spaceId,
            set: { feeMillifen: fee, chargedFen: account.charged + Math.max(debit, 0) },
          });
        return debit;
      });
      if (debited > 0) await news.balance(charge.spaceId);
    },

    async release(holdId) {
      await db.delete(usageHolds).where(eq(usageHolds.id, holdId));
    },
  };

  return {
    charging,
    /** Removes holds whose call can no longer be running (its process died before settling). */
    async dropExpiredHolds() {
      await db.delete(usageHolds).where(lte(usageHolds.expiresAt, deps.now()));
    },
    /** The embedded database belongs to one process: at its start, no call of an earlier life runs. */
    async dropAllHolds() {
      await db.delete(usageHolds);
    },
  };
}

export type UsageChargingService = ReturnType<typeof createUsageCharging>;
