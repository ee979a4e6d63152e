import { billingLiveStream, can, PAYMENT_NOTIFY_PATH_PREFIX, billingRoutes as routes } from '@athena/contract';
import type { FastifyInstance } from 'fastify';
import { authorize } from '../../platform/auth-guard.ts';
import { authedRoute, publicRoute } from '../../platform/http/route.ts';
import { liveFor, openEventStream, stillMemberOf, streamRoute } from '../../platform/http/sse.ts';
import type { BalanceService } from './balance.service.ts';
import type { BillingNews } from './billing-news.ts';
import type { PaymentChannel } from './payment-provider.ts';
import type { RechargeService } from './recharge.service.ts';
import type { Settlement } from './settlement.ts';

/** Providers' notifications are small; anything larger is not one. */
const MAX_NOTICE_BYTES = 64 * 1024;

export async function registerBillingRoutes(
  app: FastifyInstance,
  deps: {
    balance: BalanceService;
    recharge: RechargeService;
    settlement: Settlement;
    news: BillingNews;
    /** How long a live stream stays open before `bye` (the reader reconnects). */
    liveSeconds: number;
  },
) {
  const { balance, recharge } = deps;

  authedRoute(app, routes.summary, (_body, ctx) => balance.summary(ctx));
  authedRoute(app, routes.ledgerList, (body, ctx) => balance.ledger(ctx, body));
  authedRoute(app, routes.settingsUpdate, (body, ctx) => balance.updateSettings(ctx, body));
  authedRoute(app, routes.rechargeCreate, (body, ctx) => recharge.create(ctx, body));
  authedRoute(app, routes.rechargeGet, (body, ctx) => recharge.get(ctx, body.id));
  authedRoute(app, routes.rechargeCancel, (body, ctx) => recharge.cancel(ctx, body.id));
  authedRoute(app, routes.rechargeList, (body, ctx) => recharge.list(ctx, body));
  publicRoute(app, routes.devCashierGet, (body) => recharge.devCashierGet(body.order_no));
  publicRoute(app, routes.devCashierPay, (body) => recharge.devCashierPay(body.order_no));

  streamRoute(app, billingLiveStream, async (_body, ctx, reply) => {
    const space = authorize(ctx, 'billing.view');
    const canSeeOrders = can(space.role, 'billing.recharge');
    const stream = openEventStream(reply, billingLiveStream);
    let last: number | null = null;
    const stillMember = stillMemberOf(app, space.id, ctx.userId);
    const stop = deps.news.follow(space.id, (item) => {
      void (async () => {
        // Someone removed from the team hears nothing more of it: checked at each piece of news.
        if (!(await stillMember())) return;
        if (item.kind === 'order') {
          if (canSeeOrders) stream.send('order', { id: item.orderId, status: item.status });
          return;
        }
        const now = await balance.balanceOf(space.id);
        // News that leaves the balance as it was (a repeated notice) is not passed on.
        if (now === last) return;
        last = now;
        stream.send('balance', { balance: now });
      })();
    });
    liveFor(reply, stream, { seconds: deps.liveSeconds, stop, bye: () => stream.send('bye', {}) });
  });

  // Providers sign the exact bytes they send: the body is kept raw for the check.
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: MAX_NOTICE_BYTES }, (_request, body, done) =>
      done(null, body),
    );
    scope.post<{ Params: { channel: string }; Body: Buffer }>(
      `${PAYMENT_NOTIFY_PATH_PREFIX}:channel`,
      { schema: { hide: true } },
      async (request, reply) => {
        const channel = request.params.channel as PaymentChannel;
        const headers: Record<string, string | undefined> = {};
        for (const [name, value] of Object.entries(request.headers)) {
          headers[name.toLowerCase()] = Array.isArray(value) ? value[0] : value;
        }
        const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const answer = await deps.settlement.receiveNotice(channel, headers, body);
        return reply.status(answer.status).type(answer.contentType).send(answer.body);
      },
    );
  });
}
