import { formatFen } from '@athena/contract';
import { and, desc, eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { AuthContext } from '../../platform/auth-guard.ts';
import { isUuid } from '../../platform/crypto.ts';
import type { Db } from '../../platform/db/database.ts';
import { AppError } from '../../platform/http/app-error.ts';
import { spaces } from '../space/space.schema.ts';
import type { AuditRepo } from '../team/audit.repo.ts';
import type { BillingNews } from './billing-news.ts';
import type { Ledger } from './ledger.ts';
import type { OperatorCheck } from './operators.ts';
import type { PaymentChannel, PaymentProvider } from './payment-provider.ts';
import type { RechargeRepo } from './recharge.repo.ts';
import { rechargeOrders } from './recharge.schema.ts';

/**
 * What the platform's operators do with money (docs/billing.md, "Operators"): find a team by its
 * id or an order number, refund (part of) a paid recharge through its channel, and adjust a
 * balance with a reason. Each is a ledger entry and a line in the team's audit log.
 */
export function createOperatorService(deps: {
  db: Db;
  audit: AuditRepo;
  ledger: Ledger;
  repo: RechargeRepo;
  news: BillingNews;
  operators: OperatorCheck;
  providers: ReadonlyMap<PaymentChannel, PaymentProvider>;
  log: FastifyBaseLogger;
}) {
  const { db, ledger } = deps;

  return {
    async lookup(ctx: AuthContext, query: string) {
      await deps.operators.require(ctx);
      const order = await deps.repo.byOrderNo(query);
      const spaceId = order?.spaceId ?? (isUuid(query) ? query : null);
      const [space] = spaceId
        ? await db
            .select({ id: spaces.id, name: spaces.name, balance: spaces.balance })
            .from(spaces)
            .where(eq(spaces.id, spaceId))
        : [];
      if (!space) throw new AppError('OPERATOR_LOOKUP_NOT_FOUND');
      const paid = await db
        .select()
        .from(rechargeOrders)
        .where(and(eq(rechargeOrders.spaceId, space.id), eq(rechargeOrders.status, 'paid')))
        .orderBy(desc(rechargeOrders.paidAt))
        .limit(20);
      return {
        space,
        orders: paid.map((row) => ({
          id: row.id,
          order_no: row.outTradeNo,
          channel: row.channel,
          amount: row.amount,
          refunded: row.refunded,
          paid_at: row.paidAt?.toISOString() ?? null,
        })),
      };
    },

    /**
     * Returns money to the payer: the provider first (a refund it refuses changes nothing here),
     * then the ledger and the order's refunded total in one transaction. A retry after a failure
     * in between reuses the refund number, so the provider refunds once.
     */
    async refund(ctx: AuthContext, request: { order_id: string; amount: number; reason: string }) {
      await deps.operators.require(ctx);
      const order = isUuid(request.order_id)
        ? (await db.select().from(rechargeOrders).where(eq(rechargeOrders.id, request.order_id)))[0]
        : undefined;
      if (order?.status !== 'paid') throw new AppError('RECHARGE_ORDER_NOT_FOUND');
      const refundable = order.amount - order.refunded;
      if (request.amount > refundable)
        throw new AppError('REFUND_AMOUNT_INVALID', { refundable: formatFen(refundable) });
      // Numbered by what was refunded before: the same refund retried gets the same number.
      const outRefundNo = `${order.outTradeNo}R${order.refunded}`;
      const provider = deps.providers.get(order.channel);
      if (!provider) throw new AppError('RECHARGE_CHANNEL_UNAVAILABLE');
      // The team must still have the money: checked before the provider pays anything out.
      const [space] = await db.select({ balance: spaces.balance }).from(spaces).where(eq(spaces.id, order.spaceId));
      if ((space?.balance ?? 0) < request.amount) {
        throw new AppError('BALANCE_INSUFFICIENT', {
          balance: formatFen(space?.balance ?? 0),
          amount: formatFen(request.amount),
        });
      }
      try {
        await provider.refund({
          outTradeNo: order.outTradeNo,
          outRefundNo,
          refundFen: request.amount,
          totalFen: order.amount,
          reason: request.reason,
        });
      } catch (error) {
        deps.log.warn({ err: error, order: order.outTradeNo }, 'the provider refused a refund');
        throw new AppError('PAYMENT_PROVIDER_FAILED');
      }
      const result = await db.transaction(async (tx) => {
        const { entry } = await ledger.postIn(tx, {
          spaceId: order.spaceId,
          kind: 'refund',
          amount: -request.amount,
          idempotencyKey: `refund:${outRefundNo}`,
          reference: { order_no: order.outTradeNo, refund_no: outRefundNo, channel: order.channel },
          actorId: ctx.userId,
          note: request.reason,
        });
        const [updated] = await tx
          .update(rechargeOrders)
          .set({ refunded: order.refunded + request.amount })
          .where(and(eq(rechargeOrders.id, order.id), eq(rechargeOrders.refunded, order.refunded)))
          .returning({ refunded: rechargeOrders.refunded });
        if (!updated) throw new AppError('REFUND_AMOUNT_INVALID', { refundable: formatFen(refundable) });
        await deps.audit.record(
          {
            spaceId: order.spaceId,
            actorId: ctx.userId,
            action: 'billing.refund',
            details: { order_no: order.outTradeNo, amount: request.amount, reason: request.reason },
          },
          tx,
        );
        return { refunded: updated.refunded, balance: entry.balanceAfter };
      });
      await deps.news.balance(order.spaceId);
      return result;
    },

    async adjust(ctx: AuthContext, request: { space_id: string; amount: number; reason: string; request_id: string }) {
      await deps.operators.require(ctx);
      if (!isUuid(request.space_id)) throw new AppError('OPERATOR_LOOKUP_NOT_FOUND');
      const [space] = await db.select({ id: spaces.id }).from(spaces).where(eq(spaces.id, request.space_id));
      if (!space) throw new AppError('OPERATOR_LOOKUP_NOT_FOUND');
      const entry = await db.transaction(async (tx) => {
        const posted = await ledger.postIn(tx, {
          spaceId: space.id,
          kind: 'adjustment',
          amount: request.amount,
          // The form's request id (with the team and amount, so a reused id is a new adjustment).
          idempotencyKey: `adjustment:${space.id}:${request.amount}:${request.request_id}`,
          actorId: ctx.userId,
          note: request.reason,
        });
        if (!posted.posted) return posted.entry;
        await deps.audit.record(
          {
            spaceId: space.id,
            actorId: ctx.userId,
            action: 'billing.adjust',
            details: { amount: request.amount, reason: request.reason },
          },
          tx,
        );
        return posted.entry;
      });
      await deps.news.balance(space.id);
      return { balance: entry.balanceAfter };
    },
  };
}

export type OperatorService = ReturnType<typeof createOperatorService>;
