import {
  createCipheriv,
  createSign,
  createVerify,
  generateKeyPair,
  type KeyObject,
  randomBytes,
  randomInt,
  randomUUID,
} from 'node:crypto';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import {
  alnum,
  beijing,
  createOrderBook,
  digits,
  type FakeOrder,
  type FakeRefund,
  transactionOf,
} from './fake-wechat-pay-orders.ts';
import { createSelfSignedCertificate } from './self-signed-certificate.ts';

export type { FakeOrder, FakeRefund, FakeTradeState } from './fake-wechat-pay-orders.ts';

/**
 * A local stand-in for WeChat Pay API v3 (Native): create, query, close, refund, and the signed,
 * encrypted payment notification. It checks each request's Authorization with its own reading of
 * the documented scheme (deliberately not the client's helpers, so a shared bug cannot pass
 * unnoticed) and signs every answer with its platform key: the WeChat Pay public key (PUB_KEY_ID_…)
 * or a platform certificate, whichever `useSigningKey` chose.
 */

export type FakeSigningKey = 'public_key' | 'certificate';

export interface FakeWechatPayOptions {
  mchId?: string;
  appId?: string;
  signWith?: FakeSigningKey;
  /** The fake's clock: request timestamps, answer timestamps, order expiry. */
  now?: () => Date;
}

export interface FakeRequest {
  method: string;
  path: string;
  body: unknown;
  status: number;
  /** The error code answered, or 'OK'. */
  code: string;
}

export interface FakeNotice {
  /** Lower-cased, as a Node server sees them. */
  headers: Record<string, string>;
  body: Buffer;
}

export interface FakeNoticeOptions {
  /** Wechatpay-Timestamp in seconds; the fake's clock by default. */
  timestamp?: number;
  signWith?: FakeSigningKey;
  /** Signs with this private key instead, still claiming the genuine serial (a forger). */
  forgeryKey?: KeyObject;
  serial?: string;
  /** Overrides in the sealed transaction (another merchant's mchid or appid, …). */
  transaction?: Record<string, unknown>;
  eventType?: string;
  /** Flips a ciphertext byte before signing: the signature holds, the GCM tag does not. */
  tamperCiphertext?: boolean;
  /** Seals with this key instead of the merchant's APIv3 key. */
  apiV3Key?: string;
  /** Sends this body instead (e.g. not JSON), properly signed. */
  body?: string;
}

export type FakeAnswerTamper = 'signature' | 'stale' | 'unknown_serial' | 'unsigned';

export interface FakeWechatPay {
  url: string;
  mchId: string;
  appId: string;
  merchantSerialNo: string;
  merchantPrivateKeyPem: string;
  apiV3Key: string;
  platformKeys: { publicKeyId: string; publicKeyPem: string; certificateSerial: string; certificatePem: string };
  orders: Map<string, FakeOrder>;
  refunds: Map<string, FakeRefund>;
  requests: FakeRequest[];
  /** Notifications `pay` and `deliver` posted, with the status the merchant answered. */
  deliveries: { url: string; status: number; body: string }[];
  useSigningKey(kind: FakeSigningKey): void;
  /** The payer pays: the order becomes SUCCESS and its notification is POSTed to notify_url. */
  pay(outTradeNo: string): Promise<number>;
  buildNotice(order: FakeOrder | string, options?: FakeNoticeOptions): FakeNotice;
  deliver(notice: FakeNotice, url: string): Promise<number>;
  /** The next well-signed request gets this error answer (signed, as WeChat Pay signs errors). */
  failNext(code: string, message?: string, status?: number): void;
  /** The next well-signed request gets this answer as is, e.g. a refund with status ABNORMAL. */
  answerNext(status: number, body: object): void;
  /** The next answer's Wechatpay-* headers are wrong in this way. */
  tamperNextAnswer(kind: FakeAnswerTamper): void;
  hangNextRequest(): void;
  close(): Promise<void>;
}

const generateRsa = promisify(generateKeyPair);
const newRsaKey = () => generateRsa('rsa', { modulusLength: 2048 });
const hex = (bytes: number) => randomBytes(bytes).toString('hex').toUpperCase();
// 40 hex digits like WeChat Pay's serials; a first byte below 0x80 keeps the DER INTEGER unpadded.
const serialNo = () => `${randomInt(16, 128).toString(16).toUpperCase()}${hex(19)}`;
const signB64 = (message: string, key: KeyObject) => createSign('RSA-SHA256').update(message).sign(key, 'base64');

function seal(plaintext: string, key: string, nonce: string, associatedData: string): Buffer {
  const cipher = createCipheriv('aes-256-gcm', Buffer.from(key), Buffer.from(nonce));
  cipher.setAAD(Buffer.from(associatedData));
  return Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]);
}

/** Reads `WECHATPAY2-SHA256-RSA2048 k="v",…` in any order; undefined when it is not that. */
function parseAuthorization(header: string | undefined): Record<string, string> | undefined {
  const match = /^WECHATPAY2-SHA256-RSA2048 (.+)$/.exec(header ?? '');
  if (!match) return undefined;
  const fields: Record<string, string> = {};
  for (const pair of match[1].matchAll(/(\w+)="([^"]*)"/g)) fields[pair[1]] = pair[2];
  return fields;
}

export async function startFakeWechatPay(options: FakeWechatPayOptions = {}): Promise<FakeWechatPay> {
  const mchId = options.mchId ?? '1900000109';
  const appId = options.appId ?? 'wxd678efh567hg6787';
  const now = options.now ?? (() => new Date());
  const apiV3Key = alnum(32);
  const [merchant, pubKey, certKey] = await Promise.all([newRsaKey(), newRsaKey(), newRsaKey()]);
  const merchantSerialNo = serialNo();
  const publicKeyId = `PUB_KEY_ID_011${digits(28)}`;
  const certificateSerial = serialNo();
  const certificatePem = createSelfSignedCertificate({
    ...certKey,
    serialHex: certificateSerial,
    commonName: 'Tenpay.com Root CA (fake)',
    notBefore: new Date(now().getTime() - 86_400_000),
    notAfter: new Date(now().getTime() + 5 * 365 * 86_400_000),
  });
  const platform: Record<FakeSigningKey, { serial: string; key: KeyObject }> = {
    public_key: { serial: publicKeyId, key: pubKey.privateKey },
    certificate: { serial: certificateSerial, key: certKey.privateKey },
  };
  let signingKey: FakeSigningKey = options.signWith ?? 'public_key';
  const book = createOrderBook({ mchId, appId, now });
  const { orders, refunds } = book;
  const requests: FakeRequest[] = [];
  const deliveries: FakeWechatPay['deliveries'] = [];
  let nextAnswer: { status: number; body: object } | undefined;
  let nextTamper: FakeAnswerTamper | undefined;
  let hangNext = false;
  const nowSeconds = () => Math.floor(now().getTime() / 1000);

  function answer(res: ServerResponse, request: Omit<FakeRequest, 'status' | 'code'>, status: number, body?: object) {
    const code = status < 300 ? 'OK' : String((body as { code?: string } | undefined)?.code ?? status);
    requests.push({ ...request, status, code });
    const text = body === undefined ? '' : JSON.stringify(body);
    const headers: Record<string, string> = { 'request-id': randomUUID() };
    if (body !== undefined) headers['content-type'] = 'application/json; charset=utf-8';
    // An unauthenticated request gets an unsigned answer, as from WeChat Pay.
    const tamper = nextTamper;
    nextTamper = undefined;
    if (code !== 'SIGN_ERROR' && tamper !== 'unsigned') {
      const { serial, key } = platform[signingKey];
      const timestamp = String(tamper === 'stale' ? nowSeconds() - 3600 : nowSeconds());
      const nonce = hex(16);
      const signed = tamper === 'signature' ? `${text} ` : text;
      Object.assign(headers, {
        'wechatpay-timestamp': timestamp,
        'wechatpay-nonce': nonce,
        'wechatpay-serial': tamper === 'unknown_serial' ? `PUB_KEY_ID_${digits(31)}` : serial,
        'wechatpay-signature': signB64(`${timestamp}\n${nonce}\n${signed}\n`, key),
      });
    }
    res.writeHead(status, headers).end(text);
  }

  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const path = req.url ?? '/';
    const method = req.method ?? 'GET';
    let body: unknown;
    try {
      body = raw ? JSON.parse(raw) : undefined;
    } catch {
      body = raw;
    }
    const request = { method, path, body };
    if (hangNext) {
      hangNext = false;
      requests.push({ ...request, status: 0, code: 'HUNG' });
      return;
    }
    const auth = parseAuthorization(req.headers.authorization);
    const signedFresh = auth && Math.abs(nowSeconds() - Number(auth.timestamp)) <= 300;
    const verified =
      signedFresh &&
      auth.mchid === mchId &&
      auth.serial_no === merchantSerialNo &&
      auth.nonce_str &&
      createVerify('RSA-SHA256')
        .update(`${method}\n${path}\n${auth.timestamp}\n${auth.nonce_str}\n${raw}\n`)
        .verify(merchant.publicKey, auth.signature ?? '', 'base64');
    if (!verified) return answer(res, request, 401, { code: 'SIGN_ERROR', message: '签名错误' });
    if (nextAnswer) {
      const next = nextAnswer;
      nextAnswer = undefined;
      return answer(res, request, next.status, next.body);
    }
    const input: Record<string, unknown> = typeof body === 'object' && body !== null ? { ...body } : {};
    const result = book.handle(method, new URL(path, 'http://fake'), input);
    answer(res, request, result.status, result.body);
  });

  function buildNotice(target: FakeOrder | string, opts: FakeNoticeOptions = {}): FakeNotice {
    const order = typeof target === 'string' ? orders.get(target) : target;
    if (!order) throw new Error(`fake WeChat Pay has no order ${String(target)}`);
    const resourceNonce = alnum(12);
    const sealed = seal(
      JSON.stringify({ ...transactionOf(order), ...opts.transaction }),
      opts.apiV3Key ?? apiV3Key,
      resourceNonce,
      'transaction',
    );
    if (opts.tamperCiphertext) sealed[Math.floor(sealed.length / 2)] ^= 0x01;
    const text =
      opts.body ??
      JSON.stringify({
        id: randomUUID(),
        create_time: beijing(now()),
        resource_type: 'encrypt-resource',
        event_type: opts.eventType ?? 'TRANSACTION.SUCCESS',
        summary: '支付成功',
        resource: {
          original_type: 'transaction',
          algorithm: 'AEAD_AES_256_GCM',
          ciphertext: sealed.toString('base64'),
          associated_data: 'transaction',
          nonce: resourceNonce,
        },
      });
    const { serial, key } = platform[opts.signWith ?? signingKey];
    const timestamp = String(opts.timestamp ?? nowSeconds());
    const nonce = hex(16);
    return {
      headers: {
        'content-type': 'application/json',
        'wechatpay-timestamp': timestamp,
        'wechatpay-nonce': nonce,
        'wechatpay-serial': opts.serial ?? serial,
        'wechatpay-signature': signB64(`${timestamp}\n${nonce}\n${text}\n`, opts.forgeryKey ?? key),
        'wechatpay-signature-type': 'WECHATPAY2-SHA256-RSA2048',
      },
      body: Buffer.from(text),
    };
  }

  async function deliver(notice: FakeNotice, url: string): Promise<number> {
    const response = await fetch(url, {
      method: 'POST',
      headers: { ...notice.headers, 'user-agent': 'Mozilla/4.0' },
      body: notice.body,
      signal: AbortSignal.timeout(10_000),
    });
    deliveries.push({ url, status: response.status, body: await response.text() });
    return response.status;
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    mchId,
    appId,
    merchantSerialNo,
    merchantPrivateKeyPem: merchant.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    apiV3Key,
    platformKeys: {
      publicKeyId,
      publicKeyPem: pubKey.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
      certificateSerial,
      certificatePem,
    },
    orders,
    refunds,
    requests,
    deliveries,
    useSigningKey(kind) {
      signingKey = kind;
    },
    async pay(outTradeNo) {
      const order = book.markPaid(outTradeNo);
      return deliver(buildNotice(order), order.notifyUrl);
    },
    buildNotice,
    deliver,
    failNext(code, message = '系统错误', status = 500) {
      nextAnswer = { status, body: { code, message } };
    },
    answerNext(status, body) {
      nextAnswer = { status, body };
    },
    tamperNextAnswer(kind) {
      nextTamper = kind;
    },
    hangNextRequest() {
      hangNext = true;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
