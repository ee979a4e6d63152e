import { createSign, createVerify, generateKeyPairSync, type KeyObject, randomBytes, randomInt } from 'node:crypto';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for Alipay's OpenAPI v2 gateway (gateway.do) for face-to-face payment: precreate,
 * query, close and refund, plus pay() which posts a signed trade_status_sync notice to the order's
 * notify_url. Requests are verified with the fake's own implementation of Alipay's RSA2 rule
 * (deliberately not the SDK's, so a shared bug cannot pass unnoticed); answers are signed the way
 * Alipay signs them: over the exact text of the `…_response` object, '/' escaped as '\/'.
 * Like Alipay, a precreated order is no trade until the payer scans it: query and close say
 * ACQ.TRADE_NOT_EXIST until then.
 */

export interface FakeAlipayOptions {
  appId?: string;
  sellerId?: string;
  /** How far a request's `timestamp` (Beijing time) may be from the fake's clock. */
  timestampSkewMs?: number;
}

export interface FakeAlipayOrder {
  outTradeNo: string;
  totalAmount: string;
  subject: string;
  timeExpire?: string;
  notifyUrl?: string;
  qrCode: string;
  /** CREATED: precreated, not scanned yet. */
  status: 'CREATED' | 'WAIT_BUYER_PAY' | 'TRADE_SUCCESS' | 'TRADE_CLOSED';
  tradeNo?: string;
  gmtPayment?: string;
  /** out_request_no → refund amount in fen. */
  refunds: Map<string, number>;
}

export interface FakeAlipayRequest {
  api: string;
  params: Record<string, string>;
  code: string;
  subCode?: string;
}

type Overrides = Record<string, string | undefined>;
/** A key other than Alipay's to sign with (forgery), fields changed after signing (tampering). */
export interface FakeNoticeOptions {
  signWith?: KeyObject;
  afterSigning?: Overrides;
}

/** How the next gateway answer misbehaves. */
export type FakeAlipayMischief = 'tamper' | 'foreign_key' | 'unsigned' | 'hang';

export interface FakeAlipay {
  /** The URL of its gateway.do. */
  gateway: string;
  appId: string;
  sellerId: string;
  appPrivateKeyPem: string;
  alipayPublicKeyPem: string;
  orders: Map<string, FakeAlipayOrder>;
  requests: FakeAlipayRequest[];
  /** The payer scans the QR code: the trade now exists, waiting for payment. */
  scan(outTradeNo: string): FakeAlipayOrder;
  /** The payer pays; the signed notice goes to notify_url over real HTTP. */
  pay(outTradeNo: string): Promise<{ status: number; body: string }>;
  /** A notice for this order as Alipay would send it, with fields overridden (undefined removes). */
  buildNotice(
    outTradeNo: string,
    overrides?: Overrides,
    options?: FakeNoticeOptions,
  ): { fields: Record<string, string>; body: string };
  nextResponse(mischief: FakeAlipayMischief): void;
  close(): Promise<void>;
}

const AMOUNT = /^(0|[1-9][0-9]{0,8})\.([0-9]{2})$/;
const TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
const PUBLIC_PARAMS = ['app_id', 'method', 'charset', 'sign_type', 'sign', 'timestamp', 'version'];

const fen = (amount: string) => {
  const match = AMOUNT.exec(amount);
  return match ? Number(match[1]) * 100 + Number(match[2]) : Number.NaN;
};
const yuan = (value: number) => `${Math.floor(value / 100)}.${String(value % 100).padStart(2, '0')}`;
const beijing = (date = new Date()) =>
  new Date(date.getTime() + 8 * 3_600_000).toISOString().slice(0, 19).replace('T', ' ');
const fromBeijing = (text: string) => new Date(`${text.replace(' ', 'T')}+08:00`).getTime();

// Alipay's RSA2 content: every parameter but `sign` (and, for notices, `sign_type`), sorted by
// name, joined as k=v&k=v with the values as they are (not encoded). A request's signer leaves out
// empty values; the notice verifiers in Alipay's SDKs keep them, so the fake's notices do too.
function signContent(fields: Record<string, string>, exclude: string[], dropEmpty: boolean): string {
  return Object.keys(fields)
    .filter((key) => !exclude.includes(key) && !(dropEmpty && fields[key] === ''))
    .sort()
    .map((key) => `${key}=${fields[key]}`)
    .join('&');
}

const rsaSign = (content: string, key: KeyObject) =>
  createSign('RSA-SHA256').update(content, 'utf8').sign(key, 'base64');

export async function startFakeAlipay(options: FakeAlipayOptions = {}): Promise<FakeAlipay> {
  const appId = options.appId ?? '2021000000000001';
  const sellerId = options.sellerId ?? '2088000000000001';
  const skewMs = options.timestampSkewMs ?? 15 * 60_000;
  const app = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const alipay = generateKeyPairSync('rsa', { modulusLength: 2048 });
  let foreignKey: KeyObject | undefined;
  const orders = new Map<string, FakeAlipayOrder>();
  const requests: FakeAlipayRequest[] = [];
  let mischief: FakeAlipayMischief | undefined;

  function answer(res: ServerResponse, api: string, params: Record<string, string>, payload: Record<string, string>) {
    requests.push({ api, params, code: payload.code, subCode: payload.sub_code });
    const key = /^[a-z.]+$/.test(api) ? `${api.replaceAll('.', '_')}_response` : 'error_response';
    const trick = mischief;
    mischief = undefined;
    const inner = JSON.stringify(payload).replaceAll('/', '\\/');
    let sign: string | undefined = rsaSign(inner, alipay.privateKey);
    let sent = inner;
    if (trick === 'tamper') {
      sent = JSON.stringify({ ...payload, qr_code: 'https://qr.alipay.com/bax0forged', msg: 'Tampered' });
    } else if (trick === 'foreign_key') {
      foreignKey ??= generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
      sign = rsaSign(inner, foreignKey);
    } else if (trick === 'unsigned') {
      sign = undefined;
    }
    const body = sign === undefined ? `{"${key}":${sent}}` : `{"${key}":${sent},"sign":"${sign}"}`;
    res.writeHead(200, { 'content-type': 'text/html;charset=utf-8' }).end(body);
  }

  const MSG: Record<string, string> = { '40001': 'Missing Required Arguments', '40004': 'Business Failed' };
  const fail = (code: string, subCode: string, subMsg: string) => ({
    code,
    msg: MSG[code] ?? 'Invalid Arguments',
    sub_code: subCode,
    sub_msg: subMsg,
  });
  const acq = (subCode: string, subMsg: string) => fail('40004', `ACQ.${subCode}`, subMsg);

  // An unpaid trade past its time_expire is closed by Alipay.
  function current(outTradeNo: string | undefined): FakeAlipayOrder | undefined {
    const order = outTradeNo ? orders.get(outTradeNo) : undefined;
    if (order?.status === 'WAIT_BUYER_PAY' && order.timeExpire && fromBeijing(order.timeExpire) < Date.now()) {
      order.status = 'TRADE_CLOSED';
    }
    return order;
  }

  function business(api: string, params: Record<string, string>, biz: Record<string, string>) {
    const order = current(biz.out_trade_no);
    const exists = order && order.status !== 'CREATED';
    const notExist = acq('TRADE_NOT_EXIST', '交易不存在');
    const trade = (extra: Record<string, string> = {}) => ({
      code: '10000',
      msg: 'Success',
      out_trade_no: order?.outTradeNo ?? '',
      trade_no: order?.tradeNo ?? '',
      ...extra,
    });
    switch (api) {
      case 'alipay.trade.precreate': {
        const amount = fen(biz.total_amount ?? '');
        const badExpiry = biz.time_expire !== undefined && !TIME.test(biz.time_expire);
        if (!biz.out_trade_no || !biz.subject || !(amount >= 1) || badExpiry)
          return acq('INVALID_PARAMETER', '参数无效');
        if (order?.status === 'TRADE_SUCCESS') return acq('TRADE_HAS_SUCCESS', '交易已被支付');
        if (order?.status === 'TRADE_CLOSED') return acq('TRADE_HAS_CLOSE', '交易已经关闭');
        if (order && order.totalAmount !== biz.total_amount) return acq('CONTEXT_INCONSISTENT', '交易信息被篡改');
        const created = order ?? {
          outTradeNo: biz.out_trade_no,
          totalAmount: biz.total_amount,
          subject: biz.subject,
          timeExpire: biz.time_expire,
          notifyUrl: params.notify_url,
          qrCode: `https://qr.alipay.com/bax0${randomBytes(10).toString('hex')}`,
          status: 'CREATED' as const,
          refunds: new Map<string, number>(),
        };
        orders.set(created.outTradeNo, created);
        return { code: '10000', msg: 'Success', out_trade_no: created.outTradeNo, qr_code: created.qrCode };
      }
      case 'alipay.trade.query':
        if (!order || !exists) return notExist;
        return trade({
          buyer_logon_id: '159****5620',
          trade_status: order.status,
          total_amount: order.totalAmount,
          ...(order.gmtPayment ? { send_pay_date: order.gmtPayment, buyer_pay_amount: order.totalAmount } : {}),
        });
      case 'alipay.trade.close':
        if (!order || !exists) return notExist;
        if (order.status !== 'WAIT_BUYER_PAY') return acq('TRADE_STATUS_ERROR', '交易状态不合法');
        order.status = 'TRADE_CLOSED';
        return trade();
      case 'alipay.trade.refund': {
        if (!order || !exists) return notExist;
        const amount = fen(biz.refund_amount ?? '');
        if (Number.isNaN(amount) || amount < 1 || !biz.out_request_no) return acq('INVALID_PARAMETER', '参数无效');
        const refunded = () => [...order.refunds.values()].reduce((sum, value) => sum + value, 0);
        const previous = order.refunds.get(biz.out_request_no);
        if (previous !== undefined && previous !== amount) return acq('CONTEXT_INCONSISTENT', '交易信息被篡改');
        if (previous === undefined) {
          if (order.status !== 'TRADE_SUCCESS') return acq('TRADE_STATUS_ERROR', '交易状态不合法');
          if (refunded() + amount > fen(order.totalAmount)) return acq('REFUND_AMT_NOT_EQUAL_TOTAL', '退款金额超限');
          order.refunds.set(biz.out_request_no, amount);
          if (refunded() === fen(order.totalAmount)) order.status = 'TRADE_CLOSED';
        }
        return trade({
          buyer_logon_id: '159****5620',
          fund_change: previous === undefined ? 'Y' : 'N',
          refund_fee: yuan(refunded()),
          gmt_refund_pay: beijing(),
        });
      }
      default:
        return fail('40002', 'isv.invalid-method', '不存在的方法名');
    }
  }

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const params: Record<string, string> = Object.fromEntries(url.searchParams);
      for (const [key, value] of new URLSearchParams(Buffer.concat(chunks).toString('utf8'))) {
        if (key in params) return answer(res, '', params, fail('40002', 'isv.invalid-parameter', `重复参数 ${key}`));
        params[key] = value;
      }
      const api = params.method ?? '';
      if (mischief === 'hang') {
        mischief = undefined;
        requests.push({ api, params, code: 'HUNG' });
        return;
      }
      if (req.method !== 'POST' || url.pathname !== '/gateway.do') {
        res.writeHead(404).end();
        return;
      }
      const missing = PUBLIC_PARAMS.find((key) => !params[key]);
      if (missing) {
        return answer(res, api, params, fail('40001', `isv.missing-${missing.replace('_', '-')}`, `缺少 ${missing}`));
      }
      const refuse = (subCode: string, subMsg: string) => answer(res, api, params, fail('40002', subCode, subMsg));
      if (params.app_id !== appId) return refuse('isv.invalid-app-id', '无效的AppID参数');
      if (params.sign_type !== 'RSA2') return refuse('isv.invalid-signature-type', '无效的签名类型');
      if (params.charset.toLowerCase() !== 'utf-8') return refuse('isv.invalid-charset', '字符集错误');
      if (params.version !== '1.0') return refuse('isv.invalid-parameter', 'version 必须为 1.0');
      if (!TIME.test(params.timestamp) || Math.abs(fromBeijing(params.timestamp) - Date.now()) > skewMs) {
        return refuse('isv.invalid-timestamp', '非法的时间戳参数');
      }
      const valid = createVerify('RSA-SHA256')
        .update(signContent(params, ['sign'], true), 'utf8')
        .verify(app.publicKey, params.sign, 'base64');
      if (!valid) return refuse('isv.invalid-signature', '验签出错');
      let biz: Record<string, string>;
      try {
        biz = JSON.parse(params.biz_content ?? '{}');
      } catch {
        return refuse('isv.invalid-parameter', 'biz_content 不是 JSON');
      }
      answer(res, api, params, business(api, params, biz));
    });
  });

  function buildNotice(outTradeNo: string, overrides: Overrides = {}, options: FakeNoticeOptions = {}) {
    const { signWith = alipay.privateKey, afterSigning = {} } = options;
    const order = orders.get(outTradeNo);
    if (!order) throw new Error(`fake alipay: no order ${outTradeNo}`);
    const base: Overrides = {
      gmt_create: order.gmtPayment ?? beijing(),
      charset: 'utf-8',
      subject: order.subject,
      buyer_id: '2088102177846880',
      notify_id: randomBytes(17).toString('hex'),
      fund_bill_list: JSON.stringify([{ amount: order.totalAmount, fundChannel: 'ALIPAYACCOUNT' }]),
      notify_type: 'trade_status_sync',
      trade_status: order.status === 'CREATED' ? 'WAIT_BUYER_PAY' : order.status,
      app_id: appId,
      buyer_pay_amount: order.totalAmount,
      seller_id: sellerId,
      gmt_payment: order.gmtPayment,
      notify_time: beijing(),
      version: '1.0',
      out_trade_no: order.outTradeNo,
      total_amount: order.totalAmount,
      trade_no: order.tradeNo,
      auth_app_id: appId,
      buyer_logon_id: '159****5620',
      ...overrides,
    };
    const defined = (record: Overrides) =>
      Object.fromEntries(Object.entries(record).filter((entry): entry is [string, string] => entry[1] !== undefined));
    const signed = defined(base);
    const fields = defined({
      ...signed,
      sign_type: 'RSA2',
      sign: rsaSign(signContent(signed, ['sign', 'sign_type'], false), signWith),
      ...afterSigning,
    });
    // Form encoding as a Java servlet writes it: spaces become '+'.
    const body = Object.entries(fields)
      .map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(value).replaceAll('%20', '+')}`)
      .join('&');
    return { fields, body };
  }

  function scan(outTradeNo: string) {
    const order = current(outTradeNo);
    if (!order) throw new Error(`fake alipay: no order ${outTradeNo}`);
    if (order.status === 'CREATED') {
      const day = beijing().slice(0, 10).replaceAll('-', '');
      order.tradeNo = `${day}22001${String(randomInt(1e9)).padStart(9, '0')}${String(randomInt(1e6)).padStart(6, '0')}`;
      order.status = 'WAIT_BUYER_PAY';
    }
    return order;
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    gateway: `http://127.0.0.1:${port}/gateway.do`,
    appId,
    sellerId,
    appPrivateKeyPem: app.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
    alipayPublicKeyPem: alipay.publicKey.export({ format: 'pem', type: 'spki' }).toString(),
    orders,
    requests,
    scan,
    async pay(outTradeNo) {
      const order = scan(outTradeNo);
      if (order.status !== 'WAIT_BUYER_PAY') throw new Error(`fake alipay: ${outTradeNo} is ${order.status}`);
      if (!order.notifyUrl) throw new Error(`fake alipay: ${outTradeNo} has no notify_url`);
      order.status = 'TRADE_SUCCESS';
      order.gmtPayment = beijing();
      const response = await fetch(order.notifyUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
        body: buildNotice(outTradeNo).body,
      });
      return { status: response.status, body: await response.text() };
    },
    buildNotice,
    nextResponse(next) {
      mischief = next;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
