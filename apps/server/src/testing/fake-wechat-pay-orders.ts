import { randomBytes, randomInt } from 'node:crypto';

/**
 * The business side of the fake WeChat Pay: Native orders and domestic refunds with the rules
 * and error codes a merchant meets. Requests arrive here already authenticated; answers leave
 * as `{ status, body }` for fake-wechat-pay.ts to sign.
 */

export type FakeTradeState = 'NOTPAY' | 'SUCCESS' | 'CLOSED' | 'REFUND';

export interface FakeOrder {
  appid: string;
  mchid: string;
  outTradeNo: string;
  description: string;
  total: number;
  notifyUrl: string;
  timeExpire: string;
  codeUrl: string;
  tradeState: FakeTradeState;
  transactionId?: string;
  successTime?: string;
  refunded: number;
}

export interface FakeRefund {
  refundId: string;
  outRefundNo: string;
  outTradeNo: string;
  refund: number;
  reason?: string;
  notifyUrl?: string;
}

export interface FakeAnswer {
  status: number;
  body?: object;
}

export const digits = (count: number) => Array.from({ length: count }, () => randomInt(10)).join('');
export const alnum = (count: number) => randomBytes(count).toString('base64url').replace(/[-_]/g, 'x').slice(0, count);
export const beijing = (date: Date) => `${new Date(date.getTime() + 8 * 3600_000).toISOString().slice(0, 19)}+08:00`;

const fail = (status: number, code: string, message: string): FakeAnswer => ({ status, body: { code, message } });
const isPaid = (order: FakeOrder) => order.tradeState === 'SUCCESS' || order.tradeState === 'REFUND';
const DESCRIPTIONS: Record<FakeTradeState, string> = {
  NOTPAY: '订单未支付',
  SUCCESS: '支付成功',
  CLOSED: '订单已关闭',
  REFUND: '转入退款',
};

/** The transaction as a query answers it and a notification seals it. */
export function transactionOf(order: FakeOrder): Record<string, unknown> {
  const paid = isPaid(order);
  const payment = paid
    ? {
        transaction_id: order.transactionId,
        bank_type: 'OTHERS',
        success_time: order.successTime,
        payer: { openid: 'oUpF8uMuAJO_M2pxb1Q9zNjWeS6o' },
      }
    : {};
  return {
    appid: order.appid,
    mchid: order.mchid,
    out_trade_no: order.outTradeNo,
    trade_type: 'NATIVE',
    trade_state: order.tradeState,
    trade_state_desc: DESCRIPTIONS[order.tradeState],
    ...payment,
    amount: {
      total: order.total,
      currency: 'CNY',
      ...(paid ? { payer_total: order.total, payer_currency: 'CNY' } : {}),
    },
  };
}

export function createOrderBook(merchant: { mchId: string; appId: string; now: () => Date }) {
  const orders = new Map<string, FakeOrder>();
  const refunds = new Map<string, FakeRefund>();

  function createNative(input: Record<string, unknown>): FakeAnswer {
    const { appid, mchid, description, out_trade_no, time_expire, notify_url, amount } = input;
    const total = (amount as { total?: unknown } | undefined)?.total;
    if (mchid !== merchant.mchId || appid !== merchant.appId) {
      return fail(400, 'APPID_MCHID_NOT_MATCH', 'appid和mch_id不匹配');
    }
    if (typeof out_trade_no !== 'string' || !/^[0-9A-Za-z_\-|*]{6,32}$/.test(out_trade_no)) {
      return fail(400, 'PARAM_ERROR', '参数错误: out_trade_no');
    }
    if (typeof description !== 'string' || !description || typeof notify_url !== 'string') {
      return fail(400, 'PARAM_ERROR', '参数错误');
    }
    if (typeof total !== 'number' || !Number.isSafeInteger(total) || total < 1) {
      return fail(400, 'PARAM_ERROR', '参数错误: amount');
    }
    if (typeof time_expire !== 'string' || !/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$/.test(time_expire)) {
      return fail(400, 'PARAM_ERROR', '参数错误: time_expire');
    }
    const existing = orders.get(out_trade_no);
    if (existing && existing.tradeState !== 'NOTPAY') return fail(400, 'ORDERPAID', '该订单已支付或已关闭');
    // The same order placed again gets the same code_url; another amount under its number does not.
    if (existing && existing.total !== total) return fail(400, 'INVALID_REQUEST', '201 商户订单号重复');
    const order: FakeOrder = existing ?? {
      appid: merchant.appId,
      mchid: merchant.mchId,
      outTradeNo: out_trade_no,
      description,
      total,
      notifyUrl: notify_url,
      timeExpire: time_expire,
      codeUrl: `weixin://wxpay/bizpayurl?pr=${alnum(7)}`,
      tradeState: 'NOTPAY',
      refunded: 0,
    };
    orders.set(out_trade_no, order);
    return { status: 200, body: { code_url: order.codeUrl } };
  }

  function refundAnswer(refund: FakeRefund, order: FakeOrder): FakeAnswer {
    const body = {
      refund_id: refund.refundId,
      out_refund_no: refund.outRefundNo,
      out_trade_no: refund.outTradeNo,
      channel: 'ORIGINAL',
      status: 'PROCESSING',
      create_time: beijing(merchant.now()),
      amount: { refund: refund.refund, total: order.total, currency: 'CNY' },
    };
    return { status: 200, body };
  }

  function createRefund(input: Record<string, unknown>): FakeAnswer {
    const { out_trade_no, out_refund_no, reason, notify_url, amount } = input;
    const { refund, total, currency } = (amount ?? {}) as Record<string, unknown>;
    const order = orders.get(String(out_trade_no));
    if (!order) return fail(404, 'RESOURCE_NOT_EXISTS', '订单不存在');
    if (typeof out_refund_no !== 'string' || !out_refund_no) return fail(400, 'PARAM_ERROR', '参数错误');
    const repeated = refunds.get(out_refund_no);
    if (repeated) return refundAnswer(repeated, order);
    if (!isPaid(order)) return fail(400, 'NOT_ENOUGH', '交易未支付');
    if (total !== order.total || currency !== 'CNY') return fail(400, 'INVALID_REQUEST', '订单金额或币种不一致');
    if (typeof refund !== 'number' || !Number.isSafeInteger(refund) || refund < 1) {
      return fail(400, 'PARAM_ERROR', '参数错误: amount.refund');
    }
    if (refund > order.total - order.refunded) return fail(400, 'INVALID_REQUEST', '申请退款金额超过订单可退金额');
    const created: FakeRefund = {
      refundId: `50000${digits(27)}`,
      outRefundNo: out_refund_no,
      outTradeNo: order.outTradeNo,
      refund,
      reason: typeof reason === 'string' ? reason : undefined,
      notifyUrl: typeof notify_url === 'string' ? notify_url : undefined,
    };
    refunds.set(out_refund_no, created);
    order.refunded += refund;
    order.tradeState = 'REFUND';
    return refundAnswer(created, order);
  }

  /** Routes one authenticated request. */
  function handle(method: string, url: URL, input: Record<string, unknown>): FakeAnswer {
    if (method === 'POST' && url.pathname === '/v3/pay/transactions/native') return createNative(input);
    if (method === 'POST' && url.pathname === '/v3/refund/domestic/refunds') return createRefund(input);
    const match = /^\/v3\/pay\/transactions\/out-trade-no\/([^/]+)(\/close)?$/.exec(url.pathname);
    const closing = match?.[2] !== undefined;
    if (!match || method !== (closing ? 'POST' : 'GET')) return fail(404, 'RESOURCE_NOT_EXISTS', '请求的资源不存在');
    if ((closing ? input.mchid : url.searchParams.get('mchid')) !== merchant.mchId) {
      return fail(400, 'PARAM_ERROR', '参数错误: mchid');
    }
    const order = orders.get(decodeURIComponent(match[1]));
    if (!order) return fail(404, 'ORDER_NOT_EXIST', '订单不存在');
    if (!closing) return { status: 200, body: transactionOf(order) };
    if (isPaid(order)) return fail(400, 'ORDERPAID', '订单已支付');
    order.tradeState = 'CLOSED';
    return { status: 204 };
  }

  /** The payer pays: the order becomes SUCCESS with a transaction id and a time. */
  function markPaid(outTradeNo: string): FakeOrder {
    const order = orders.get(outTradeNo);
    if (order?.tradeState !== 'NOTPAY') throw new Error(`order ${outTradeNo} cannot be paid`);
    if (new Date(order.timeExpire).getTime() < merchant.now().getTime()) throw new Error(`order ${outTradeNo} expired`);
    order.tradeState = 'SUCCESS';
    order.transactionId = `42000${digits(23)}`;
    order.successTime = beijing(merchant.now());
    return order;
  }

  return { orders, refunds, handle, markPaid };
}
