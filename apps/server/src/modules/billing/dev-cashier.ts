import { PaymentNoticeError, type PaymentProvider, type ProviderOrderState } from './payment-provider.ts';

/** The page the dev cashier's QR code opens: `<public url><prefix><order number>`. */
export const DEV_CASHIER_PATH_PREFIX = '/dev-cashier/';

/**
 * The dev cashier: a payment channel for installations without a merchant account, so recharging
 * works offline (docs/billing.md). Its QR opens a page of ours where anyone holding the link can
 * "pay"; the payment is then settled exactly like a provider's notification. It must never be
 * offered where real money is expected: PAYMENT_CHANNELS decides, and the server warns at start.
 *
 * What it knows lives in this process (a restart forgets unpaid orders, which then expire): it
 * simulates a provider, it is not one.
 */
export function createDevCashier(deps: { publicUrl: string; now: () => Date }) {
  const orders = new Map<
    string,
    { amountFen: number; expiresAt: Date; state: 'pending' | 'paid' | 'closed'; paidAt?: Date }
  >();

  const stateOf = (outTradeNo: string): ProviderOrderState => {
    const order = orders.get(outTradeNo);
    if (!order) return { state: 'not_found', outTradeNo };
    if (order.state === 'paid') {
      return {
        state: 'paid',
        outTradeNo,
        amountFen: order.amountFen,
        providerTradeNo: `DEV${outTradeNo}`,
        paidAt: order.paidAt ?? deps.now(),
      };
    }
    return { state: order.state, outTradeNo };
  };

  const provider: PaymentProvider = {
    channel: 'dev',
    async createQr(request) {
      orders.set(request.outTradeNo, { amountFen: request.amountFen, expiresAt: request.expiresAt, state: 'pending' });
      return { codeUrl: `${deps.publicUrl}${DEV_CASHIER_PATH_PREFIX}${request.outTradeNo}` };
    },
    async query(outTradeNo) {
      return stateOf(outTradeNo);
    },
    async close(outTradeNo) {
      const order = orders.get(outTradeNo);
      if (order && order.state === 'pending') order.state = 'closed';
    },
    async refund(request) {
      return { providerRefundNo: `DEV${request.outRefundNo}` };
    },
    async verifyNotice() {
      // The dev cashier settles through the orders service directly; nothing posts notices for it.
      throw new PaymentNoticeError('malformed', 'the dev cashier sends no notifications');
    },
    acknowledge: { status: 200, contentType: 'text/plain', body: 'success' },
    reject: { status: 400, contentType: 'text/plain', body: 'fail' },
  };

  return {
    provider,
    /**
     * The payer pressed "pay": the order is paid unless it was closed or has expired. After a
     * restart the cashier no longer knows the order; it then takes the amount it is told.
     */
    pay(outTradeNo: string, order: { amountFen: number; expiresAt: Date }): ProviderOrderState {
      const known = orders.get(outTradeNo) ?? { ...order, state: 'pending' as const };
      if (known.state === 'pending' && known.expiresAt > deps.now()) {
        orders.set(outTradeNo, { ...known, state: 'paid', paidAt: deps.now() });
      } else if (!orders.has(outTradeNo)) {
        orders.set(outTradeNo, { ...known, state: 'closed' });
      }
      return stateOf(outTradeNo);
    },
  };
}

export type DevCashier = ReturnType<typeof createDevCashier>;
