import { randomBytes } from 'node:crypto';
import { formatFen, RECHARGE_LIMITS, type RechargeStatus, type TimeRange } from '@athena/contract';
import { eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { type AuthContext, authorize } from '../../platform/auth-guard.ts';
import { isUuid } from '../../platform/crypto.ts';
import type { Db } from '../../platform/db/database.ts';
import { AppError } from '../../platform/http/app-error.ts';
import type { BillingNews } from './billing-news.ts';
import type { DevCashier } from './dev-cashier.ts';
import type { PaymentChannel, PaymentProvider } from './payment-provider.ts';
import type { RechargeRepo } from './recharge.repo.ts';
import { rechargeOrders } from './recharge.schema.ts';
import type { Settlement } from './settlement.ts';

const ORDER_NO_ALPHABET = '0123456789ABCDEFGHJKLMNPQRSTUVWXYZ';

/**
 * Our order number: "ATH", the UTC time to the second, 10 random characters (27 in all, within
 * WeChat Pay's 6–32 [0-9A-Za-z] and Alipay's 64). Readable when a payer quotes it on the phone.
 */
export function newOrderNo(now: Date) {
  const stamp = now.toISOString().replace(/\D/g, '').slice(0, 14);
  const random = [...randomBytes(10)].map((byte) => ORDER_NO_ALPHABET[byte % ORDER_NO_ALPHABET.length]).join('');
  return `ATH${stamp}${random}`;
}

/**
 * Recharge orders (docs/billing.md, "Recharge"): the team's creator and admins start one for an
 * amount within the limits and a channel on offer, pay the QR it shows, and may cancel it while
 * it is unpaid. Everything that credits a payment goes through the settlement.
 */
export function createRechargeService(deps: {
  db: Db;
  repo: RechargeRepo;
  settlement: Settlement;
  news: BillingNews;
  providers: ReadonlyMap<PaymentChannel, PaymentProvider>;
  devCashier: DevCashier | null;
  log: FastifyBaseLogger;
  now: () => Date;
}) {
  const { db, repo, settlement } = deps;

  const orderOf = async (spaceId: string, id: string) => {
    const order = isUuid(id) ? await repo.find(spaceId, id) : null;
    if (!order) throw new AppError('RECHARGE_ORDER_NOT_FOUND');
    return order;
  };
  const viewOf = async (spaceId: string, id: string) => {
    const view = isUuid(id) ? await repo.view(spaceId, id) : null;
    if (!view) throw new AppError('RECHARGE_ORDER_NOT_FOUND');
    return view;
  };

  return {
    async create(ctx: AuthContext, request: { amount: number; channel: PaymentChannel }) {
      const space = authorize(ctx, 'billing.recharge');
      if (request.amount < RECHARGE_LIMITS.minFen || request.amount > RECHARGE_LIMITS.maxFen) {
        throw new AppError('RECHARGE_AMOUNT_INVALID');
      }
      const provider = deps.providers.get(request.channel);
      if (!provider) throw new AppError('RECHARGE_CHANNEL_UNAVAILABLE');
      const now = deps.now();
      const expiresAt = new Date(now.getTime() + RECHARGE_LIMITS.orderTtlSeconds * 1000);
      // Counted and inserted under the team's row lock, so two requests at once cannot both pass.
      const order = await db.transaction(async (tx) => {
        await tx.execute(sql`select 1 from spaces where id = ${space.id}::uuid for update`);
        if ((await repo.countOpen(tx, space.id, now)) >= RECHARGE_LIMITS.maxOpenOrders) {
          throw new AppError('RECHARGE_TOO_MANY_OPEN');
        }
        const [row] = await tx
          .insert(rechargeOrders)
          .values({
            spaceId: space.id,
            outTradeNo: newOrderNo(now),
            channel: request.channel,
            amount: request.amount,
            createdBy: ctx.userId,
            createdAt: now,
            expiresAt,
          })
          .returning();
        return row;
      });
      try {
        const { codeUrl } = await provider.createQr({
          outTradeNo: order.outTradeNo,
          amountFen: order.amount,
          description: `Athena 团队充值 ${formatFen(order.amount)}`,
          expiresAt,
        });
        await db
          .update(rechargeOrders)
          .set({ status: 'paying', codeUrl })
          .where(sql`${rechargeOrders.id} = ${order.id} and ${rechargeOrders.status} = 'created'`);
      } catch (error) {
        deps.log.warn({ err: error, channel: request.channel, order: order.outTradeNo }, 'a provider refused an order');
        await settlement.finish(order, 'failed', error instanceof Error ? error.message.slice(0, 300) : 'failed');
        throw new AppError('PAYMENT_PROVIDER_FAILED');
      }
      await deps.news.order(space.id, order.id, 'paying');
      return viewOf(space.id, order.id);
    },

    async get(ctx: AuthContext, id: string) {
      const space = authorize(ctx, 'billing.recharge');
      return viewOf(space.id, id);
    },

    /**
     * Closes an unpaid order: asked of the provider first, so a payment that already went through
     * is credited rather than lost; a paid order stays paid.
     */
    async cancel(ctx: AuthContext, id: string) {
      const space = authorize(ctx, 'billing.recharge');
      const order = await orderOf(space.id, id);
      if (order.status === 'created' || order.status === 'paying') {
        const provider = deps.providers.get(order.channel);
        try {
          if (provider) {
            const state = await provider.query(order.outTradeNo);
            if (state.state === 'paid') await settlement.settle(order.channel, state);
            else await provider.close(order.outTradeNo);
          }
          // A payment that slipped in between query and close is credited by the provider's notice.
          await settlement.finish(order, 'closed', null);
        } catch (error) {
          deps.log.warn({ err: error, order: order.outTradeNo }, 'could not close a recharge order');
          throw new AppError('PAYMENT_PROVIDER_FAILED');
        }
      }
      return viewOf(space.id, order.id);
    },

    async list(
      ctx: AuthContext,
      filter: { page: number; page_size: number; status: RechargeStatus | null; time: TimeRange | null },
    ) {
      const space = authorize(ctx, 'billing.records');
      return repo.list(space.id, filter, deps.now());
    },

    /** The dev cashier's page: what the order asks (anyone with the link, like a QR in a hand). */
    async devCashierGet(orderNo: string) {
      const order = deps.devCashier ? await repo.byOrderNo(orderNo) : null;
      if (order?.channel !== 'dev') throw new AppError('RECHARGE_ORDER_NOT_FOUND');
      return {
        order_no: order.outTradeNo,
        amount: order.amount,
        status: order.status,
        expires_at: order.expiresAt.toISOString(),
      };
    },

    async devCashierPay(orderNo: string) {
      const order = deps.devCashier ? await repo.byOrderNo(orderNo) : null;
      if (order?.channel !== 'dev' || !deps.devCashier) throw new AppError('RECHARGE_ORDER_NOT_FOUND');
      if (order.status !== 'paid') {
        const state = deps.devCashier.pay(order.outTradeNo, { amountFen: order.amount, expiresAt: order.expiresAt });
        if (state.state !== 'paid') throw new AppError('RECHARGE_ORDER_CLOSED');
        await settlement.settle('dev', state);
      }
      const [after] = await db
        .select({ status: rechargeOrders.status })
        .from(rechargeOrders)
        .where(eq(rechargeOrders.id, order.id));
      return { status: after.status };
    },
  };
}

export type RechargeService = ReturnType<typeof createRechargeService>;
