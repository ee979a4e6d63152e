import {
  agentRoutes,
  agentStreams,
  billingRoutes as billing,
  type PlatformModel,
  type RechargeOrder,
  billingUsageRoutes as r,
  USAGE_EXPORT_PATH,
  type UsageRecord,
} from '@athena/contract';
import { type FakeOpenAI, startFakeOpenAI } from '@athena/fake-openai';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTeam, type TeamFixture } from '../../testing/fixtures.ts';
import { createTestApp, type TestApp } from '../../testing/test-app.ts';
import { stream } from '../agent/agent-test-helpers.ts';
import { spaces } from '../space/space.schema.ts';
import { auditLogs } from '../team/team.schema.ts';
import { ledgerEntries } from './ledger.schema.ts';
import { usageAccounts, usageHolds } from './usage-charge.schema.ts';

const OPERATOR = '13499999999';
const API = '/api/athena/v1';

describe('platform models: priced calls, holds, fee records and operators', () => {
  let t: TestApp;
  let fake: FakeOpenAI;
  let team: TeamFixture;
  let operator: string;
  let model: PlatformModel;
  const balanceOf = async (spaceId: string) =>
    (await t.database.db.select({ balance: spaces.balance }).from(spaces).where(eq(spaces.id, spaceId)))[0].balance;
  const recharge = async (amount: number) => {
    const order = (await t.call(billing.rechargeCreate, { amount, channel: 'dev' }, team.as(team.creator))).body
      .data as RechargeOrder;
    await t.call(billing.devCashierPay, { order_no: order.order_no });
    return order;
  };
  const newAgent = async (token: string, maxTokens: number | null) =>
    (
      await t.call<{ id: string }>(
        `${API}/agent/create`,
        { name: `Priced ${maxTokens}`, model_key_id: model.id, params: { temperature: 0.5, max_tokens: maxTokens } },
        team.as(token),
      )
    ).body.data.id;
  const chat = (agentId: string, token: string, message = 'hello there') =>
    stream(t, agentStreams.chat, { agent_id: agentId, message }, team.as(token));

  beforeAll(async () => {
    fake = await startFakeOpenAI({ tokenDelayMs: 1, apiKey: 'sk-platform-secret' });
    t = await createTestApp({ env: { ALLOW_PRIVATE_MODEL_ENDPOINTS: 'true', OPERATOR_PHONES: OPERATOR } });
    team = await buildTeam(t, { phonePrefix: '134100000' });
    operator = await t.signInBySms(OPERATOR);
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  it('lets only operators manage the catalogue; members see enabled models without endpoints', async () => {
    const fields = {
      model_name: 'Qwen (platform)',
      version: 'fake-chat',
      base_url: fake.url,
      api_key: 'sk-platform-secret',
      // ¥2 and ¥5 per 1 000 tokens: dear, so each call's fee shows in whole fen.
      input_price: 200_000,
      output_price: 500_000,
    };
    expect((await t.call(r.platformModelCreate, fields, team.as(team.creator))).body.code).toBe(40300);
    for (const price of [-1, 1.5, 10_000_001]) {
      expect(
        (await t.call(r.platformModelCreate, { ...fields, input_price: price }, { token: operator })).body.code,
      ).toBe(40608);
    }
    model = (await t.call(r.platformModelCreate, fields, { token: operator })).body.data as PlatformModel;
    expect(model).toMatchObject({ input_price: 200_000, api_key_masked: 'sk-…cret', enabled: true });
    const hidden = await t.call(
      r.platformModelCreate,
      { ...fields, model_name: 'Off', enabled: false },
      { token: operator },
    );
    const seen = (await t.call(r.platformModels, {}, team.as(team.member))).body.data;
    expect(seen.is_operator).toBe(false);
    expect(seen.items).toEqual([{ ...model, base_url: null, api_key_masked: null }]);
    expect(JSON.stringify(seen)).not.toContain('sk-');
    // An agent may name an enabled platform model, not a disabled one.
    const off = await t.call(
      `${API}/agent/create`,
      { name: 'Off', model_key_id: (hidden.body.data as PlatformModel).id },
      team.as(team.member),
    );
    expect(off.body.code).not.toBe(0);
  });

  it('refuses a call the balance cannot cover before anything is stored, with a way out', async () => {
    const agent = await newAgent(team.member, null);
    const refused = await chat(agent, team.member);
    expect(refused.isStream).toBe(false);
    expect(refused.json).toMatchObject({ code: 40607 });
    expect(refused.json?.msg).toMatch(/可用 ¥0\.00/);
    const conversations = await t.call(agentRoutes.conversations, { agent_id: agent }, team.as(team.member));
    expect(conversations.body.code, JSON.stringify(conversations.body)).toBe(0);
    expect(conversations.body.data.items).toHaveLength(0);
  });

  it('charges each call its exact fee, carrying fractions of a fen, and lists it in the fee records', async () => {
    await recharge(1_000);
    // ¥10 cannot hold 4 096 answer tokens at ¥5 per 1 000; an agent capped at 40 tokens can.
    const uncapped = await newAgent(team.member, null);
    expect((await chat(uncapped, team.member)).json?.code).toBe(40607);
    const agent = await newAgent(team.member, 40);
    for (const message of ['hello there', '你好，请介绍一下', 'one more question please']) {
      const turn = await chat(agent, team.member, message);
      expect(turn.events.at(-1), JSON.stringify(turn.events)).toEqual({ event: 'end', data: { status: 'complete' } });
    }
    const records = (await t.call(r.usageList, { paid_only: true }, team.as(team.creator))).body.data;
    expect(records.items).toHaveLength(3);
    for (const record of records.items as UsageRecord[]) {
      const exact = Math.ceil((record.input_tokens * 200_000 + record.output_tokens * 500_000) / 1000);
      expect(record).toMatchObject({ platform: true, kind: 'agent', subject: { id: agent, name: 'Priced 40' } });
      // Named as pickers name the platform model, not by its version.
      expect(record.model_name).toBe('Qwen (platform)');
      expect(record.fee_millifen).toBe(exact);
    }
    const fees = records.items.reduce((sum: number, item: UsageRecord) => sum + item.fee_millifen, 0);
    expect(records.total_fee_millifen).toBe(fees);
    // The ledger collected the whole fen of the total; the fraction waits for the next call.
    const usage = await t.database.db.select().from(ledgerEntries).where(eq(ledgerEntries.kind, 'usage'));
    expect(-usage.reduce((sum, entry) => sum + entry.amount, 0)).toBe(Math.floor(fees / 1000));
    expect(await balanceOf(team.teamId)).toBe(1_000 - Math.floor(fees / 1000));
    const [account] = await t.database.db.select().from(usageAccounts).where(eq(usageAccounts.spaceId, team.teamId));
    expect(account).toMatchObject({ feeMillifen: fees, chargedFen: Math.floor(fees / 1000) });
    // The record list says what waits to be debited.
    expect(records.unsettled_millifen).toBe(fees % 1000);
    expect(await t.database.db.select().from(usageHolds)).toHaveLength(0);
  });

  it('charges a cancelled call for what streamed and gives its hold back', async () => {
    const key = await t.app.modules.billing.resolvePlatformModel(model.id);
    if (!key) throw new Error('the platform model did not resolve');
    const accountOf = async () =>
      (await t.database.db.select().from(usageAccounts).where(eq(usageAccounts.spaceId, team.teamId)))[0];
    const before = await accountOf();
    const controller = new AbortController();
    const call = async () => {
      for await (const chunk of t.app.modules.modelKey.gateway.chatStream({
        key,
        messages: [{ role: 'user', content: 'please answer at some length so it can be stopped' }],
        maxTokens: 40,
        signal: controller.signal,
        usage: { spaceId: team.teamId, userId: team.ids.member, source: 'agent.chat' },
      })) {
        if (chunk.choices[0]?.delta?.content) controller.abort();
      }
    };
    await expect(call()).rejects.toThrow();
    const [last] = (await t.call(r.usageList, { paid_only: true }, team.as(team.creator))).body.data.items;
    expect(last).toMatchObject({ outcome: 'cancelled', subject: null });
    expect(last.output_tokens).toBeGreaterThan(0);
    expect(last.fee_millifen).toBeGreaterThan(0);
    expect((await accountOf()).feeMillifen).toBe(before.feeMillifen + last.fee_millifen);
    expect(await t.database.db.select().from(usageHolds)).toHaveLength(0);
  });

  it('shows a member only their own calls; creator and admins see, filter, chart and export all', async () => {
    const adminAgent = await newAgent(team.admin, 40);
    await chat(adminAgent, team.admin, 'admin asks');
    const mine = (await t.call(r.usageList, {}, team.as(team.member))).body.data;
    expect(mine.items.every((item: UsageRecord) => item.user?.id === team.ids.member)).toBe(true);
    // Asking for someone else's calls still answers with one's own.
    const sneaky = (await t.call(r.usageList, { user_id: team.ids.admin }, team.as(team.member))).body.data;
    expect(sneaky.items.every((item: UsageRecord) => item.user?.id === team.ids.member)).toBe(true);
    const admins = (await t.call(r.usageList, { user_id: team.ids.admin }, team.as(team.creator))).body.data;
    expect(admins.items.map((item: UsageRecord) => item.subject?.id)).toEqual([adminAgent]);
    const bySubject = (await t.call(r.usageList, { kind: 'agent', subject_id: adminAgent }, team.as(team.creator))).body
      .data;
    expect(bySubject.total).toBe(1);
    expect((await t.call(r.usageList, { model: 'nope' }, team.as(team.creator))).body.data.total).toBe(0);
    const all = (await t.call(r.usageList, { time: { preset: '24h' } }, team.as(team.creator))).body.data;
    const dailyBody = (await t.call(r.usageDaily, { time_zone: 'Asia/Shanghai' }, team.as(team.creator))).body;
    expect(dailyBody.code, JSON.stringify(dailyBody)).toBe(0);
    const daily = dailyBody.data;
    expect(daily.days).toHaveLength(1);
    expect(daily.days[0]).toMatchObject({ calls: all.total, fee_millifen: all.total_fee_millifen });
    expect((await t.call(r.usageDaily, { time_zone: 'Mars/Olympus' }, team.as(team.creator))).body.code).toBe(40000);
    // A stranger's team has no such calls.
    expect((await t.call(r.usageList, {}, team.as(team.stranger, team.strangerTeamId))).body.data.total).toBe(0);

    const csv = await t.app.inject({
      method: 'POST',
      url: USAGE_EXPORT_PATH,
      headers: { 'content-type': 'application/json', language: 'en', ...team.as(team.creator) },
      payload: '{}',
    });
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    const lines = csv.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe('Time,Type,Subject,Member,Model,Billing,Input tokens,Output tokens,Fee (CNY),Outcome');
    expect(lines).toHaveLength(all.total + 1);
    expect(lines[1]).toContain(',Platform model,');
    const denied = await t.app.inject({ method: 'POST', url: USAGE_EXPORT_PATH, payload: {} });
    expect(denied.json()).toMatchObject({ code: 10001 });
  });

  it('lets operators refund a recharge in part and adjust a balance, in the ledger and the audit log', async () => {
    const order = await recharge(5_000);
    expect((await t.call(r.operatorLookup, { query: order.order_no }, team.as(team.creator))).body.code).toBe(40300);
    const found = (await t.call(r.operatorLookup, { query: order.order_no }, { token: operator })).body.data;
    expect(found.space).toMatchObject({ id: team.teamId, name: 'Test team' });
    expect(found.orders.map((o: { order_no: string }) => o.order_no)).toContain(order.order_no);
    expect((await t.call(r.operatorLookup, { query: 'nothing' }, { token: operator })).body.code).toBe(40612);

    const before = await balanceOf(team.teamId);
    const tooMuch = await t.call(
      r.operatorRefund,
      { order_id: order.id, amount: 5_001, reason: 'x' },
      { token: operator },
    );
    expect(tooMuch.body.code).toBe(40610);
    expect(
      (await t.call(r.operatorRefund, { order_id: order.id, amount: 100, reason: ' ' }, { token: operator })).body.code,
    ).toBe(40609);
    const part = await t.call(
      r.operatorRefund,
      { order_id: order.id, amount: 2_000, reason: '客户要求' },
      { token: operator },
    );
    expect(part.body.data).toEqual({ refunded: 2_000, balance: before - 2_000 });
    const rest = await t.call(
      r.operatorRefund,
      { order_id: order.id, amount: 3_001, reason: 'again' },
      { token: operator },
    );
    expect(rest.body.code).toBe(40610);

    const adjusted = await t.call(
      r.operatorAdjust,
      { space_id: team.teamId, amount: -150, reason: '补差', request_id: 'adjust-request-1' },
      { token: operator },
    );
    expect(adjusted.body.data.balance).toBe(before - 2_150);
    // The same request again (an answer lost on the way): adjusted once.
    const retried = await t.call(
      r.operatorAdjust,
      { space_id: team.teamId, amount: -150, reason: '补差', request_id: 'adjust-request-1' },
      { token: operator },
    );
    expect(retried.body.data.balance).toBe(before - 2_150);
    expect(await balanceOf(team.teamId)).toBe(before - 2_150);
    const overdraw = await t.call(
      r.operatorAdjust,
      { space_id: team.teamId, amount: -1_000_000, reason: 'x', request_id: 'adjust-request-2' },
      { token: operator },
    );
    expect(overdraw.body.code).toBe(40600);
    expect(
      (
        await t.call(
          r.operatorAdjust,
          { space_id: team.teamId, amount: 5, reason: 'x', request_id: 'adjust-request-3' },
          team.as(team.admin),
        )
      ).body.code,
    ).toBe(40300);
    const audit = await t.database.db.select().from(auditLogs).where(eq(auditLogs.spaceId, team.teamId));
    expect(audit.map((row) => row.action)).toEqual(
      expect.arrayContaining(['billing.recharge', 'billing.refund', 'billing.adjust']),
    );
    const drift = await t.app.modules.billing.ledger.drift();
    expect(drift).toEqual([]);
  });
});
