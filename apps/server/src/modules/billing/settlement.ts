import type { RechargeStatus } from '@athena/contract';
import { eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../platform/db/database.ts';
import { rowsOf } from '../../platform/db/sql.ts';
import type { AuditRepo } from '../team/audit.repo.ts';
import type { BillingNews } from './billing-news.ts';
import type { Ledger } from './ledger.ts';
import type { NotifyAnswer, PaymentChannel, PaymentProvider, ProviderOrderState } from './payment-provider.ts';
import { PaymentNoticeError } from './payment-provider.ts';
import type { OrderRow, RechargeRepo } from './recharge.repo.ts';
import { rechargeOrders } from './recharge.schema.ts';

type Paid = Extract<ProviderOrderState, { state: 'paid' }>;

/** Orders younger than this are left to their notification before the job asks the provider. */
const NOTICE_GRACE_MS = 60_000;
const CHECKS_PER_RUN = 100;

/**
 * Where a payment becomes a credit, exactly once: a provider's notification, the reconciliation
 * job's query and the dev cashier all end in `settle`, which locks the order, credits the ledger
 * under the order's key and marks it paid in one transaction. Duplicates, races between a notice
 * and the job, and notices after a crash all meet the lock and find the order paid.
 */
export function createSettlement(deps: {
  db: Db;
  audit: AuditRepo;
  ledger: Ledger;
  repo: RechargeRepo;
  news: BillingNews;
  providers: ReadonlyMap<PaymentChannel, PaymentProvider>;
  log: FastifyBaseLogger;
  now: () => Date;
}) {
  const { db, ledger, repo, news, log } = deps;

  /** Credits a payment the provider confirmed. Returns false when there is nothing to credit. */
  async function settle(channel: PaymentChannel, paid: Paid): Promise<boolean> {
    const outcome = await db.transaction(async (tx) => {
      const order = await repo.lock(tx, paid.outTradeNo);
      if (!order) return { alarm: 'payment-unknown-order' as const };
      if (order.channel !== channel) return { alarm: 'payment-wrong-channel' as const, order };
      if (order.status === 'paid') return { duplicate: true as const, order };
      // A dissolved team has no one to use a credit: the payment is refused here and an operator
      // returns it to the payer. Read under the team's row lock, which dissolving takes too, so a
      // payment and a dissolve never both see the team live.
      const [team] = rowsOf<{ dissolved: boolean }>(
        await tx.execute(
          sql`select dissolved_at is not null as dissolved from spaces where id = ${order.spaceId}::uuid for update`,
        ),
      );
      if (team?.dissolved) {
        await tx
          .update(rechargeOrders)
          .set({ status: 'failed', failureReason: 'the team was dissolved; the payment is to be returned' })
          .where(eq(rechargeOrders.id, order.id));
        return { alarm: 'payment-dissolved-team' as const, order };
      }
      if (paid.amountFen !== order.amount) {
        await tx
          .update(rechargeOrders)
          .set({ status: 'failed', failureReason: `paid ${paid.amountFen} fen for an order of ${order.amount}` })
          .where(eq(rechargeOrders.id, order.id));
        return { alarm: 'payment-amount-mismatch' as const, order };
      }
      await ledger.postIn(tx, {
        spaceId: order.spaceId,
        kind: 'recharge',
        amount: order.amount,
        idempotencyKey: `recharge:${order.outTradeNo}`,
        reference: { order_no: order.outTradeNo, channel, provider_trade_no: paid.providerTradeNo },
        actorId: order.createdBy,
      });
      await tx
        .update(rechargeOrders)
        .set({ status: 'paid', paidAt: paid.paidAt, providerTradeNo: paid.providerTradeNo, failureReason: null })
        .where(eq(rechargeOrders.id, order.id));
      if (order.createdBy) {
        await deps.audit.record(
          {
            spaceId: order.spaceId,
            actorId: order.createdBy,
            action: 'billing.recharge',
            details: { order_no: order.outTradeNo, amount: order.amount, channel },
          },
          tx,
        );
      }
      return { credited: true as const, order };
    });
    if ('alarm' in outcome) {
      // Money may have arrived that we did not credit: an operator must look (docs/billing.md).
      log.error({ alarm: outcome.alarm, channel, paid, order: outcome.order?.id }, 'a payment was not credited');
      if (outcome.order) await news.order(outcome.order.spaceId, outcome.order.id, 'failed');
      return false;
    }
    if ('duplicate' in outcome) return false;
    await news.balance(outcome.order.spaceId);
    await news.order(outcome.order.spaceId, outcome.order.id, 'paid');
    return true;
  }

  /** Moves an unpaid order to closed or failed; a paid one stays paid. */
  async function finish(order: OrderRow, status: Extract<RechargeStatus, 'closed' | 'failed'>, reason: string | null) {
    const changed = await db.transaction(async (tx) => {
      const locked = await repo.lock(tx, order.outTradeNo);
      if (!locked || (locked.status !== 'created' && locked.status !== 'paying')) return false;
      await tx
        .update(rechargeOrders)
        .set({ status, failureReason: reason, codeUrl: null })
        .where(eq(rechargeOrders.id, locked.id));
      return true;
    });
    if (changed) await news.order(order.spaceId, order.id, status);
    return changed;
  }

  /**
   * What a provider says about an order, applied: paid is credited, closed is closed. A dissolved
   * team's open order is closed as if expired, so its QR cannot be paid any more.
   */
  async function apply(order: OrderRow & { teamDissolved?: boolean }, state: ProviderOrderState) {
    if (state.state === 'paid') return settle(order.channel, state);
    // Given up on: past its time, or its team is gone.
    const expired = order.expiresAt <= deps.now() || order.teamDissolved === true;
    if (state.state === 'closed' || (state.state === 'not_found' && expired)) {
      await finish(order, 'closed', null);
    } else if (expired) {
      // Closing at the provider first, so the QR cannot be paid after we gave up on it.
      await deps.providers.get(order.channel)?.close(order.outTradeNo);
      const after = await deps.providers.get(order.channel)?.query(order.outTradeNo);
      if (after?.state === 'paid') return settle(order.channel, after);
      await finish(order, 'closed', null);
    }
    return false;
  }

  return {
    settle,
    finish,

    /**
     * A provider's notification: verified on the raw body, credited, and only then acknowledged.
     * A forged or foreign notice is logged and refused; a failure while crediting is answered so
     * that the provider sends it again (the reconciliation job would find it too).
     */
    async receiveNotice(channel: PaymentChannel, headers: Record<string, string | undefined>, raw: Buffer) {
      const provider = deps.providers.get(channel);
      if (!provider) return { status: 404, contentType: 'text/plain', body: 'not found' } satisfies NotifyAnswer;
      try {
        const notice = await provider.verifyNotice(headers, raw);
        if (notice.order.state === 'paid') await settle(channel, notice.order);
        return provider.acknowledge;
      } catch (error) {
        if (error instanceof PaymentNoticeError) {
          log.warn({ channel, reason: error.reason, detail: error.message }, 'payment notification refused');
        } else {
          log.error({ err: error, channel }, 'payment notification could not be handled');
        }
        return provider.reject;
      }
    },

    /**
     * The reconciliation job: asks the provider about every order still waiting (after a grace
     * period for its notification), credits the paid ones and closes the expired ones.
     */
    async reconcile() {
      const now = deps.now();
      const due = await repo.dueForCheck(CHECKS_PER_RUN, new Date(now.getTime() - NOTICE_GRACE_MS));
      let credited = 0;
      for (const order of due) {
        const provider = deps.providers.get(order.channel);
        try {
          await db.update(rechargeOrders).set({ checkedAt: now }).where(eq(rechargeOrders.id, order.id));
          if (!provider) {
            // The channel was switched off with orders open: they can no longer be paid here.
            if (order.expiresAt <= now) await finish(order, 'closed', 'channel switched off');
            continue;
          }
          if (await apply(order, await provider.query(order.outTradeNo))) credited += 1;
        } catch (error) {
          log.warn({ err: error, order: order.outTradeNo }, 'could not reconcile a recharge order');
        }
      }
      return { checked: due.length, credited };
    },
  };
}

export type Settlement = ReturnType<typeof createSettlement>;
