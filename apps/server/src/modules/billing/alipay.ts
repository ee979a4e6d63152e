import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { TextDecoder } from 'node:util';
import type { AlipaySdk } from 'alipay-sdk';
import { AlipayAmountError, fenToYuan, yuanToFen } from './alipay-amount.ts';
import {
  PaymentNoticeError,
  type PaymentProvider,
  PaymentProviderError,
  type ProviderOrderState,
} from './payment-provider.ts';

/**
 * Alipay face-to-face payment (当面付): `alipay.trade.precreate` gives a QR code the payer scans.
 * Requests go through the official `alipay-sdk` (OpenAPI v2, form POST to gateway.do, RSA2); the
 * asynchronous notification is verified here from the raw body with the SDK's checkNotifySignV2.
 */

export const ALIPAY_GATEWAY = 'https://openapi.alipay.com/gateway.do';

export interface AlipayConfig {
  appId: string;
  /** The merchant's PID (2088…), what Alipay puts in a notice's `seller_id`. */
  sellerId: string;
  /** The app's RSA private key: PEM (PKCS#8 or PKCS#1) or the bare base64 Alipay's key tool prints. */
  appPrivateKeyPem: string;
  /** Alipay's public key from the open platform console (not the app's own public key). */
  alipayPublicKeyPem: string;
  gateway?: string;
  notifyUrl: string;
  timeoutMs?: number;
  /** For tests: the clock notices' `notify_time` is compared with. */
  now?: () => Date;
}

// Alipay retries a notice for about 25 hours; anything older than this is a replay, not a retry.
const NOTICE_MAX_AGE_MS = 48 * 3_600_000;
const NOTICE_MAX_AHEAD_MS = 15 * 60_000;
// China Standard Time has been UTC+8 all year since 1991: a fixed offset is exact and needs no tz data.
const SHANGHAI_OFFSET_MS = 8 * 3_600_000;
const ALIPAY_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

/** 'yyyy-MM-dd HH:mm:ss' in Asia/Shanghai, truncated to the second (Alipay's only time format). */
export function formatAlipayTime(date: Date): string {
  const seconds = Math.floor(date.getTime() / 1000) * 1000;
  return new Date(seconds + SHANGHAI_OFFSET_MS).toISOString().slice(0, 19).replace('T', ' ');
}

/** The inverse of formatAlipayTime; undefined for anything else, including 2024-02-30. */
export function parseAlipayTime(text: string | undefined): Date | undefined {
  if (text === undefined || !ALIPAY_TIME.test(text)) return undefined;
  const date = new Date(`${text.replace(' ', 'T')}+08:00`);
  // Date rolls 02-30 over to 03-01; formatting back catches it.
  return !Number.isNaN(date.getTime()) && formatAlipayTime(date) === text ? date : undefined;
}

function rsaKey(text: string, kind: 'private' | 'public'): KeyObject {
  const isPem = text.includes('-----BEGIN');
  const der = Buffer.from(text.replace(/\s+/g, ''), 'base64');
  let key: KeyObject;
  if (kind === 'public') {
    key = isPem ? createPublicKey(text) : createPublicKey({ key: der, format: 'der', type: 'spki' });
  } else if (isPem) {
    key = createPrivateKey(text);
  } else {
    // Alipay's key tool prints PKCS#8 by default and PKCS#1 after its "format conversion".
    try {
      key = createPrivateKey({ key: der, format: 'der', type: 'pkcs8' });
    } catch {
      key = createPrivateKey({ key: der, format: 'der', type: 'pkcs1' });
    }
  }
  if (key.asymmetricKeyType !== 'rsa') throw new TypeError(`the Alipay ${kind} key must be an RSA key`);
  return key;
}

type Fields = Record<string, unknown>;

function text(data: Fields, key: string): string | undefined {
  const value = data[key];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function businessError(method: string, data: Fields): PaymentProviderError {
  const message = text(data, 'sub_msg') ?? text(data, 'msg') ?? 'no message';
  return new PaymentProviderError(`${method}: ${message}`, Number(data.code) || undefined, text(data, 'sub_code'));
}

function malformed(message: string): PaymentNoticeError {
  return new PaymentNoticeError('malformed', message);
}

/**
 * application/x-www-form-urlencoded from the raw bytes: '+' is a space, %XX a byte, and the bytes
 * are text in the notice's own `charset` field. A repeated key is refused rather than guessed at.
 * Alipay answers in the charset of our requests (the SDK only sends utf-8); the SDK's verification
 * hashes UTF-8, so a GBK notice would verify only if it were all ASCII.
 */
export function parseNoticeForm(rawBody: Buffer): Record<string, string> {
  const pairs = rawBody
    .toString('latin1')
    .split('&')
    .filter((pair) => pair !== '')
    .map((pair) => {
      const at = pair.indexOf('=');
      return at === -1 ? [pair, ''] : [pair.slice(0, at), pair.slice(at + 1)];
    });
  const charset = pairs.find(([key]) => key === 'charset')?.[1] ?? 'utf-8';
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(/^[A-Za-z0-9_-]+$/.test(charset) ? charset : '?', { fatal: true });
  } catch {
    throw malformed(`unknown charset ${JSON.stringify(charset)}`);
  }
  const decode = (component: string) => {
    if (/%(?![0-9A-Fa-f]{2})/.test(component)) throw malformed('bad percent-escape');
    // Every char is one byte here (the body was read as latin1), so latin1 turns it back into bytes.
    const bytes = component
      .replaceAll('+', ' ')
      .replace(/%([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
    try {
      return decoder.decode(Buffer.from(bytes, 'latin1'));
    } catch {
      throw malformed(`not ${charset} text`);
    }
  };
  const fields = new Map<string, string>();
  for (const [rawKey, rawValue] of pairs) {
    const key = decode(rawKey);
    if (key === '' || fields.has(key)) throw malformed(`empty or repeated field ${JSON.stringify(key)}`);
    fields.set(key, decode(rawValue));
  }
  return Object.fromEntries(fields);
}

export function createAlipayProvider(config: AlipayConfig): PaymentProvider {
  // Parsed up front so a misconfigured key fails at start-up, then handed to the SDK as plain PEM.
  const privateKey = rsaKey(config.appPrivateKeyPem, 'private').export({ format: 'pem', type: 'pkcs8' }).toString();
  const alipayPublicKey = rsaKey(config.alipayPublicKeyPem, 'public')
    .export({ format: 'pem', type: 'spki' })
    .toString();
  const now = config.now ?? (() => new Date());

  // Loaded on first use: importing the SDK loads urllib, which patches net.Socket.prototype.destroy
  // for the whole process (alipay-sdk-nodejs-all#146), so deployments without Alipay never get it.
  let sdk: Promise<AlipaySdk> | undefined;
  const client = () => {
    sdk ??= import('alipay-sdk').then(
      ({ AlipaySdk }) =>
        new AlipaySdk({
          appId: config.appId,
          privateKey,
          keyType: 'PKCS8',
          alipayPublicKey,
          signType: 'RSA2',
          gateway: config.gateway ?? ALIPAY_GATEWAY,
          timeout: config.timeoutMs ?? 10_000,
          // Keep Alipay's snake_case keys exactly as documented.
          camelcase: false,
        }),
    );
    return sdk;
  };

  async function call(method: string, bizContent: Record<string, string>, extra: Record<string, string> = {}) {
    const alipay = await client();
    try {
      // validateSign is off by default in exec(): without it a forged or altered answer would be
      // believed. The SDK stamps `timestamp` in the process's local zone; Alipay reads Beijing time.
      const data: Fields = await alipay.exec(
        method,
        { bizContent, timestamp: formatAlipayTime(new Date()), ...extra },
        { validateSign: true },
      );
      return data;
    } catch (error) {
      // The SDK's message can quote the whole answer; the start says what went wrong.
      const message = (error instanceof Error ? error.message : String(error)).slice(0, 300);
      throw new PaymentProviderError(`${method} failed: ${message}`);
    }
  }

  function paidFields(data: Fields, timeKey: string) {
    const tradeNo = text(data, 'trade_no');
    const paidAt = parseAlipayTime(text(data, timeKey));
    const amount = text(data, 'total_amount');
    if (!tradeNo || !paidAt || !amount) return undefined;
    try {
      return { amountFen: yuanToFen(amount), providerTradeNo: tradeNo, paidAt };
    } catch (error) {
      if (error instanceof AlipayAmountError) return undefined;
      throw error;
    }
  }

  async function query(outTradeNo: string): Promise<ProviderOrderState> {
    const data = await call('alipay.trade.query', { out_trade_no: outTradeNo });
    if (data.code !== '10000') {
      // Also what Alipay answers for a precreated order nobody has scanned yet: the trade only
      // comes into being when the payer scans the code.
      if (data.sub_code === 'ACQ.TRADE_NOT_EXIST') return { state: 'not_found', outTradeNo };
      throw businessError('alipay.trade.query', data);
    }
    if (data.out_trade_no !== outTradeNo) throw new PaymentProviderError('alipay.trade.query answered another order');
    switch (data.trade_status) {
      case 'WAIT_BUYER_PAY':
        return { state: 'pending', outTradeNo };
      // Unpaid and timed out, closed by us, or paid and then refunded in full.
      case 'TRADE_CLOSED':
        return { state: 'closed', outTradeNo };
      case 'TRADE_SUCCESS':
      case 'TRADE_FINISHED': {
        const paid = paidFields(data, 'send_pay_date');
        if (!paid) throw new PaymentProviderError('alipay.trade.query: a paid trade without amount, trade_no or date');
        return { state: 'paid', outTradeNo, ...paid };
      }
      default:
        throw new PaymentProviderError(`alipay.trade.query: unknown trade_status ${String(data.trade_status)}`);
    }
  }

  return {
    channel: 'alipay',

    async createQr({ outTradeNo, amountFen, description, expiresAt }) {
      const bizContent = {
        out_trade_no: outTradeNo,
        total_amount: fenToYuan(amountFen),
        subject: description,
        time_expire: formatAlipayTime(expiresAt),
      };
      const data = await call('alipay.trade.precreate', bizContent, { notify_url: config.notifyUrl });
      if (data.code !== '10000') throw businessError('alipay.trade.precreate', data);
      const codeUrl = text(data, 'qr_code');
      if (!codeUrl || data.out_trade_no !== outTradeNo) {
        throw new PaymentProviderError('alipay.trade.precreate answered without this order or its qr_code');
      }
      return { codeUrl };
    },

    query,

    async close(outTradeNo) {
      const data = await call('alipay.trade.close', { out_trade_no: outTradeNo });
      // Not scanned yet: there is no trade to close. The QR code itself stays payable until its
      // time_expire, so a paid notice can still follow; only time_expire truly ends an Alipay order.
      if (data.code === '10000' || data.sub_code === 'ACQ.TRADE_NOT_EXIST') return;
      // Closing a closed trade is refused with the same code as closing a paid one; ask which.
      if (data.sub_code === 'ACQ.TRADE_STATUS_ERROR' && (await query(outTradeNo)).state === 'closed') return;
      throw businessError('alipay.trade.close', data);
    },

    async refund({ outTradeNo, outRefundNo, refundFen, totalFen, reason }) {
      if (refundFen > totalFen) throw new RangeError(`refund ${refundFen} exceeds the order's ${totalFen} fen`);
      const data = await call('alipay.trade.refund', {
        out_trade_no: outTradeNo,
        refund_amount: fenToYuan(refundFen),
        out_request_no: outRefundNo,
        refund_reason: reason,
      });
      if (data.code !== '10000') throw businessError('alipay.trade.refund', data);
      const tradeNo = text(data, 'trade_no');
      if (!tradeNo) throw new PaymentProviderError('alipay.trade.refund answered without trade_no');
      // Alipay issues no refund number: a refund is the trade plus our out_request_no.
      return { providerRefundNo: `${tradeNo}:${outRefundNo}` };
    },

    async verifyNotice(_headers, rawBody) {
      const fields = parseNoticeForm(rawBody);
      // Only RSA2 is accepted: the SDK would otherwise verify with whatever sign_type the sender names.
      if (!fields.sign || (fields.sign_type !== undefined && fields.sign_type !== 'RSA2')) {
        throw new PaymentNoticeError('bad_signature', 'unsigned, or not signed with RSA2');
      }
      const alipay = await client();
      // V2 verifies the values as given (our parser already decoded them once); V1 decodes again,
      // which breaks any value containing '%'.
      let valid = false;
      try {
        valid = alipay.checkNotifySignV2(fields);
      } catch {
        valid = false;
      }
      if (!valid) throw new PaymentNoticeError('bad_signature');

      for (const key of ['app_id', 'seller_id', 'notify_type', 'notify_time', 'out_trade_no', 'trade_status']) {
        if (!fields[key]) throw malformed(`missing ${key}`);
      }
      if (fields.app_id !== config.appId || fields.seller_id !== config.sellerId) {
        throw new PaymentNoticeError('foreign_merchant', `app ${fields.app_id}, seller ${fields.seller_id}`);
      }
      if (fields.notify_type !== 'trade_status_sync') throw malformed(`notify_type ${fields.notify_type}`);
      const notifyTime = parseAlipayTime(fields.notify_time);
      if (!notifyTime) throw malformed('notify_time');
      const age = now().getTime() - notifyTime.getTime();
      if (age > NOTICE_MAX_AGE_MS || age < -NOTICE_MAX_AHEAD_MS) throw new PaymentNoticeError('stale');

      const outTradeNo = fields.out_trade_no;
      switch (fields.trade_status) {
        case 'WAIT_BUYER_PAY':
          return { order: { state: 'pending', outTradeNo } };
        case 'TRADE_CLOSED':
          return { order: { state: 'closed', outTradeNo } };
        case 'TRADE_SUCCESS':
        case 'TRADE_FINISHED': {
          const paid = paidFields(fields, 'gmt_payment');
          if (!paid) throw malformed('a paid notice needs total_amount, trade_no and gmt_payment');
          return { order: { state: 'paid', outTradeNo, ...paid } };
        }
        default:
          throw malformed(`trade_status ${fields.trade_status}`);
      }
    },

    // Alipay stops retrying only on this exact body; anything else is retried for about 25 hours.
    acknowledge: { status: 200, contentType: 'text/plain; charset=utf-8', body: 'success' },
    reject: { status: 200, contentType: 'text/plain; charset=utf-8', body: 'fail' },
  };
}
