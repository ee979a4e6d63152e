import {
  agentStreams,
  billingRoutes as billing,
  ERRORS,
  formatFen,
  type PlatformModel,
  type RechargeOrder,
  billingUsageRoutes as r,
} from '@athena/contract';
import { type FakeOpenAI, startFakeOpenAI } from '@athena/fake-openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTeam, type TeamFixture } from '../../testing/fixtures.ts';
import { createTestApp, type TestApp } from '../../testing/test-app.ts';
import { stream } from '../agent/agent-test-helpers.ts';

const OPERATOR = '13499999998';
const API = '/api/athena/v1';
/** An amount as people read it: yuan with exactly two decimals. */
const WHOLE_FEN = /^-?¥[\d,]+\.\d{2}$/;

// Amounts in refusals are for people: every placeholder filled, and never a fraction of a fen.
describe('money in refusals', () => {
  let t: TestApp;
  let fake: FakeOpenAI;
  let team: TeamFixture;

  beforeAll(async () => {
    fake = await startFakeOpenAI({ tokenDelayMs: 1, apiKey: 'sk-platform-secret' });
    t = await createTestApp({ env: { ALLOW_PRIVATE_MODEL_ENDPOINTS: 'true', OPERATOR_PHONES: OPERATOR } });
    team = await buildTeam(t, { phonePrefix: '134200000' });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  it('refuses a recharge of 150.5, "100", null or 1e20 naming the limits, in English and Chinese', async () => {
    for (const amount of [150.5, '100', null, 1e20, 99, 5_000_001]) {
      for (const [language, limits] of [
        ['en', 'between ¥1.00 and ¥50,000.00'],
        ['zh-CN', '¥1.00 到 ¥50,000.00'],
        ['zh-TW', '¥1.00 到 ¥50,000.00'],
      ]) {
        const answer = (
          await t.call(billing.rechargeCreate, { amount, channel: 'dev' }, { ...team.as(team.creator), language })
        ).body;
        expect(answer.code, `${amount} ${language}`).toBe(ERRORS.RECHARGE_AMOUNT_INVALID.code);
        expect(answer.msg, `${amount} ${language}`).toContain(limits);
        expect(answer.msg).not.toMatch(/\{\w+\}/);
      }
    }
  });

  it('says in whole fen what a platform model call would need and what the team has', async () => {
    const operator = await t.signInBySms(OPERATOR);
    // ¥2 and ¥5 per 1 000 tokens: a call's fee and its hold fall between two fen.
    const model = (
      await t.call(
        r.platformModelCreate,
        {
          model_name: 'Priced',
          version: 'fake-chat',
          base_url: fake.url,
          api_key: 'sk-platform-secret',
          input_price: 200_000,
          output_price: 500_000,
        },
        { token: operator },
      )
    ).body.data as PlatformModel;
    const order = (await t.call(billing.rechargeCreate, { amount: 1_000, channel: 'dev' }, team.as(team.creator))).body
      .data as RechargeOrder;
    await t.call(billing.devCashierPay, { order_no: order.order_no });
    const agent = async (maxTokens: number | null) =>
      (
        await t.call<{ id: string }>(
          `${API}/agent/create`,
          { name: `Priced ${maxTokens}`, model_key_id: model.id, params: { temperature: 0.5, max_tokens: maxTokens } },
          team.as(team.member),
        )
      ).body.data.id;
    // One small call first, so what the team has left is not a whole number of fen either.
    const small = await stream(
      t,
      agentStreams.chat,
      { agent_id: await agent(40), message: 'hi' },
      team.as(team.member),
    );
    expect(small.events.at(-1)).toEqual({ event: 'end', data: { status: 'complete' } });
    const fees = (await t.call(r.usageList, {}, team.as(team.creator))).body.data as { total_fee_millifen: number };
    expect(fees.total_fee_millifen % 1000).not.toBe(0);

    const uncapped = await agent(null);
    for (const language of ['en', 'zh-CN'] as const) {
      const refused = await stream(
        t,
        agentStreams.chat,
        { agent_id: uncapped, message: 'tell me everything' },
        { ...team.as(team.member), language },
      );
      expect(refused.json?.code).toBe(ERRORS.MODEL_BALANCE_INSUFFICIENT.code);
      const amounts = refused.json?.msg.match(/-?¥[\d,.]+\d/g) ?? [];
      expect(amounts, refused.json?.msg).toHaveLength(2);
      for (const amount of amounts) expect(amount, refused.json?.msg).toMatch(WHOLE_FEN);
      // What is there is rounded down: ¥10 less the fee, never more than the team has.
      expect(amounts[0]).toBe(formatFen(Math.floor((1_000_000 - fees.total_fee_millifen) / 1000)));
    }
  });
});
