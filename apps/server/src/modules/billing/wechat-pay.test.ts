import { generateKeyPairSync } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FakeWechatPay, startFakeWechatPay } from '../../testing/fake-wechat-pay.ts';
import { freePort } from '../../testing/free-port.ts';
import {
  PaymentNoticeError,
  type PaymentProvider,
  PaymentProviderError,
  type VerifiedNotice,
} from './payment-provider.ts';
import { createWechatPayProvider, type WechatPayConfig } from './wechat-pay.ts';

let fake: FakeWechatPay;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let sequence = 0;
const orderNo = () => `ATH${Date.now()}${sequence++}`;

/** The merchant's notify endpoint: raw body in, provider's verdict and answer out. */
async function startReceiver() {
  const state: { provider?: PaymentProvider; outcomes: (VerifiedNotice | PaymentNoticeError)[] } = { outcomes: [] };
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, v?.toString()]));
    const provider = state.provider!;
    try {
      state.outcomes.push(await provider.verifyNotice(headers, Buffer.concat(chunks)));
      res.writeHead(provider.acknowledge.status, { 'content-type': provider.acknowledge.contentType });
      res.end(provider.acknowledge.body);
    } catch (error) {
      if (!(error instanceof PaymentNoticeError)) throw error;
      state.outcomes.push(error);
      res.writeHead(provider.reject.status, { 'content-type': provider.reject.contentType }).end(provider.reject.body);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/billing/wechat/notify`;
  return { state, url, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

beforeAll(async () => {
  [fake, receiver] = await Promise.all([startFakeWechatPay(), startReceiver()]);
});
afterAll(async () => {
  await Promise.all([fake.close(), receiver.close()]);
});
beforeEach(() => {
  fake.useSigningKey('public_key');
  receiver.state.outcomes.length = 0;
});

type Trust = 'both' | 'public_key' | 'certificate';
function provider(overrides: Partial<WechatPayConfig> = {}, trust: Trust = 'both'): PaymentProvider {
  const keys = new Map<string, string>();
  if (trust !== 'certificate') keys.set(fake.platformKeys.publicKeyId, fake.platformKeys.publicKeyPem);
  if (trust !== 'public_key') keys.set(fake.platformKeys.certificateSerial, fake.platformKeys.certificatePem);
  const created = createWechatPayProvider({
    mchId: fake.mchId,
    appId: fake.appId,
    merchantSerialNo: fake.merchantSerialNo,
    merchantPrivateKeyPem: fake.merchantPrivateKeyPem,
    apiV3Key: fake.apiV3Key,
    platformPublicKeys: keys,
    notifyUrl: receiver.url,
    apiBase: fake.url,
    ...overrides,
  });
  receiver.state.provider = created;
  return created;
}

const inAnHour = () => new Date(Date.now() + 3600_000);
async function placed(wechat: PaymentProvider, amountFen = 4200) {
  const outTradeNo = orderNo();
  await wechat.createQr({ outTradeNo, amountFen, description: 'Athena 团队充值', expiresAt: inAnHour() });
  return outTradeNo;
}
const reasonOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 'accepted',
    (error: unknown) => (error instanceof PaymentNoticeError ? error.reason : Promise.reject(error)),
  );

describe('WeChat Pay Native against the fake, over HTTP', () => {
  it('creates an order with the documented body and returns its code_url', async () => {
    const wechat = provider();
    expect(wechat.channel).toBe('wechat');
    const outTradeNo = orderNo();
    const { codeUrl } = await wechat.createQr({
      outTradeNo,
      amountFen: 990,
      description: 'Athena 团队充值',
      expiresAt: new Date('2030-01-02T03:04:05.678Z'),
    });
    expect(codeUrl).toMatch(/^weixin:\/\/wxpay\/bizpayurl\?pr=/);
    expect(fake.requests.at(-1)).toMatchObject({ method: 'POST', path: '/v3/pay/transactions/native', status: 200 });
    expect(fake.requests.at(-1)?.body).toEqual({
      appid: fake.appId,
      mchid: fake.mchId,
      description: 'Athena 团队充值',
      out_trade_no: outTradeNo,
      time_expire: '2030-01-02T11:04:05+08:00',
      notify_url: receiver.url,
      amount: { total: 990, currency: 'CNY' },
    });
    expect(await wechat.query(outTradeNo)).toEqual({ state: 'pending', outTradeNo });
    expect(fake.requests.at(-1)?.path).toBe(`/v3/pay/transactions/out-trade-no/${outTradeNo}?mchid=${fake.mchId}`);
    expect(await wechat.query('ATHNOSUCHORDER')).toEqual({ state: 'not_found', outTradeNo: 'ATHNOSUCHORDER' });
  });

  it('pay: the signed, encrypted notification is verified and acknowledged; the query then says paid', async () => {
    const wechat = provider();
    const outTradeNo = await placed(wechat, 4200);
    expect(await fake.pay(outTradeNo)).toBe(200);
    expect(fake.deliveries.at(-1)).toMatchObject({ url: receiver.url, status: 200, body: '' });
    const order = fake.orders.get(outTradeNo)!;
    const paid = {
      state: 'paid',
      outTradeNo,
      amountFen: 4200,
      providerTradeNo: order.transactionId,
      paidAt: new Date(order.successTime!),
    };
    expect(receiver.state.outcomes).toEqual([{ order: paid }]);
    expect(await wechat.query(outTradeNo)).toEqual(paid);
  });

  it('closes an unpaid order (twice is fine, unknown is fine) and refuses to close a paid one', async () => {
    const wechat = provider();
    const outTradeNo = await placed(wechat);
    await wechat.close(outTradeNo);
    expect(fake.requests.at(-1)).toMatchObject({ path: `/v3/pay/transactions/out-trade-no/${outTradeNo}/close` });
    expect(fake.requests.at(-1)).toMatchObject({ status: 204, body: { mchid: fake.mchId } });
    expect(await wechat.query(outTradeNo)).toEqual({ state: 'closed', outTradeNo });
    await wechat.close(outTradeNo);
    await wechat.close('ATHNEVERPLACED1');
    await expect(fake.pay(outTradeNo)).rejects.toThrow(/cannot be paid/);

    const paidOrder = await placed(wechat);
    await fake.pay(paidOrder);
    await expect(wechat.close(paidOrder)).rejects.toMatchObject({ status: 400, code: 'ORDERPAID' });
  });

  it('refunds a paid order once per refund number; the query keeps saying paid', async () => {
    const wechat = provider({ refundNotifyUrl: 'https://athena.example/api/billing/wechat/refund' });
    const outTradeNo = await placed(wechat, 5000);
    await fake.pay(outTradeNo);
    const request = { outTradeNo, outRefundNo: orderNo(), refundFen: 2000, totalFen: 5000, reason: '运营退款' };
    const { providerRefundNo } = await wechat.refund(request);
    expect(fake.requests.at(-1)?.body).toEqual({
      out_trade_no: outTradeNo,
      out_refund_no: request.outRefundNo,
      reason: '运营退款',
      notify_url: 'https://athena.example/api/billing/wechat/refund',
      amount: { refund: 2000, total: 5000, currency: 'CNY' },
    });
    expect(fake.refunds.get(request.outRefundNo)?.refundId).toBe(providerRefundNo);
    expect(await wechat.refund(request)).toEqual({ providerRefundNo });
    expect(fake.orders.get(outTradeNo)?.refunded).toBe(2000);
    expect(await wechat.query(outTradeNo)).toMatchObject({ state: 'paid', amountFen: 5000 });

    const tooMuch = { ...request, outRefundNo: orderNo(), refundFen: 3001 };
    await expect(wechat.refund(tooMuch)).rejects.toMatchObject({ status: 400, code: 'INVALID_REQUEST' });
    fake.answerNext(200, { refund_id: '50000000000000000000000000001', out_refund_no: 'x', status: 'ABNORMAL' });
    await expect(wechat.refund({ ...request, outRefundNo: orderNo() })).rejects.toMatchObject({ code: 'ABNORMAL' });
    await expect(wechat.refund({ ...request, outTradeNo: 'ATHNOSUCHORDER' })).rejects.toBeInstanceOf(
      PaymentProviderError,
    );
  });
});

describe('forged, stale and foreign notifications', () => {
  let outTradeNo: string;
  beforeAll(async () => {
    outTradeNo = await placed(provider(), 100);
    fake.orders.get(outTradeNo)!.tradeState = 'SUCCESS';
    fake.orders.get(outTradeNo)!.transactionId = '4200000000000000000000000001';
    fake.orders.get(outTradeNo)!.successTime = '2030-01-01T12:00:00+08:00';
  });
  const verify = (options: Parameters<FakeWechatPay['buildNotice']>[1] = {}) => {
    const notice = fake.buildNotice(outTradeNo, options);
    return reasonOf(provider().verifyNotice(notice.headers, notice.body));
  };
  const nowSeconds = () => Math.floor(Date.now() / 1000);

  it('accepts the genuine notice, by public key or by certificate', async () => {
    expect(await verify()).toBe('accepted');
    expect(await verify({ signWith: 'certificate' })).toBe('accepted');
    expect(await verify({ timestamp: nowSeconds() - 290 })).toBe('accepted');
  });

  it('refuses each forgery with its reason', async () => {
    const { privateKey: forger } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    expect(await verify({ forgeryKey: forger })).toBe('bad_signature');
    expect(await verify({ serial: 'PUB_KEY_ID_0119999999999999999999999999' })).toBe('unknown_serial');
    expect(await verify({ timestamp: nowSeconds() - 301 })).toBe('stale');
    // Ahead by more than a second's margin: the check reads the clock a moment later, and a second
    // boundary in between made +301 read as +300 (accepted) on a loaded machine.
    expect(await verify({ timestamp: nowSeconds() + 330 })).toBe('stale');
    expect(await verify({ tamperCiphertext: true })).toBe('decrypt_failed');
    expect(await verify({ apiV3Key: 'Z'.repeat(32) })).toBe('decrypt_failed');
    expect(await verify({ transaction: { mchid: '1900000999' } })).toBe('foreign_merchant');
    expect(await verify({ transaction: { appid: 'wx0000000000000000' } })).toBe('foreign_merchant');
    expect(await verify({ body: '{"id":"EV-1","event_type":"TRANSACTION.SUCCESS","resource":' })).toBe('malformed');
    expect(await verify({ body: '{"id":"EV-1","event_type":"TRANSACTION.SUCCESS"}' })).toBe('malformed');
    expect(await verify({ eventType: 'REFUND.SUCCESS' })).toBe('malformed');
    expect(await verify({ transaction: { transaction_id: undefined } })).toBe('malformed');
  });

  it('refuses a body changed after signing, and a signature of the wrong platform key', async () => {
    const notice = fake.buildNotice(outTradeNo);
    const edited = Buffer.from(notice.body.toString().replace('"summary":"支付成功"', '"summary":"支付成功 "'));
    expect(await reasonOf(provider().verifyNotice(notice.headers, edited))).toBe('bad_signature');
    const swapped = { ...notice.headers, 'wechatpay-serial': fake.platformKeys.certificateSerial };
    expect(await reasonOf(provider().verifyNotice(swapped, notice.body))).toBe('bad_signature');
    const certOnly = provider({}, 'certificate');
    expect(await reasonOf(certOnly.verifyNotice(notice.headers, notice.body))).toBe('unknown_serial');
  });

  it('reports a not-yet-paid state as such, and answers a forged delivery with the retry answer', async () => {
    const pending = await placed(provider(), 300);
    const notice = fake.buildNotice(pending);
    expect(await provider().verifyNotice(notice.headers, notice.body)).toEqual({
      order: { state: 'pending', outTradeNo: pending },
    });
    provider();
    const { privateKey: forger } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    expect(await fake.deliver(fake.buildNotice(outTradeNo, { forgeryKey: forger }), receiver.url)).toBe(500);
    expect(fake.deliveries.at(-1)?.body).toBe('{"code":"FAIL","message":"失败"}');
    expect(receiver.state.outcomes.at(-1)).toMatchObject({ reason: 'bad_signature' });
  });
});

describe('answers and keys', () => {
  it('refuses answers whose signature is bad, unknown, stale or missing', async () => {
    const wechat = provider();
    const outTradeNo = await placed(wechat);
    for (const kind of ['signature', 'unknown_serial', 'stale', 'unsigned'] as const) {
      fake.tamperNextAnswer(kind);
      await expect(wechat.query(outTradeNo)).rejects.toMatchObject({ code: 'UNVERIFIED_RESPONSE' });
    }
    fake.tamperNextAnswer('signature');
    await expect(placed(wechat)).rejects.toMatchObject({ code: 'UNVERIFIED_RESPONSE', status: 200 });
    fake.tamperNextAnswer('signature');
    await expect(wechat.query('ATHNOSUCHORDER')).rejects.toMatchObject({ code: 'UNVERIFIED_RESPONSE', status: 404 });
  });

  it('certificate mode: trusts the platform certificate only, end to end', async () => {
    fake.useSigningKey('certificate');
    const wechat = provider({}, 'certificate');
    const outTradeNo = await placed(wechat, 1234);
    expect(await fake.pay(outTradeNo)).toBe(200);
    expect(receiver.state.outcomes).toMatchObject([{ order: { state: 'paid', amountFen: 1234 } }]);
    expect(await wechat.query(outTradeNo)).toMatchObject({ state: 'paid' });
    await expect(provider({}, 'public_key').query(outTradeNo)).rejects.toMatchObject({ code: 'UNVERIFIED_RESPONSE' });
  });

  it('public-key mode: trusts the PUB_KEY_ID_ key only, end to end', async () => {
    const wechat = provider({}, 'public_key');
    const outTradeNo = await placed(wechat, 4321);
    expect(await fake.pay(outTradeNo)).toBe(200);
    expect(receiver.state.outcomes).toMatchObject([{ order: { state: 'paid', amountFen: 4321 } }]);
    await expect(provider({}, 'certificate').query(outTradeNo)).rejects.toMatchObject({ code: 'UNVERIFIED_RESPONSE' });
  });

  it('a request signed with the wrong merchant key is refused with SIGN_ERROR', async () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const wrong = provider({ merchantPrivateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() });
    await expect(placed(wrong)).rejects.toMatchObject({ status: 401, code: 'SIGN_ERROR' });
    await expect(
      placed(provider({ merchantSerialNo: '1DDE55AD98ED71D6EDD4A4A16996DE7B47773A8C' })),
    ).rejects.toMatchObject({ code: 'SIGN_ERROR' });
  });

  it('maps vendor errors, timeouts and an unreachable host to PaymentProviderError', async () => {
    fake.failNext('SYSTEM_ERROR', '系统繁忙');
    await expect(placed(provider())).rejects.toMatchObject({ status: 500, code: 'SYSTEM_ERROR' });
    fake.hangNextRequest();
    await expect(provider({ timeoutMs: 150 }).query('ATHHUNG000')).rejects.toMatchObject({ code: 'TIMEOUT' });
    const gone = `http://127.0.0.1:${await freePort()}`;
    await expect(provider({ apiBase: gone }).query('ATHGONE000')).rejects.toMatchObject({ code: 'UNREACHABLE' });
  });

  it('refuses bad configuration at start-up', () => {
    expect(() => provider({ apiV3Key: 'too-short' })).toThrow(/32 bytes/);
    const misfiled = new Map([['ABCDEF', fake.platformKeys.certificatePem]]);
    expect(() => provider({ platformPublicKeys: misfiled })).toThrow(/has serial/);
  });

  it('acknowledges with an empty 200 and asks for a retry with a 500 FAIL', () => {
    expect(provider().acknowledge).toMatchObject({ status: 200, body: '' });
    expect(provider().reject).toMatchObject({ status: 500 });
    expect(JSON.parse(provider().reject.body)).toEqual({ code: 'FAIL', message: '失败' });
  });
});
