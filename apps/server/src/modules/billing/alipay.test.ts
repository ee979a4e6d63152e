import { generateKeyPairSync } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeAlipay, startFakeAlipay } from '../../testing/fake-alipay.ts';
import { type AlipayConfig, createAlipayProvider, formatAlipayTime, parseAlipayTime } from './alipay.ts';
import {
  PaymentNoticeError,
  type PaymentProvider,
  PaymentProviderError,
  type VerifiedNotice,
} from './payment-provider.ts';

describe('Alipay times', () => {
  it('are Beijing wall-clock time whatever the process time zone', () => {
    expect(formatAlipayTime(new Date('2025-03-04T17:06:07.890Z'))).toBe('2025-03-05 01:06:07');
    expect(parseAlipayTime('2025-03-05 01:06:07')).toEqual(new Date('2025-03-04T17:06:07Z'));
    expect(parseAlipayTime('2024-02-30 00:00:00')).toBeUndefined();
    expect(parseAlipayTime('2025-03-05T01:06:07')).toBeUndefined();
  });
});

describe('createAlipayProvider against the fake Alipay gateway', () => {
  let fake: FakeAlipay;
  let receiver: Server;
  let notifyUrl: string;
  let alipay: PaymentProvider;
  // What our notify endpoint made of each notice it received.
  let received: Array<VerifiedNotice | PaymentNoticeError>;

  const provider = (overrides: Partial<AlipayConfig> = {}) =>
    createAlipayProvider({
      appId: fake.appId,
      sellerId: fake.sellerId,
      appPrivateKeyPem: fake.appPrivateKeyPem,
      alipayPublicKeyPem: fake.alipayPublicKeyPem,
      gateway: fake.gateway,
      notifyUrl,
      timeoutMs: 2_000,
      ...overrides,
    });

  beforeEach(async () => {
    fake = await startFakeAlipay();
    received = [];
    // A stand-in for our notify route: the raw bytes go to verifyNotice, the answer goes back.
    receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', async () => {
        const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
        let answer = alipay.acknowledge;
        try {
          received.push(await alipay.verifyNotice(headers, Buffer.concat(chunks)));
        } catch (error) {
          received.push(error as PaymentNoticeError);
          answer = alipay.reject;
        }
        res.writeHead(answer.status, { 'content-type': answer.contentType }).end(answer.body);
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    notifyUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/api/billing/notify/alipay`;
    alipay = provider();
  });

  afterEach(async () => {
    receiver.closeAllConnections();
    await new Promise((resolve) => receiver.close(resolve));
    await fake.close();
  });

  const order = (outTradeNo = 'ATH20250101000001', amountFen = 1234) => ({
    outTradeNo,
    amountFen,
    description: 'Athena 团队充值',
    expiresAt: new Date(Date.now() + 15 * 60_000),
  });

  it('precreates with a signed, Beijing-timed request and returns the QR code', async () => {
    const request = order();
    const { codeUrl } = await alipay.createQr(request);

    expect(alipay.channel).toBe('alipay');
    expect(codeUrl).toMatch(/^https:\/\/qr\.alipay\.com\/bax0[0-9a-f]{20}$/);
    const [sent] = fake.requests;
    expect(sent).toMatchObject({ api: 'alipay.trade.precreate', code: '10000' });
    expect(sent.params).toMatchObject({
      app_id: fake.appId,
      charset: 'utf-8',
      sign_type: 'RSA2',
      version: '1.0',
      notify_url: notifyUrl,
    });
    const drift = Math.abs(parseAlipayTime(sent.params.timestamp)!.getTime() - Date.now());
    expect(drift).toBeLessThan(5_000);
    expect(JSON.parse(sent.params.biz_content)).toEqual({
      out_trade_no: request.outTradeNo,
      total_amount: '12.34',
      subject: 'Athena 团队充值',
      time_expire: formatAlipayTime(request.expiresAt),
    });
    expect(fake.orders.get(request.outTradeNo)).toMatchObject({ totalAmount: '12.34', qrCode: codeUrl });
  });

  it('follows the order: not found until scanned, pending, paid by notice, paid by query', async () => {
    await alipay.createQr(order());
    expect(await alipay.query('ATH20250101000001')).toEqual({ state: 'not_found', outTradeNo: 'ATH20250101000001' });
    fake.scan('ATH20250101000001');
    expect(await alipay.query('ATH20250101000001')).toEqual({ state: 'pending', outTradeNo: 'ATH20250101000001' });

    expect(await fake.pay('ATH20250101000001')).toEqual({ status: 200, body: 'success' });
    const trade = fake.orders.get('ATH20250101000001')!;
    const paid = {
      state: 'paid',
      outTradeNo: 'ATH20250101000001',
      amountFen: 1234,
      providerTradeNo: trade.tradeNo,
      paidAt: parseAlipayTime(trade.gmtPayment),
    };
    expect(received).toEqual([{ order: paid }]);
    expect(await alipay.query('ATH20250101000001')).toEqual(paid);
  });

  it('closes a waiting order, and closing again or closing an unscanned order is no error', async () => {
    await alipay.createQr(order('ATH20250101000002'));
    await alipay.close('ATH20250101000002');
    await alipay.createQr(order('ATH20250101000003'));
    fake.scan('ATH20250101000003');
    await alipay.close('ATH20250101000003');
    expect(await alipay.query('ATH20250101000003')).toEqual({ state: 'closed', outTradeNo: 'ATH20250101000003' });
    await alipay.close('ATH20250101000003');
    expect(fake.requests.map((r) => r.subCode ?? r.code)).toContain('ACQ.TRADE_STATUS_ERROR');
  });

  it('refuses to close a paid order and to precreate it again', async () => {
    await alipay.createQr(order());
    await fake.pay('ATH20250101000001');
    await expect(alipay.close('ATH20250101000001')).rejects.toMatchObject({
      name: 'PaymentProviderError',
      status: 40004,
      code: 'ACQ.TRADE_STATUS_ERROR',
    });
    await expect(alipay.createQr(order())).rejects.toMatchObject({ status: 40004, code: 'ACQ.TRADE_HAS_SUCCESS' });
  });

  it('refunds once per refund number and refuses more than was paid', async () => {
    await alipay.createQr(order());
    await fake.pay('ATH20250101000001');
    const refund = { outTradeNo: 'ATH20250101000001', refundFen: 234, totalFen: 1234, reason: '用户申请退款' };

    const first = await alipay.refund({ ...refund, outRefundNo: 'RF1' });
    expect(first.providerRefundNo).toBe(`${fake.orders.get('ATH20250101000001')!.tradeNo}:RF1`);
    await alipay.refund({ ...refund, outRefundNo: 'RF1' });
    expect([...fake.orders.get('ATH20250101000001')!.refunds]).toEqual([['RF1', 234]]);
    expect(JSON.parse(fake.requests.at(-1)!.params.biz_content)).toEqual({
      out_trade_no: 'ATH20250101000001',
      refund_amount: '2.34',
      out_request_no: 'RF1',
      refund_reason: '用户申请退款',
    });

    await expect(alipay.refund({ ...refund, outRefundNo: 'RF2', refundFen: 1001 })).rejects.toMatchObject({
      code: 'ACQ.REFUND_AMT_NOT_EQUAL_TOTAL',
    });
    await alipay.refund({ ...refund, outRefundNo: 'RF3', refundFen: 1000 });
    expect(await alipay.query('ATH20250101000001')).toMatchObject({ state: 'closed' });
  });

  describe('notices', () => {
    beforeEach(async () => {
      await alipay.createQr(order());
      await fake.pay('ATH20250101000001');
      received = [];
    });

    const verify = (body: string) => alipay.verifyNotice({}, Buffer.from(body));
    const reason = async (body: string) => {
      const error = await verify(body).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(PaymentNoticeError);
      return (error as PaymentNoticeError).reason;
    };

    it('verifies values with spaces, +, %, & and non-ASCII text from the raw form', async () => {
      const { body } = fake.buildNotice('ATH20250101000001', { subject: 'A+B 100% & co 团队=充值' });
      expect(body).toContain('gmt_payment=20');
      expect(await verify(body)).toMatchObject({ order: { state: 'paid', amountFen: 1234 } });
    });

    it('reads waiting and closed notices', async () => {
      const waiting = fake.buildNotice('ATH20250101000001', { trade_status: 'WAIT_BUYER_PAY', gmt_payment: undefined });
      expect(await verify(waiting.body)).toEqual({ order: { state: 'pending', outTradeNo: 'ATH20250101000001' } });
      const closed = fake.buildNotice('ATH20250101000001', { trade_status: 'TRADE_CLOSED' });
      expect(await verify(closed.body)).toEqual({ order: { state: 'closed', outTradeNo: 'ATH20250101000001' } });
    });

    it('refuses forged and altered signatures', async () => {
      const stranger = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
      expect(await reason(fake.buildNotice('ATH20250101000001', {}, { signWith: stranger }).body)).toBe(
        'bad_signature',
      );
      const tampered = fake.buildNotice('ATH20250101000001', {}, { afterSigning: { total_amount: '0.01' } });
      expect(await reason(tampered.body)).toBe('bad_signature');
      const unsigned = fake.buildNotice('ATH20250101000001', {}, { afterSigning: { sign: undefined } });
      expect(await reason(unsigned.body)).toBe('bad_signature');
      const sha1 = fake.buildNotice('ATH20250101000001', {}, { afterSigning: { sign_type: 'RSA' } });
      expect(await reason(sha1.body)).toBe('bad_signature');
      const added = fake.buildNotice('ATH20250101000001', {}, { afterSigning: { refund_fee: '12.34' } });
      expect(await reason(added.body)).toBe('bad_signature');
    });

    it("refuses another app's or another merchant's notices, though Alipay signed them", async () => {
      expect(await reason(fake.buildNotice('ATH20250101000001', { app_id: '2021009999999999' }).body)).toBe(
        'foreign_merchant',
      );
      expect(await reason(fake.buildNotice('ATH20250101000001', { seller_id: '2088009999999999' }).body)).toBe(
        'foreign_merchant',
      );
    });

    it.each([
      ['no out_trade_no', { out_trade_no: undefined }],
      ['no trade_status', { trade_status: undefined }],
      ['no seller_id', { seller_id: undefined }],
      ['an empty seller_id', { seller_id: '' }],
      ['no trade_no', { trade_no: undefined }],
      ['no gmt_payment', { gmt_payment: undefined }],
      ['a one-decimal amount', { total_amount: '12.3' }],
      ['an unknown status', { trade_status: 'TRADE_PENDING' }],
      ['another notify_type', { notify_type: 'trade_refund_sync' }],
    ])('calls a signed notice with %s malformed', async (_name, overrides) => {
      expect(await reason(fake.buildNotice('ATH20250101000001', overrides).body)).toBe('malformed');
    });

    it('refuses a notice older than two days as stale', async () => {
      const old = formatAlipayTime(new Date(Date.now() - 3 * 86_400_000));
      expect(await reason(fake.buildNotice('ATH20250101000001', { notify_time: old }).body)).toBe('stale');
    });

    it('refuses bodies that are not a clean form', async () => {
      const { body } = fake.buildNotice('ATH20250101000001');
      expect(await reason(`${body}&out_trade_no=ATH20250101000009`)).toBe('malformed');
      expect(await reason(`${body}&x=%ZZ`)).toBe('malformed');
      expect(await reason(body.replace('charset=utf-8', 'charset=klingon'))).toBe('malformed');
      expect(await reason(`${body}&x=%FF%FE`)).toBe('malformed');
    });

    it('answers the notify request with exactly what Alipay expects', () => {
      expect(alipay.acknowledge).toEqual({ status: 200, contentType: 'text/plain; charset=utf-8', body: 'success' });
      expect(alipay.reject.body).toBe('fail');
    });
  });

  describe('gateway answers', () => {
    // The SDK's own words: 验签失败 (verification failed), or no signature to verify at all.
    it.each([
      ['altered after signing', 'tamper', /验签失败/],
      ['signed with another key', 'foreign_key', /验签失败/],
      ['unsigned', 'unsigned', /"signature" argument/],
    ] as const)('refuses an answer %s', async (_name, mischief, why) => {
      fake.nextResponse(mischief);
      const refused = alipay.createQr(order());
      await expect(refused).rejects.toBeInstanceOf(PaymentProviderError);
      await expect(refused).rejects.toThrow(why);
      expect(fake.requests).toMatchObject([{ api: 'alipay.trade.precreate', code: '10000' }]);
    });

    it('times out on a gateway that never answers', async () => {
      const impatient = provider({ timeoutMs: 300 });
      fake.nextResponse('hang');
      const started = Date.now();
      await expect(impatient.query('ATH20250101000001')).rejects.toThrow(/timeout/i);
      expect(Date.now() - started).toBeLessThan(5_000);
    });

    it('is refused by the gateway when signing with the wrong app key', async () => {
      const stranger = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
      const wrongKey = provider({ appPrivateKeyPem: stranger.export({ format: 'pem', type: 'pkcs1' }).toString() });
      await expect(wrongKey.createQr(order())).rejects.toMatchObject({ status: 40002, code: 'isv.invalid-signature' });
    });

    it('accepts the bare base64 keys that Alipay’s key tool prints', async () => {
      const bare = (pem: string) => pem.replace(/-----[A-Z ]+-----/g, '').replace(/\s+/g, '');
      const fromTool = provider({
        appPrivateKeyPem: bare(fake.appPrivateKeyPem),
        alipayPublicKeyPem: bare(fake.alipayPublicKeyPem),
      });
      await expect(fromTool.createQr(order())).resolves.toMatchObject({ codeUrl: expect.any(String) });
      expect(() => provider({ alipayPublicKeyPem: 'not a key' })).toThrow();
    });
  });
});
