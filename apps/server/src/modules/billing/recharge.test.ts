import { billingLiveStream, type RechargeOrder, billingRoutes as r, teamRoutes } from '@athena/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTeam, type TeamFixture } from '../../testing/fixtures.ts';
import { createTestApp, type TestApp } from '../../testing/test-app.ts';
import { stream } from '../agent/agent-test-helpers.ts';
import { spaces } from '../space/space.schema.ts';
import { rechargeOrders } from './recharge.schema.ts';

describe('recharge orders through the dev cashier', () => {
  let t: TestApp;
  let team: TeamFixture;
  let clock = Date.parse('2026-11-27T08:00:00Z');
  const as = (token: string, space?: string) => team.as(token, space);
  const balanceOf = async (spaceId: string) =>
    (await t.database.db.select({ balance: spaces.balance }).from(spaces).where(eq(spaces.id, spaceId)))[0].balance;
  const create = async (amount: number, token = team.creator) => {
    const result = await t.call(r.rechargeCreate, { amount, channel: 'dev' }, as(token));
    expect(result.body.code, JSON.stringify(result.body)).toBe(0);
    return result.body.data as RechargeOrder;
  };
  const pay = (orderNo: string) => t.call(r.devCashierPay, { order_no: orderNo });

  beforeAll(async () => {
    t = await createTestApp({ now: () => new Date(clock), env: { CHAT_LIVE_SECONDS: '1' } });
    team = await buildTeam(t, { phonePrefix: '133100000' });
  });
  afterAll(() => t.close());

  it('creates an order with a QR, credits it once when paid, and shows it in the records', async () => {
    const summary = await t.call(r.summary, {}, as(team.creator));
    expect(summary.body.data).toMatchObject({ balance: 0, channels: ['dev'], can_recharge: true });
    const order = await create(12_345);
    expect(order).toMatchObject({ status: 'paying', amount: 12_345, channel: 'dev', paid_at: null });
    expect(order.order_no).toMatch(/^ATH\d{14}[0-9A-Z]{10}$/);
    expect(order.code_url).toBe(`${t.config.PUBLIC_URL}/dev-cashier/${order.order_no}`);

    const cashier = await t.call(r.devCashierGet, { order_no: order.order_no });
    expect(cashier.body.data).toMatchObject({ amount: 12_345, status: 'paying' });
    // Paid twice at once and once more: one credit.
    const paid = await Promise.all([pay(order.order_no), pay(order.order_no)]);
    expect(paid.map((p) => p.body.data)).toEqual([{ status: 'paid' }, { status: 'paid' }]);
    expect((await pay(order.order_no)).body.data).toEqual({ status: 'paid' });
    expect(await balanceOf(team.teamId)).toBe(12_345);

    const after = (await t.call(r.rechargeGet, { id: order.id }, as(team.admin))).body.data;
    expect(after).toMatchObject({ status: 'paid', code_url: null, provider_trade_no: `DEV${order.order_no}` });
    const records = (await t.call(r.rechargeList, {}, as(team.admin))).body.data;
    expect(records.items.map((o) => o.order_no)).toContain(order.order_no);
    const ledger = (await t.call(r.ledgerList, { kind: 'recharge' }, as(team.creator))).body.data;
    expect(ledger.items[0]).toMatchObject({
      kind: 'recharge',
      amount: 12_345,
      balance_after: 12_345,
      reference: { order_no: order.order_no, channel: 'dev' },
      actor: { id: team.ids.creator },
    });
  });

  it('refuses amounts outside the limits, unknown channels and too many open orders', async () => {
    for (const amount of [0, -100, 99, 5_000_001, 12.5, '100', null]) {
      const result = await t.call(r.rechargeCreate, { amount, channel: 'dev' }, as(team.creator));
      expect(result.body.code, String(amount)).toBe(40601);
    }
    expect((await t.call(r.rechargeCreate, { amount: 100, channel: 'wechat' }, as(team.creator))).body.code).toBe(
      40602,
    );
    const other = await buildTeam(t, { phonePrefix: '133200000' });
    const open = [];
    for (let i = 0; i < 5; i++) {
      open.push((await t.call(r.rechargeCreate, { amount: 100 + i, channel: 'dev' }, other.as(other.creator))).body);
    }
    expect(open.map((body) => body.code)).toEqual([0, 0, 0, 0, 0]);
    expect((await t.call(r.rechargeCreate, { amount: 100, channel: 'dev' }, other.as(other.creator))).body.code).toBe(
      40604,
    );
    // Cancelling one makes room; the cancelled order can no longer be paid.
    const first = open[0].data as RechargeOrder;
    const cancelled = await t.call(r.rechargeCancel, { id: first.id }, other.as(other.admin));
    expect(cancelled.body.data).toMatchObject({ status: 'closed', code_url: null });
    expect((await pay(first.order_no)).body.code).toBe(40606);
    expect((await t.call(r.rechargeCreate, { amount: 100, channel: 'dev' }, other.as(other.creator))).body.code).toBe(
      0,
    );
    expect(await balanceOf(other.teamId)).toBe(0);
  });

  it('lets only the creator and admins recharge and see the records; a stranger sees nothing', async () => {
    const order = await create(500);
    expect((await t.call(r.rechargeCreate, { amount: 500, channel: 'dev' }, as(team.member))).body.code).toBe(40300);
    expect((await t.call(r.rechargeList, {}, as(team.member))).body.code).toBe(40300);
    expect((await t.call(r.ledgerList, {}, as(team.member))).body.code).toBe(40300);
    expect((await t.call(r.settingsUpdate, { low_balance_threshold: 1 }, as(team.member))).body.code).toBe(40300);
    const memberSummary = (await t.call(r.summary, {}, as(team.member))).body.data;
    expect(memberSummary).toMatchObject({ can_recharge: false, can_view_records: false, can_manage_settings: false });
    // Another team's order id behaves like a missing one, even for that team's creator.
    expect((await t.call(r.rechargeGet, { id: order.id }, as(team.stranger, team.strangerTeamId))).body.code).toBe(
      40603,
    );
    expect((await t.call(r.rechargeCancel, { id: order.id }, as(team.stranger, team.strangerTeamId))).body.code).toBe(
      40603,
    );
    expect((await t.call(r.rechargeGet, { id: 'not-a-uuid' }, as(team.creator))).body.code).toBe(40603);
    // Not a member: the team is not theirs to name.
    expect((await t.call(r.summary, {}, as(team.stranger))).body.code).toBe(16023);
  });

  it('keeps the low-balance threshold the team sets', async () => {
    const set = await t.call(r.settingsUpdate, { low_balance_threshold: 5_000 }, as(team.admin));
    expect(set.body.data.low_balance_threshold).toBe(5_000);
    expect((await t.call(r.summary, {}, as(team.member))).body.data.low_balance_threshold).toBe(5_000);
    for (const bad of [-1, 1.5, 100_000_001, 'x']) {
      expect((await t.call(r.settingsUpdate, { low_balance_threshold: bad }, as(team.admin))).body.code).toBe(40000);
    }
    expect((await t.call(r.settingsUpdate, { low_balance_threshold: null }, as(team.admin))).body.data).toMatchObject({
      low_balance_threshold: null,
    });
  });

  it('closes expired orders in the reconciliation job, and credits a payment the notice never told', async () => {
    const paidQuietly = await create(700);
    const forgotten = await create(800);
    const billing = t.app.modules.billing;
    const before = await balanceOf(team.teamId);
    // The payer paid, but the credit never happened (as if the process died before settling).
    const row = (await t.database.db.select().from(rechargeOrders).where(eq(rechargeOrders.id, paidQuietly.id)))[0];
    expect(billing.devCashier?.pay(row.outTradeNo, { amountFen: 700, expiresAt: row.expiresAt }).state).toBe('paid');
    // Within the grace period the job leaves orders to their notices.
    expect(await billing.settlement.reconcile()).toEqual({ checked: 0, credited: 0 });
    clock += 2 * 60_000;
    expect((await billing.settlement.reconcile()).credited).toBe(1);
    expect(await balanceOf(team.teamId)).toBe(before + 700);
    expect((await pay(paidQuietly.order_no)).body.data).toEqual({ status: 'paid' });
    expect(await balanceOf(team.teamId)).toBe(before + 700);
    // Once expired, the unpaid one is closed at the cashier and here.
    clock += 20 * 60_000;
    await billing.settlement.reconcile();
    const closed = (await t.call(r.rechargeGet, { id: forgotten.id }, as(team.creator))).body.data;
    expect(closed.status).toBe('closed');
    expect((await pay(forgotten.order_no)).body.code).toBe(40606);
    expect(await balanceOf(team.teamId)).toBe(before + 700);
  });

  it('tells the live stream when an order is paid and the balance changed', async () => {
    const order = await create(1_000);
    const watching = stream(t, billingLiveStream, {}, as(team.admin));
    const member = stream(t, billingLiveStream, {}, as(team.member));
    await new Promise((resolve) => setTimeout(resolve, 100));
    await pay(order.order_no);
    const events = (await watching).events;
    const balance = await balanceOf(team.teamId);
    expect(events.filter((e) => e.event === 'order')).toEqual([
      { event: 'order', data: { id: order.id, status: 'paid' } },
    ]);
    expect(events.filter((e) => e.event === 'balance')).toEqual([{ event: 'balance', data: { balance } }]);
    // A member hears the balance, not the orders.
    expect((await member).events.map((e) => e.event)).toEqual(['balance', 'bye']);
  });

  it('tells someone removed from the team nothing more of it', async () => {
    const other = await buildTeam(t, { phonePrefix: '133300000' });
    const watching = stream(t, billingLiveStream, {}, other.as(other.member));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const removed = await t.call(teamRoutes.memberRemove, { user_id: other.ids.member }, other.as(other.creator));
    expect(removed.body.code).toBe(0);
    const order = (await t.call(r.rechargeCreate, { amount: 300, channel: 'dev' }, other.as(other.creator))).body
      .data as RechargeOrder;
    await pay(order.order_no);
    expect((await watching).events.map((e) => e.event)).toEqual(['bye']);
  });
});
