import { type BillingSummary, can, type LedgerEntryKind, type TimeRange, timeWindowOf } from '@athena/contract';
import { and, count, desc, eq, gte, lte, type SQL } from 'drizzle-orm';
import { type AuthContext, authorize } from '../../platform/auth-guard.ts';
import type { Db } from '../../platform/db/database.ts';
import { users } from '../auth/auth.schema.ts';
import { spaces } from '../space/space.schema.ts';
import type { AuditRepo } from '../team/audit.repo.ts';
import { ledgerEntries } from './ledger.schema.ts';
import type { PaymentChannel } from './payment-provider.ts';
import { billingSettings } from './recharge.schema.ts';

/**
 * The team's balance as the fees page shows it: the summary (balance, low-balance threshold,
 * channels, what the caller may do), the ledger as a statement, and the threshold setting.
 */
export function createBalanceService(deps: { db: Db; audit: AuditRepo; channels: PaymentChannel[]; now: () => Date }) {
  const { db } = deps;

  async function summaryOf(ctx: AuthContext): Promise<BillingSummary> {
    const space = authorize(ctx, 'billing.view');
    const [row] = await db
      .select({ balance: spaces.balance, threshold: billingSettings.lowBalanceThreshold })
      .from(spaces)
      .leftJoin(billingSettings, eq(billingSettings.spaceId, spaces.id))
      .where(eq(spaces.id, space.id));
    return {
      balance: row?.balance ?? 0,
      low_balance_threshold: row?.threshold ?? null,
      channels: deps.channels,
      can_recharge: can(space.role, 'billing.recharge'),
      can_view_records: can(space.role, 'billing.records'),
      can_manage_settings: can(space.role, 'billing.settings'),
    };
  }

  return {
    summary: summaryOf,

    /** Balance of one team, for the live stream (the caller's membership was checked when it opened). */
    async balanceOf(spaceId: string) {
      const [row] = await db.select({ balance: spaces.balance }).from(spaces).where(eq(spaces.id, spaceId));
      return row?.balance ?? 0;
    },

    async ledger(
      ctx: AuthContext,
      filter: { page: number; page_size: number; kind: LedgerEntryKind | null; time: TimeRange | null },
    ) {
      const space = authorize(ctx, 'billing.records');
      const conditions: SQL[] = [eq(ledgerEntries.spaceId, space.id)];
      if (filter.kind) conditions.push(eq(ledgerEntries.kind, filter.kind));
      if (filter.time) {
        const window = timeWindowOf(filter.time, deps.now().getTime());
        conditions.push(gte(ledgerEntries.createdAt, new Date(window.from)));
        if (window.to !== null) conditions.push(lte(ledgerEntries.createdAt, new Date(window.to)));
      }
      const where = and(...conditions);
      const [rows, [total]] = await Promise.all([
        db
          .select({ entry: ledgerEntries, actorName: users.nickname })
          .from(ledgerEntries)
          .leftJoin(users, eq(users.id, ledgerEntries.actorId))
          .where(where)
          .orderBy(desc(ledgerEntries.createdAt), desc(ledgerEntries.id))
          .limit(filter.page_size)
          .offset((filter.page - 1) * filter.page_size),
        db.select({ n: count() }).from(ledgerEntries).where(where),
      ]);
      return {
        items: rows.map(({ entry, actorName }) => ({
          id: String(entry.id),
          kind: entry.kind,
          amount: entry.amount,
          balance_after: entry.balanceAfter,
          reference: entry.reference,
          note: entry.note,
          actor: entry.actorId ? { id: entry.actorId, nickname: actorName ?? '' } : null,
          created_at: entry.createdAt.toISOString(),
        })),
        total: total?.n ?? 0,
      };
    },

    async updateSettings(ctx: AuthContext, settings: { low_balance_threshold: number | null }) {
      const space = authorize(ctx, 'billing.settings');
      await db.transaction(async (tx) => {
        await tx
          .insert(billingSettings)
          .values({ spaceId: space.id, lowBalanceThreshold: settings.low_balance_threshold })
          .onConflictDoUpdate({
            target: billingSettings.spaceId,
            set: { lowBalanceThreshold: settings.low_balance_threshold },
          });
        await deps.audit.record(
          {
            spaceId: space.id,
            actorId: ctx.userId,
            action: 'billing.settings',
            details: { low_balance_threshold: settings.low_balance_threshold },
          },
          tx,
        );
      });
      return summaryOf(ctx);
    },
  };
}

export type BalanceService = ReturnType<typeof createBalanceService>;
