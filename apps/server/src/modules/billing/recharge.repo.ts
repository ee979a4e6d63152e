import type { RechargeOrder, RechargeStatus, TimeRange } from '@athena/contract';
import { timeWindowOf } from '@athena/contract';
import { and, count, desc, eq, gte, inArray, lte, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.ts';
import type { Tx } from '../../platform/db/sql.ts';
import { users } from '../auth/auth.schema.ts';
import { spaces } from '../space/space.schema.ts';
import { rechargeOrders } from './recharge.schema.ts';

export type OrderRow = typeof rechargeOrders.$inferSelect;

const OPEN: RechargeStatus[] = ['created', 'paying'];

/** The order as the API shows it. */
export function presentOrder(row: OrderRow, creator: { id: string; nickname: string } | null): RechargeOrder {
  const open = row.status === 'paying';
  return {
    id: row.id,
    order_no: row.outTradeNo,
    channel: row.channel,
    amount: row.amount,
    status: row.status,
    code_url: open ? row.codeUrl : null,
    expires_at: row.expiresAt.toISOString(),
    created_at: row.createdAt.toISOString(),
    paid_at: row.paidAt?.toISOString() ?? null,
    provider_trade_no: row.providerTradeNo,
    refunded: row.refunded,
    failure_reason: row.failureReason,
    created_by: creator,
  };
}

/** Recharge orders: reads scoped to one team, and the locked reads settlement needs. */
export function createRechargeRepo(db: Db) {
  const withCreator = () =>
    db
      .select({ order: rechargeOrders, creatorId: users.id, creatorName: users.nickname })
      .from(rechargeOrders)
      .leftJoin(users, eq(users.id, rechargeOrders.createdBy));
  const present = (row: { order: OrderRow; creatorId: string | null; creatorName: string | null }) =>
    presentOrder(row.order, row.creatorId ? { id: row.creatorId, nickname: row.creatorName ?? '' } : null);

  return {
    async view(spaceId: string, id: string) {
      const [row] = await withCreator().where(and(eq(rechargeOrders.spaceId, spaceId), eq(rechargeOrders.id, id)));
      return row ? present(row) : null;
    },

    async find(spaceId: string, id: string) {
      const [row] = await db
        .select()
        .from(rechargeOrders)
        .where(and(eq(rechargeOrders.spaceId, spaceId), eq(rechargeOrders.id, id)));
      return row ?? null;
    },

    async byOrderNo(outTradeNo: string) {
      const [row] = await db.select().from(rechargeOrders).where(eq(rechargeOrders.outTradeNo, outTradeNo));
      return row ?? null;
    },

    /** The order under a row lock: settling, closing and failing it queue on this. */
    async lock(tx: Tx, outTradeNo: string) {
      const [row] = await tx
        .select()
        .from(rechargeOrders)
        .where(eq(rechargeOrders.outTradeNo, outTradeNo))
        .for('update');
      return row ?? null;
    },

    /** Unpaid orders of the team that can still be paid. */
    async countOpen(tx: Tx, spaceId: string, now: Date) {
      const [row] = await tx
        .select({ n: count() })
        .from(rechargeOrders)
        .where(
          and(
            eq(rechargeOrders.spaceId, spaceId),
            inArray(rechargeOrders.status, OPEN),
            gte(rechargeOrders.expiresAt, now),
          ),
        );
      return row?.n ?? 0;
    },

    async list(
      spaceId: string,
      filter: { page: number; page_size: number; status: RechargeStatus | null; time: TimeRange | null },
      now: Date,
    ) {
      const conditions: SQL[] = [eq(rechargeOrders.spaceId, spaceId)];
      if (filter.status) conditions.push(eq(rechargeOrders.status, filter.status));
      if (filter.time) {
        const window = timeWindowOf(filter.time, now.getTime());
        conditions.push(gte(rechargeOrders.createdAt, new Date(window.from)));
        if (window.to !== null) conditions.push(lte(rechargeOrders.createdAt, new Date(window.to)));
      }
      const where = and(...conditions);
      const [rows, [total]] = await Promise.all([
        withCreator()
          .where(where)
          .orderBy(desc(rechargeOrders.createdAt), desc(rechargeOrders.id))
          .limit(filter.page_size)
          .offset((filter.page - 1) * filter.page_size),
        db.select({ n: count() }).from(rechargeOrders).where(where),
      ]);
      return { items: rows.map(present), total: total?.n ?? 0 };
    },

    /**
     * Orders still waiting for a payment, those asked about longest ago first, each with whether
     * its team was dissolved (then it is closed at once rather than when it expires).
     */
    async dueForCheck(limit: number, createdBefore: Date) {
      const rows = await db
        .select({ order: rechargeOrders, teamDissolved: sql<boolean>`${spaces.dissolvedAt} is not null` })
        .from(rechargeOrders)
        .innerJoin(spaces, eq(spaces.id, rechargeOrders.spaceId))
        // Spelled out (not a parameter) so the partial index of open orders serves it.
        .where(
          and(sql`${rechargeOrders.status} in ('created', 'paying')`, lte(rechargeOrders.createdAt, createdBefore)),
        )
        .orderBy(sql`${rechargeOrders.checkedAt} asc nulls first`)
        .limit(limit);
      return rows.map((row) => ({ ...row.order, teamDissolved: Boolean(row.teamDissolved) }));
    },
  };
}

export type RechargeRepo = ReturnType<typeof createRechargeRepo>;
