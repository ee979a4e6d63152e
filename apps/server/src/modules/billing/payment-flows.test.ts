import { generateKeyPairSync } from 'node:crypto';
import { type RechargeOrder, billingRoutes as r, teamRoutes, billingUsageRoutes as u } from '@athena/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeAlipay, startFakeAlipay } from '../../testing/fake-alipay.ts';
import { type FakeWechatPay, startFakeWechatPay } from '../../testing/fake-wechat-pay.ts';
import { buildTeam, type TeamFixture } from '../../testing/fixtures.ts';
import { freePort } from '../../testing/free-port.ts';
import { createTestApp, type TestApp } from '../../testing/test-app.ts';
import { spaces } from '../space/space.schema.ts';
import { ledgerEntries } from './ledger.schema.ts';
import { rechargeOrders } from './recharge.schema.ts';

const OPERATOR = '13599999999';

/**
 * Whole recharges through the real protocols: the server listens on a port, creates orders at the
 * local fakes of WeChat Pay and Alipay, and receives their signed notifications over HTTP.
 */
describe('recharging by WeChat Pay and Alipay', () => {
  let t: TestApp;
  let wechat: FakeWechatPay;
  let alipay: FakeAlipay;
  let team: TeamFixture;
  let clock = Date.now();
  let notifyBase = '';
  const lines: string[] = [];
  const balance = async () =>
    (await t.database.db.select({ balance: spaces.balance }).from(spaces).where(eq(spaces.id, team.teamId)))[0].balance;
  const credits = async (orderNo: string) =>
    (
      await t.database.db
        .select()
        .from(ledgerEntries)
        .where(eq(ledgerEntries.idempotencyKey, `recharge:${orderNo}`))
    ).length;
  const order = async (channel: 'wechat' | 'alipay', amount: number) => {
    const result = await t.call(r.rechargeCreate, { amount, channel }, team.as(team.creator));
    expect(result.body.code, JSON.stringify(result.body)).toBe(0);
    return result.body.data as RechargeOrder;
  };
  const statusOf = async (id: string) => (await t.call(r.rechargeGet, { id }, team.as(team.creator))).body.data.status;

  beforeAll(async () => {
    [wechat, alipay] = await Promise.all([startFakeWechatPay(), startFakeAlipay()]);
    const port = await freePort();
    notifyBase = `http://127.0.0.1:${port}/hooks/pay`;
    t = await createTestApp({
      now: () => new Date(clock),
      logLines: lines,
      env: {
        PUBLIC_URL: `http://127.0.0.1:${port}`,
        OPERATOR_PHONES: OPERATOR,
        PAYMENT_CHANNELS: 'wechat,alipay',
        WECHAT_PAY_API_BASE: wechat.url,
        WECHAT_PAY_MCH_ID: wechat.mchId,
        WECHAT_PAY_APP_ID: wechat.appId,
        WECHAT_PAY_SERIAL_NO: wechat.merchantSerialNo,
        WECHAT_PAY_PRIVATE_KEY: wechat.merchantPrivateKeyPem,
        WECHAT_PAY_API_V3_KEY: wechat.apiV3Key,
        WECHAT_PAY_PUBLIC_KEY_ID: wechat.platformKeys.publicKeyId,
        WECHAT_PAY_PUBLIC_KEY: wechat.platformKeys.publicKeyPem,
        ALIPAY_GATEWAY: alipay.gateway,
        ALIPAY_APP_ID: alipay.appId,
        ALIPAY_SELLER_ID: alipay.sellerId,
        ALIPAY_PRIVATE_KEY: alipay.appPrivateKeyPem,
        ALIPAY_PUBLIC_KEY: alipay.alipayPublicKeyPem,
      },
    });
    await t.app.listen({ port, host: '127.0.0.1' });
    team = await buildTeam(t, { phonePrefix: '135100000' });
  });
  afterAll(async () => {
    await t.close();
    await Promise.all([wechat.close(), alipay.close()]);
  });

  it('offers the configured channels and pays a WeChat Pay order once, whatever the notices do', async () => {
    expect((await t.call(r.summary, {}, team.as(team.admin))).body.data.channels).toEqual(['wechat', 'alipay']);
    expect((await t.call(r.rechargeCreate, { amount: 100, channel: 'dev' }, team.as(team.creator))).body.code).toBe(
      40602,
    );
    const paid = await order('wechat', 8_888);
    expect(paid.code_url).toMatch(/^weixin:\/\/wxpay\//);
    expect(wechat.orders.get(paid.order_no)?.notifyUrl).toBe(`${notifyBase}/wechat`);
    expect(await wechat.pay(paid.order_no)).toBe(200);
    expect(await statusOf(paid.id)).toBe('paid');
    expect(await balance()).toBe(8_888);

    // The same notice 30 times at once, as a retry storm would send it: one credit, every one answered.
    const notice = wechat.buildNotice(paid.order_no);
    const storm = await Promise.all(Array.from({ length: 30 }, () => wechat.deliver(notice, `${notifyBase}/wechat`)));
    expect(new Set(storm)).toEqual(new Set([200]));
    expect(await credits(paid.order_no)).toBe(1);
    expect(await balance()).toBe(8_888);
  });

  it('refuses forged, foreign and stale notices and credits nothing for them', async () => {
    const target = await order('wechat', 1_000);
    const forged = [
      wechat.buildNotice(target.order_no, {
        forgeryKey: generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey,
      }),
      wechat.buildNotice(target.order_no, { serial: 'PUB_KEY_ID_0000000000000000000000000000' }),
      wechat.buildNotice(target.order_no, { timestamp: Math.floor(Date.now() / 1000) - 600 }),
      wechat.buildNotice(target.order_no, { tamperCiphertext: true }),
      wechat.buildNotice(target.order_no, { transaction: { mchid: '1900000001' } }),
      wechat.buildNotice(target.order_no, { transaction: { trade_state: 'SUCCESS', appid: 'wx0000000000000000' } }),
      wechat.buildNotice(target.order_no, { body: 'not json' }),
    ];
    for (const notice of forged) expect(await wechat.deliver(notice, `${notifyBase}/wechat`)).toBe(500);
    expect(await credits(target.order_no)).toBe(0);
    expect(await statusOf(target.id)).toBe('paying');
    expect(lines.some((line) => line.includes('payment notification refused'))).toBe(true);

    // Genuinely signed, but for another amount than the order's: not credited, flagged for an operator.
    const odd = await order('wechat', 700);
    const notice = wechat.buildNotice(odd.order_no, {
      transaction: {
        trade_state: 'SUCCESS',
        transaction_id: '4200000000000000000000000001',
        success_time: '2026-11-27T10:00:00+08:00',
        amount: { total: 1, payer_total: 1, currency: 'CNY' },
      },
    });
    expect(await wechat.deliver(notice, `${notifyBase}/wechat`)).toBe(200);
    expect(await credits(odd.order_no)).toBe(0);
    expect(await statusOf(odd.id)).toBe('failed');
    expect(lines.some((line) => line.includes('payment-amount-mismatch'))).toBe(true);
  });

  it('credits a payment whose notice was lost through the reconciliation job, once, and a late notice changes nothing', async () => {
    const lost = await order('wechat', 2_500);
    // The notice goes nowhere (as if the server were down when it came).
    const book = wechat.orders.get(lost.order_no);
    if (!book) throw new Error('the fake has no such order');
    book.notifyUrl = 'http://127.0.0.1:9/nowhere';
    await wechat.pay(lost.order_no).catch(() => 0);
    expect(await statusOf(lost.id)).toBe('paying');
    clock += 2 * 60_000;
    const before = await balance();
    // The job and a late notice at the same moment: still one credit.
    const [job] = await Promise.all([
      t.app.modules.billing.settlement.reconcile(),
      wechat.deliver(wechat.buildNotice(lost.order_no), `${notifyBase}/wechat`),
    ]);
    expect(job.checked).toBeGreaterThanOrEqual(1);
    expect(await credits(lost.order_no)).toBe(1);
    expect(await balance()).toBe(before + 2_500);
    expect(await statusOf(lost.id)).toBe('paid');
  });

  it('closes an order at WeChat Pay when cancelled, and credits a payment that came first', async () => {
    const cancelled = await order('wechat', 300);
    expect((await t.call(r.rechargeCancel, { id: cancelled.id }, team.as(team.admin))).body.data.status).toBe('closed');
    expect(wechat.orders.get(cancelled.order_no)?.tradeState).toBe('CLOSED');
    const raced = await order('wechat', 400);
    const book = wechat.orders.get(raced.order_no);
    if (!book) throw new Error('the fake has no such order');
    book.notifyUrl = 'http://127.0.0.1:9/nowhere';
    await wechat.pay(raced.order_no).catch(() => 0);
    // Paid just before the person pressed cancel: the cancel finds the payment and credits it.
    const result = await t.call(r.rechargeCancel, { id: raced.id }, team.as(team.admin));
    expect(result.body.data.status).toBe('paid');
    expect(await credits(raced.order_no)).toBe(1);
  });

  it('credits a payment whose notice comes after the order was closed here (the money arrived)', async () => {
    const late = await order('wechat', 600);
    expect((await t.call(r.rechargeCancel, { id: late.id }, team.as(team.admin))).body.data.status).toBe('closed');
    const before = await balance();
    const notice = wechat.buildNotice(late.order_no, {
      transaction: {
        trade_state: 'SUCCESS',
        transaction_id: '4200000000000000000000000002',
        success_time: '2026-11-27T10:00:00+08:00',
        amount: { total: 600, payer_total: 600, currency: 'CNY' },
      },
    });
    expect(await wechat.deliver(notice, `${notifyBase}/wechat`)).toBe(200);
    expect(await statusOf(late.id)).toBe('paid');
    expect(await balance()).toBe(before + 600);
  });

  it('pays an Alipay order once, refuses forged notices, and refunds through Alipay', async () => {
    const paid = await order('alipay', 12_345);
    expect(paid.code_url).toMatch(/^https:\/\/qr\.alipay\.com\//);
    const before = await balance();
    const answer = await alipay.pay(paid.order_no);
    expect(answer).toEqual({ status: 200, body: 'success' });
    expect(await balance()).toBe(before + 12_345);
    const notice = alipay.buildNotice(paid.order_no);
    const post = (body: string) =>
      fetch(`${notifyBase}/alipay`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
        body,
      }).then((res) => res.text());
    expect(await Promise.all([post(notice.body), post(notice.body), post(notice.body)])).toEqual([
      'success',
      'success',
      'success',
    ]);
    expect(await credits(paid.order_no)).toBe(1);
    const tampered = alipay.buildNotice(paid.order_no, {}, { afterSigning: { total_amount: '99999.00' } });
    expect(await post(tampered.body)).toBe('fail');
    const foreign = alipay.buildNotice(paid.order_no, { seller_id: '2088000000000000' });
    expect(await post(foreign.body)).toBe('fail');
    expect(await balance()).toBe(before + 12_345);

    const operator = await t.signInBySms(OPERATOR);
    const refund = await t.call(
      u.operatorRefund,
      { order_id: paid.id, amount: 345, reason: '多付' },
      { token: operator },
    );
    expect(refund.body.data).toEqual({ refunded: 345, balance: before + 12_000 });
    expect(alipay.requests.some((request) => request.api === 'alipay.trade.refund')).toBe(true);
  });

  it("credits nothing for a payment to a dissolved team's order, and closes its other open order at WeChat Pay", async () => {
    const gone = await buildTeam(t, { phonePrefix: '135100200', name: 'Paid too late' });
    const orderOf = async (amount: number) => {
      const made = await t.call(r.rechargeCreate, { amount, channel: 'wechat' }, gone.as(gone.creator));
      expect(made.body.code, made.body.msg).toBe(0);
      return made.body.data as RechargeOrder;
    };
    const rowOf = async (id: string) =>
      (await t.database.db.select().from(rechargeOrders).where(eq(rechargeOrders.id, id)))[0];
    const paidLate = await orderOf(500);
    const open = await orderOf(800);
    const dissolved = await t.call(teamRoutes.dissolve, { confirm_name: 'Paid too late' }, gone.as(gone.creator));
    expect(dissolved.body.code, dissolved.body.msg).toBe(0);

    // The QR shown before the dissolve is paid: the notice is acknowledged (WeChat Pay stops
    // sending it), nothing is credited, the order fails and an operator is told to return the money.
    expect(await wechat.pay(paidLate.order_no)).toBe(200);
    expect(await credits(paidLate.order_no)).toBe(0);
    const [team] = await t.database.db.select().from(spaces).where(eq(spaces.id, gone.teamId));
    expect(team.balance).toBe(0);
    expect(await rowOf(paidLate.id)).toMatchObject({ status: 'failed', paidAt: null });
    expect(lines.some((line) => line.includes('payment-dissolved-team'))).toBe(true);

    // The next reconciliation closes the other one at WeChat Pay and here, long before it expires.
    clock += 2 * 60_000;
    await t.app.modules.billing.settlement.reconcile();
    expect(wechat.orders.get(open.order_no)?.tradeState).toBe('CLOSED');
    expect((await rowOf(open.id)).status).toBe('closed');
  });
});
