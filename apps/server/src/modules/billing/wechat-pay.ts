import { createPrivateKey, type KeyObject, randomBytes } from 'node:crypto';
import { z } from 'zod';
import {
  PaymentNoticeError,
  type PaymentProvider,
  PaymentProviderError,
  type ProviderOrderState,
} from './payment-provider.ts';
import {
  apiV3KeyBytes,
  buildAuthorization,
  checkWechatpaySignature,
  decryptResource,
  loadPlatformKeys,
  type WechatpaySignatureHeaders,
} from './wechat-pay-crypto.ts';

/**
 * WeChat Pay API v3, Native payment (the payer scans a QR code): order, query, close, refund and
 * the payment notification. Every request is signed with the merchant's API key; every answer we
 * act on and every notification must carry a valid platform signature, or it is refused.
 */

export interface WechatPayConfig {
  mchId: string;
  appId: string;
  /** Serial number of the merchant API certificate whose private key signs our requests. */
  merchantSerialNo: string;
  merchantPrivateKeyPem: string;
  /** The 32-character APIv3 key that seals notification resources. */
  apiV3Key: string;
  /** Trusted platform keys by Wechatpay-Serial: PUB_KEY_ID_… public keys and/or certificate serials. */
  platformPublicKeys: Map<string, KeyObject | string>;
  notifyUrl: string;
  /** Where refund results are posted; omitted from refunds when unset. */
  refundNotifyUrl?: string;
  apiBase?: string;
  fetch?: typeof fetch;
  now?: () => Date;
  /** How far a signed timestamp may be from our clock, either way. */
  skewSeconds?: number;
  timeoutMs?: number;
}

const transactionSchema = z.object({
  appid: z.string().optional(),
  mchid: z.string().optional(),
  out_trade_no: z.string(),
  transaction_id: z.string().optional(),
  trade_state: z.string(),
  success_time: z.string().optional(),
  amount: z.object({ total: z.number().int().optional() }).optional(),
});
type Transaction = z.infer<typeof transactionSchema>;

const noticeSchema = z.object({
  id: z.string(),
  event_type: z.string(),
  resource_type: z.string().optional(),
  resource: z.object({
    algorithm: z.literal('AEAD_AES_256_GCM'),
    ciphertext: z.string(),
    nonce: z.string(),
    associated_data: z.string().optional(),
  }),
});

const codeUrlSchema = z.object({ code_url: z.string().min(1) });
const refundSchema = z.object({ refund_id: z.string().min(1), status: z.string() });
const errorSchema = z.object({ code: z.string(), message: z.string().optional() });

const PENDING = new Set(['NOTPAY', 'USERPAYING']);
const CLOSED = new Set(['CLOSED', 'REVOKED', 'PAYERROR']);

/** A transaction's state in our terms; undefined when a paid one lacks what a credit needs. */
function toOrderState(tx: Transaction): ProviderOrderState | undefined {
  const outTradeNo = tx.out_trade_no;
  // REFUND: it was paid, then (partly) refunded; the refund is booked separately in the ledger.
  if (tx.trade_state === 'SUCCESS' || tx.trade_state === 'REFUND') {
    const paidAt = new Date(tx.success_time ?? Number.NaN);
    const amountFen = tx.amount?.total;
    if (!tx.transaction_id || amountFen === undefined || Number.isNaN(paidAt.getTime())) return undefined;
    return { state: 'paid', outTradeNo, amountFen, providerTradeNo: tx.transaction_id, paidAt };
  }
  if (PENDING.has(tx.trade_state)) return { state: 'pending', outTradeNo };
  if (CLOSED.has(tx.trade_state)) return { state: 'closed', outTradeNo };
  return undefined;
}

/** RFC 3339 in Beijing time, the only form time_expire is documented in. */
export function beijingTime(date: Date): string {
  return `${new Date(date.getTime() + 8 * 3600_000).toISOString().slice(0, 19)}+08:00`;
}

function parseJson(raw: Buffer): unknown {
  if (raw.length === 0) return undefined;
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    return undefined;
  }
}

export function createWechatPayProvider(config: WechatPayConfig): PaymentProvider {
  const doFetch = config.fetch ?? fetch;
  const now = config.now ?? (() => new Date());
  const skewSeconds = config.skewSeconds ?? 300;
  const timeoutMs = config.timeoutMs ?? 10_000;
  const base = (config.apiBase ?? 'https://api.mch.weixin.qq.com').replace(/\/+$/, '');
  // Parsed once so a bad key or a misfiled certificate fails at start-up, not at the first payment.
  const privateKey = createPrivateKey(config.merchantPrivateKeyPem);
  const apiV3Key = apiV3KeyBytes(config.apiV3Key);
  const platformKeys = loadPlatformKeys(config.platformPublicKeys);
  const nowSeconds = () => Math.floor(now().getTime() / 1000);
  const isFresh = (timestamp: string | undefined) =>
    /^\d+$/.test(timestamp ?? '') && Math.abs(nowSeconds() - Number(timestamp)) <= skewSeconds;

  /**
   * One signed API call. A 2xx answer, and the 404 ORDER_NOT_EXIST we act on, must be signed by a
   * trusted platform key and fresh. Other errors are reported without that check: WeChat Pay does
   * not sign answers to requests it could not authenticate, and an error changes nothing here.
   */
  async function call(method: 'GET' | 'POST', path: string, body?: object): Promise<{ status: number; json: unknown }> {
    const payload = body === undefined ? '' : JSON.stringify(body);
    const url = new URL(`${base}${path}`);
    const authorization = buildAuthorization({
      mchId: config.mchId,
      serialNo: config.merchantSerialNo,
      privateKey,
      method,
      pathWithQuery: `${url.pathname}${url.search}`,
      body: payload,
      timestamp: nowSeconds(),
      nonce: randomBytes(16).toString('hex').toUpperCase(),
    });
    const headers: Record<string, string> = {
      accept: 'application/json',
      authorization,
      // WeChat Pay refuses requests without a User-Agent.
      'user-agent': 'Athena-WechatPay/1.0',
    };
    if (body !== undefined) headers['content-type'] = 'application/json';

    let response: Response;
    let raw: Buffer;
    try {
      response = await doFetch(url, {
        method,
        headers,
        body: body === undefined ? undefined : payload,
        signal: AbortSignal.timeout(timeoutMs),
      });
      raw = Buffer.from(await response.arrayBuffer());
    } catch (error) {
      const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
      const failure = timedOut
        ? new PaymentProviderError(`WeChat Pay did not answer within ${timeoutMs} ms`, undefined, 'TIMEOUT')
        : new PaymentProviderError('WeChat Pay is unreachable', undefined, 'UNREACHABLE');
      failure.cause = error;
      throw failure;
    }

    const json = parseJson(raw);
    const vendorError = errorSchema.safeParse(json);
    const code = vendorError.success ? vendorError.data.code : undefined;
    if (!response.ok && !(response.status === 404 && code === 'ORDER_NOT_EXIST')) {
      const message = vendorError.success ? (vendorError.data.message ?? code) : `HTTP ${response.status}`;
      throw new PaymentProviderError(`WeChat Pay refused ${method} ${url.pathname}: ${message}`, response.status, code);
    }
    const signed: WechatpaySignatureHeaders = {
      timestamp: response.headers.get('wechatpay-timestamp') ?? undefined,
      nonce: response.headers.get('wechatpay-nonce') ?? undefined,
      signature: response.headers.get('wechatpay-signature') ?? undefined,
      serial: response.headers.get('wechatpay-serial') ?? undefined,
    };
    const check = checkWechatpaySignature(signed, raw, platformKeys);
    if (check !== 'ok' || !isFresh(signed.timestamp)) {
      const reason = check === 'ok' ? 'stale' : check;
      throw new PaymentProviderError(
        `WeChat Pay answer to ${method} ${url.pathname} failed verification (${reason})`,
        response.status,
        'UNVERIFIED_RESPONSE',
      );
    }
    return { status: response.status, json };
  }

  function readAnswer<T>(schema: z.ZodType<T>, answer: { status: number; json: unknown }, what: string): T {
    const parsed = schema.safeParse(answer.json);
    if (parsed.success) return parsed.data;
    throw new PaymentProviderError(`WeChat Pay answered ${what} in an unknown shape`, answer.status);
  }

  const ORDERS = '/v3/pay/transactions/out-trade-no';
  const notFound = (answer: { status: number }) => answer.status === 404;

  return {
    channel: 'wechat',

    async createQr(request) {
      if (!Number.isSafeInteger(request.amountFen) || request.amountFen < 1) {
        throw new PaymentProviderError(`amount must be a positive whole number of fen, got ${request.amountFen}`);
      }
      const answer = await call('POST', '/v3/pay/transactions/native', {
        appid: config.appId,
        mchid: config.mchId,
        description: request.description,
        out_trade_no: request.outTradeNo,
        time_expire: beijingTime(request.expiresAt),
        notify_url: config.notifyUrl,
        amount: { total: request.amountFen, currency: 'CNY' },
      });
      if (notFound(answer)) throw new PaymentProviderError('WeChat Pay could not create the order', 404);
      return { codeUrl: readAnswer(codeUrlSchema, answer, 'the order').code_url };
    },

    async query(outTradeNo) {
      const path = `${ORDERS}/${encodeURIComponent(outTradeNo)}?mchid=${encodeURIComponent(config.mchId)}`;
      const answer = await call('GET', path);
      if (notFound(answer)) return { state: 'not_found', outTradeNo };
      const tx = readAnswer(transactionSchema, answer, 'the query');
      if (tx.out_trade_no !== outTradeNo || (tx.mchid !== undefined && tx.mchid !== config.mchId)) {
        throw new PaymentProviderError(`WeChat Pay answered the query for ${outTradeNo} about another order`);
      }
      const state = toOrderState(tx);
      if (!state)
        throw new PaymentProviderError(`WeChat Pay reported trade_state ${tx.trade_state} without its details`);
      return state;
    },

    async close(outTradeNo) {
      // 204 when closed (again); an order WeChat Pay never saw cannot be paid either.
      await call('POST', `${ORDERS}/${encodeURIComponent(outTradeNo)}/close`, { mchid: config.mchId });
    },

    async refund(request) {
      const answer = await call('POST', '/v3/refund/domestic/refunds', {
        out_trade_no: request.outTradeNo,
        out_refund_no: request.outRefundNo,
        reason: request.reason,
        ...(config.refundNotifyUrl ? { notify_url: config.refundNotifyUrl } : {}),
        amount: { refund: request.refundFen, total: request.totalFen, currency: 'CNY' },
      });
      if (notFound(answer)) throw new PaymentProviderError(`WeChat Pay has no order ${request.outTradeNo}`, 404);
      const refund = readAnswer(refundSchema, answer, 'the refund');
      if (refund.status !== 'SUCCESS' && refund.status !== 'PROCESSING') {
        throw new PaymentProviderError(
          `WeChat Pay did not accept the refund: ${refund.status}`,
          answer.status,
          refund.status,
        );
      }
      return { providerRefundNo: refund.refund_id };
    },

    async verifyNotice(headers, rawBody) {
      const signed: WechatpaySignatureHeaders = {
        timestamp: headers['wechatpay-timestamp'],
        nonce: headers['wechatpay-nonce'],
        signature: headers['wechatpay-signature'],
        serial: headers['wechatpay-serial'],
      };
      const check = checkWechatpaySignature(signed, rawBody, platformKeys);
      if (check !== 'ok') throw new PaymentNoticeError(check, `${check}: serial ${signed.serial ?? '(none)'}`);
      if (!isFresh(signed.timestamp)) throw new PaymentNoticeError('stale', `timestamp ${signed.timestamp}`);

      const notice = noticeSchema.safeParse(parseJson(rawBody));
      if (!notice.success) throw new PaymentNoticeError('malformed');
      // Only payment results come to this URL; a refund result has another shape (and no appid).
      if (notice.data.event_type !== 'TRANSACTION.SUCCESS') {
        throw new PaymentNoticeError('malformed', `unexpected event_type ${notice.data.event_type}`);
      }
      let plaintext: string;
      try {
        plaintext = decryptResource(notice.data.resource, apiV3Key);
      } catch (error) {
        throw new PaymentNoticeError('decrypt_failed', error instanceof Error ? error.message : undefined);
      }
      const parsed = transactionSchema.safeParse(parseJson(Buffer.from(plaintext, 'utf8')));
      if (!parsed.success) throw new PaymentNoticeError('malformed', 'the resource is not a transaction');
      const tx = parsed.data;
      if (tx.mchid !== config.mchId || tx.appid !== config.appId) {
        throw new PaymentNoticeError('foreign_merchant', `mchid ${tx.mchid}, appid ${tx.appid}`);
      }
      const order = toOrderState(tx);
      if (!order) throw new PaymentNoticeError('malformed', `trade_state ${tx.trade_state} without its details`);
      return { order };
    },

    // v3: 200 or 204 without a body means received; anything else (with this body) means retry.
    acknowledge: { status: 200, contentType: 'text/plain; charset=utf-8', body: '' },
    reject: { status: 500, contentType: 'application/json; charset=utf-8', body: '{"code":"FAIL","message":"失败"}' },
  };
}
