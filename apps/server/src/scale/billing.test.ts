import { agentStreams, billingRoutes, billingUsageRoutes, type RechargeOrder } from '@athena/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, startTwoProcesses, type Team, type TwoProcesses } from './two-processes.ts';

const OPERATOR = '13900000099';

/**
 * Money on a real PostgreSQL server, from two processes at once (the embedded database runs one
 * statement at a time, so only here do row locks really meet): no fen lost or doubled, and never
 * below zero.
 */
describe('two processes on one PostgreSQL server: the ledger', () => {
  let two: TwoProcesses;
  let team: Team;
  let operator: string;
  const consistent = async () => {
    const [totals] = await two.rows<{ balance: string; ledger: string; negative: string }>(
      `select s.balance, (select coalesce(sum(amount), 0) from ledger_entries where space_id = s.id) as ledger,
              (select count(*) from ledger_entries where space_id = s.id and balance_after < 0) as negative
       from spaces s where s.id = $1`,
      [team.teamId],
    );
    expect(totals.ledger).toBe(totals.balance);
    expect(totals.negative).toBe('0');
    return Number(totals.balance);
  };

  beforeAll(async () => {
    two = await startTwoProcesses({ OPERATOR_PHONES: OPERATOR });
    team = await two.buildTeam('1390000009', 'Ledger');
    operator = await two.b.signIn(OPERATOR);
  });
  afterAll(async () => {
    if (two) expect(await two.stop()).toEqual([0, 0]);
  });

  it('takes 600 one-fen debits at once from both processes on a balance of 500: exactly 500 pass', async () => {
    const order = (
      await two.a.call<RechargeOrder>(
        billingRoutes.rechargeCreate.path,
        { amount: 500, channel: 'dev' },
        team.as(team.creator),
      )
    ).data;
    // Paid at the other process's cashier: it settles the same order through the shared database.
    expect((await two.b.call(billingRoutes.devCashierPay.path, { order_no: order.order_no })).code).toBe(0);
    expect(await consistent()).toBe(500);
    const debit = (i: number) =>
      (i % 2 ? two.a : two.b).call(
        billingUsageRoutes.operatorAdjust.path,
        { space_id: team.teamId, amount: -1, reason: `debit ${i}`, request_id: `debit-request-${i}` },
        { token: operator },
      );
    const results = await Promise.all(Array.from({ length: 600 }, (_, i) => debit(i)));
    const codes = results.map((result) => result.code);
    expect(codes.filter((code) => code === 0)).toHaveLength(500);
    expect(codes.filter((code) => code === 40600)).toHaveLength(100);
    expect(await consistent()).toBe(0);
  });

  it('holds platform-model calls from both processes so the balance never goes below zero', async () => {
    expect(
      (
        await two.a.call(
          billingUsageRoutes.operatorAdjust.path,
          { space_id: team.teamId, amount: 100, reason: 'top up', request_id: 'top-up-request' },
          { token: operator },
        )
      ).code,
    ).toBe(0);
    const model = (
      await two.a.call<{ id: string }>(
        billingUsageRoutes.platformModelCreate.path,
        {
          model_name: 'Platform',
          version: 'fake-chat',
          base_url: two.fake.url,
          api_key: two.fake.apiKey,
          // ¥1 per 1 000 tokens in and out: a 200-token hold is 20 fen, so ¥1 holds about five calls.
          input_price: 100_000,
          output_price: 100_000,
        },
        { token: operator },
      )
    ).data;
    const agent = (
      await two.a.call<{ id: string }>(
        `${API}/agent/create`,
        { name: 'Priced', model_key_id: model.id, params: { temperature: 0.5, max_tokens: 150 } },
        team.as(team.member),
      )
    ).data;
    const chat = async (i: number) => {
      const res = await fetch(`${(i % 2 ? two.a : two.b).url}${agentStreams.chat.path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...team.as(team.member) },
        body: JSON.stringify({ agent_id: agent.id, message: `question ${i}` }),
      });
      const text = await res.text();
      return res.headers.get('content-type')?.startsWith('text/event-stream')
        ? 'answered'
        : (JSON.parse(text) as { code: number }).code;
    };
    const outcomes = await Promise.all(Array.from({ length: 16 }, (_, i) => chat(i)));
    expect(outcomes.filter((o) => o === 'answered').length).toBeGreaterThan(0);
    expect(outcomes.filter((o) => o !== 'answered').every((o) => o === 40607)).toBe(true);
    const balance = await consistent();
    expect(balance).toBeGreaterThanOrEqual(0);
    const [account] = await two.rows<{ fee: string; charged: string }>(
      'select fee_millifen as fee, charged_fen as charged from usage_accounts where space_id = $1',
      [team.teamId],
    );
    const [usage] = await two.rows<{ fees: string; debits: string }>(
      `select (select coalesce(sum(fee_millifen), 0) from llm_usage where space_id = $1) as fees,
              (select coalesce(-sum(amount), 0) from ledger_entries where space_id = $1 and kind = 'usage') as debits`,
      [team.teamId],
    );
    expect(account.fee).toBe(usage.fees);
    expect(account.charged).toBe(usage.debits);
    expect(Number(account.charged)).toBe(Math.floor(Number(account.fee) / 1000));
    expect(await two.rows('select 1 from usage_holds')).toHaveLength(0);
  });
});
