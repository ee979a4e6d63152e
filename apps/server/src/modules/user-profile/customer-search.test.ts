import {
  chatHistoryRoutes,
  type ProfileCustomer,
  type ProfileField,
  type RouteDescriptor,
  profileRoutes as r,
} from '@athena/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../platform/db/sql.ts';
import { sendIngest } from '../../testing/chat-ingest.ts';
import { buildTeam, type TeamFixture } from '../../testing/fixtures.ts';
import { createTestApp, type TestApp } from '../../testing/test-app.ts';
import { searchTermsOf } from '../chat-history/index.ts';
import type { CustomerFilter, FieldCondition, SatisfactionFilter } from './customer-filter.sql.ts';
import { listCustomers, matchingCustomerIds } from './customer-list.query.ts';

const HOUR = 3_600_000;

// The customer search at scale (docs/user-profiles.md, "Keyword search", "Totals", "Satisfaction
// filter"): the keyword index kept by every writer, estimated totals, the satisfaction filter.
describe('customer search: keyword index, estimated totals, satisfaction', () => {
  let t: TestApp;
  let team: TeamFixture;
  const customers: Record<string, string> = {};
  const inScene = (token: string, scene = '19', space?: string): Record<string, string> => ({
    ...team.as(token, space),
    'scene-id': scene,
  });
  const member = () => inScene(team.member);
  const call = async <R extends RouteDescriptor>(route: R, body: unknown, headers: Record<string, string>) =>
    (await t.call(route, body, headers)).body;
  const search = async (body: Record<string, unknown>, headers = member()) => {
    const answer = await call(r.customerList, body, headers);
    expect(answer.code, answer.msg).toBe(0);
    const data = answer.data as { items: ProfileCustomer[]; total: number; total_estimated: boolean };
    return { ids: data.items.map((c) => c.source_id), total: data.total, estimated: data.total_estimated };
  };
  const set = async (customer: string, fieldId: string, value: string | null) => {
    const answer = await call(r.valueSet, { customer_id: customers[customer], field_id: fieldId, value }, member());
    expect(answer.code, answer.msg).toBe(0);
  };

  async function ingest(messages: { customer: string; name: string; at: number }[]) {
    const endpoint = (await call(chatHistoryRoutes.ingestRotate, {}, inScene(team.creator))).data as {
      url: string;
      secret: string;
    };
    const raw = JSON.stringify({
      messages: messages.map((m, i) => ({
        msg_id: `19-${m.customer}-${m.at}-${i}`,
        conversation: { id: `conv-${m.customer}`, chat_type: 'private' },
        customer: { id: m.customer, name: m.name },
        channel: { id: 'robot-1', name: '售后机器人' },
        send_type: 'user',
        kind: 11041,
        content: '你好',
        sent_at: m.at,
      })),
    });
    const response = await sendIngest(t, endpoint, raw);
    expect(response.statusCode, response.body).toBe(200);
  }

  let note: ProfileField;
  let level: ProfileField;

  /**
   * The ids matchingCustomerIds reads, by keyset pages of `limit` (an audience's ids), against the
   * customers the list shows for the same filter: the same set.
   */
  async function expectSameIds(filter: CustomerFilter, limit: number, hashedValues?: number) {
    const scope = { spaceId: team.teamId, sceneId: 19, userId: team.ids.member };
    const listed = await listCustomers(t.database.db, scope, filter, { offset: 0, limit: 100 });
    const read: number[] = [];
    for (let afterId = 0; ; ) {
      const page = await matchingCustomerIds(t.database.db, scope, filter, { afterId, limit }, hashedValues);
      read.push(...page);
      if (page.length < limit) break;
      afterId = page[page.length - 1] as number;
    }
    const sorted = listed.rows.map((row) => Number(row.id)).sort((a, b) => a - b);
    expect(read, JSON.stringify(filter)).toEqual(sorted);
  }

  beforeAll(async () => {
    t = await createTestApp();
    team = await buildTeam(t, { phonePrefix: '135520000' });
    const now = Date.now();
    await ingest([
      { customer: 's-zhang', name: '张伟', at: now - 1 * HOUR },
      { customer: 's-anna', name: 'Anna Delivery', at: now - 2 * HOUR },
      { customer: 's-kim', name: '김민수', at: now - 3 * HOUR },
      { customer: 's-tanaka', name: 'タナカ', at: now - 4 * HOUR },
      { customer: 's-mixed', name: 'ＶＩＰ客户Ｂob', at: now - 5 * HOUR },
    ]);
    const { items } = (await call(r.customerList, { page_size: 100 }, member())).data as { items: ProfileCustomer[] };
    for (const customer of items) customers[customer.source_id] = customer.id;
    const made = async (body: Record<string, unknown>) =>
      (await call(r.fieldCreate, body, inScene(team.admin))).data as ProfileField;
    note = await made({ name: 'Note', type: 'text' });
    level = await made({ name: 'Level', type: 'select', options: ['金卡会员', 'Silver'] });
  }, 60_000);
  afterAll(() => t?.close());

  it('indexes names and values with the same terms as chat history’s message search', async () => {
    for (const text of [
      '退款申请 Order-42',
      'ＡＢＣ１２３',
      '🚚，！',
      '김민수 タナカ ひらがな',
      'École_100% 上海浦东',
    ]) {
      const [row] = rowsOf<{ terms: string[] }>(
        await t.database.db.execute(sql`select tsvector_to_array(profile_search_terms(${text})) as terms`),
      );
      expect([...row.terms].sort(), text).toEqual([...searchTermsOf(text)].sort());
    }
  });

  it('finds names by pairs of CJK characters and latin word beginnings, and the channel id exactly', async () => {
    expect((await search({ keyword: '张伟' })).ids).toEqual(['s-zhang']);
    expect((await search({ keyword: '伟' })).ids).toEqual(['s-zhang']);
    expect((await search({ keyword: '민수' })).ids).toEqual(['s-kim']);
    expect((await search({ keyword: 'タナ' })).ids).toEqual(['s-tanaka']);
    expect((await search({ keyword: 'deliv' })).ids).toEqual(['s-anna']);
    expect((await search({ keyword: 'DELIVERY' })).ids).toEqual(['s-anna']);
    // A word's middle is not a word's beginning.
    expect((await search({ keyword: 'livery' })).ids).toEqual([]);
    // Full-width letters find half-width ones and the other way round.
    expect((await search({ keyword: 'vip客户' })).ids).toEqual(['s-mixed']);
    // Both words, in this order: "anna delivery" yes, "delivery anna" no (the text is checked too).
    expect((await search({ keyword: 'anna deliv' })).ids).toEqual(['s-anna']);
    expect((await search({ keyword: 'delivery anna' })).ids).toEqual([]);
    expect((await search({ keyword: 's-kim' })).ids).toEqual(['s-kim']);
    expect((await search({ keyword: 's-ki' })).ids).toEqual([]);
  });

  it('keeps the index current when a value is set, changed or cleared, and when a name changes', async () => {
    await set('s-kim', note.id, '想要加急配送 express shipping');
    expect((await search({ keyword: '加急' })).ids).toEqual(['s-kim']);
    expect((await search({ keyword: 'expr' })).ids).toEqual(['s-kim']);
    await set('s-kim', note.id, '普通配送');
    expect((await search({ keyword: '加急' })).ids).toEqual([]);
    expect((await search({ keyword: '配送' })).ids).toEqual(['s-kim']);
    await set('s-zhang', level.id, '金卡会员');
    expect((await search({ keyword: '金卡' })).ids).toEqual(['s-zhang']);
    await set('s-kim', note.id, null);
    await set('s-zhang', level.id, null);
    expect((await search({ keyword: '配送' })).ids).toEqual([]);
    expect((await search({ keyword: '金卡' })).ids).toEqual([]);

    // The channel renames the customer: found by the new name only.
    await ingest([{ customer: 's-zhang', name: '张三丰', at: Date.now() - HOUR / 2 }]);
    expect((await search({ keyword: '三丰' })).ids).toEqual(['s-zhang']);
    expect((await search({ keyword: '张伟' })).ids).toEqual([]);
  });

  it('counts totals exactly up to a bound and estimates beyond it, both ways alike', async () => {
    const scope = { spaceId: team.teamId, sceneId: 19, userId: team.ids.member };
    const none: CustomerFilter = { keyword: '', conditions: [], window: null };
    const exact = await listCustomers(t.database.db, scope, none, { offset: 0, limit: 2 });
    expect(exact).toMatchObject({ total: 5, totalEstimated: false });
    // With a bound of 3, five customers are "more than 3": the planner's estimate, at least 4.
    const estimated = await listCustomers(t.database.db, scope, none, { offset: 0, limit: 2 }, 0, 3);
    expect(estimated.totalEstimated).toBe(true);
    expect(estimated.total).toBeGreaterThanOrEqual(4);
    expect(estimated.rows).toEqual(exact.rows);
    // Customers counted to find the few first are counted exactly, whatever the bound.
    expect(await listCustomers(t.database.db, scope, none, { offset: 0, limit: 2 }, 5_000, 3)).toEqual(exact);
    const windowed = { ...none, window: { from: Date.now() - 24 * HOUR, to: null } };
    const counted = await listCustomers(t.database.db, scope, windowed, { offset: 0, limit: 2 }, 0, 3);
    expect(counted.totalEstimated).toBe(true);
    // The last page knows its total exactly.
    const last = await listCustomers(t.database.db, scope, windowed, { offset: 4, limit: 2 }, 0, 3);
    expect(last).toMatchObject({ total: 5, totalEstimated: false });
    // Through HTTP a small scene is counted exactly.
    expect(await search({})).toMatchObject({ total: 5, estimated: false });
  });

  it('filters by the latest satisfaction rating', async () => {
    const db = t.database.db;
    const now = Date.now();
    const survey = async (customer: string, state: 'sent' | 'rated' | 'failed', score: number | null, ago: number) => {
      const at = new Date(now - ago).toISOString();
      await db.execute(sql`
        insert into satisfaction_surveys (space_id, scene_id, conversation_id, customer_id, state, score, rated_at, requested_at)
        select ${team.teamId}::uuid, 19, c.id, c.customer_id, ${state}, ${score},
          ${state === 'rated' ? at : null}::timestamptz, ${at}::timestamptz
        from chat_conversations c where c.customer_id = ${Number(customers[customer])}`);
    };
    // Anna: 5 then 2, so unsatisfied now. Kim: 4. Tanaka: 3. Mixed: asked, never answered. Zhang: never asked.
    await survey('s-anna', 'rated', 5, 3 * HOUR);
    await survey('s-anna', 'rated', 2, HOUR);
    await survey('s-kim', 'rated', 4, HOUR);
    await survey('s-kim', 'failed', null, HOUR / 2);
    await survey('s-tanaka', 'rated', 3, HOUR);
    await survey('s-mixed', 'sent', null, HOUR);

    expect((await search({ satisfaction: 'satisfied' })).ids).toEqual(['s-kim']);
    expect((await search({ satisfaction: 'neutral' })).ids).toEqual(['s-tanaka']);
    expect((await search({ satisfaction: 'unsatisfied' })).ids).toEqual(['s-anna']);
    expect((await search({ satisfaction: 'unrated' })).ids).toEqual(['s-zhang', 's-mixed']);
    expect(await search({ satisfaction: 'unrated', keyword: '三丰' })).toMatchObject({ ids: ['s-zhang'], total: 1 });
    expect((await call(r.customerList, { satisfaction: 'happy' }, member())).code).toBe(40000);

    // Both ways give the same customers.
    const scope = { spaceId: team.teamId, sceneId: 19, userId: team.ids.member };
    for (const satisfaction of ['satisfied', 'neutral', 'unsatisfied', 'unrated'] as SatisfactionFilter[]) {
      const filter: CustomerFilter = { keyword: '', conditions: [], window: null, satisfaction };
      const found = await listCustomers(db, scope, filter, { offset: 0, limit: 10 });
      expect(await listCustomers(db, scope, filter, { offset: 0, limit: 10 }, 0)).toEqual(found);
      await expectSameIds(filter, 1);
    }
    // The whole scene, and a window (never-active customers match none).
    await expectSameIds({ keyword: '', conditions: [], window: null }, 2);
    await expectSameIds({ keyword: '', conditions: [], window: { from: Date.now() - 150 * 60_000, to: null } }, 1);
  });

  it('keeps each customer’s search document (values’ terms and equality tokens) current, and finds the same both ways', async () => {
    const db = t.database.db;
    const scope = { spaceId: team.teamId, sceneId: 19, userId: team.ids.member };
    const cond = (fieldId: string, value: string) => ({ field_id: fieldId, op: 'eq', value });
    await set('s-kim', level.id, 'Silver');
    await set('s-anna', level.id, '金卡会员');
    await set('s-kim', note.id, '想要加急配送 express shipping');
    await set('s-anna', note.id, 'express');
    // A keyword with an equals condition: one lookup of both in the document.
    expect((await search({ keyword: 'expr', conditions: [cond(level.id, 'Silver')] })).ids).toEqual(['s-kim']);
    expect((await search({ keyword: 'expr', conditions: [cond(level.id, '金卡会员')] })).ids).toEqual(['s-anna']);
    expect((await search({ keyword: '加急配送', conditions: [cond(level.id, '金卡会员')] })).ids).toEqual([]);
    expect((await search({ conditions: [cond(level.id, 'Silver')] })).ids).toEqual(['s-kim']);
    // The channel id with a condition: the condition still holds.
    expect((await search({ keyword: 's-kim', conditions: [cond(level.id, 'Silver')] })).ids).toEqual(['s-kim']);
    expect((await search({ keyword: 's-kim', conditions: [cond(level.id, '金卡会员')] })).ids).toEqual([]);
    // An equals condition is the whole value: "Silv" and "silver" are not "Silver".
    expect((await search({ conditions: [cond(level.id, 'silver')] })).ids).toEqual([]);
    expect((await search({ conditions: [cond(note.id, 'express')] })).ids).toEqual(['s-anna']);
    expect((await search({ conditions: [cond(note.id, 'expres')] })).ids).toEqual([]);
    // A value of 100 characters or more has no token: it is looked up in the values.
    const long = `${'长'.repeat(120)}`;
    await set('s-tanaka', note.id, long);
    expect((await search({ conditions: [cond(note.id, long)] })).ids).toEqual(['s-tanaka']);
    expect((await search({ conditions: [cond(note.id, long.slice(0, 99))] })).ids).toEqual([]);
    // Changed and cleared values leave the document.
    await set('s-kim', level.id, '金卡会员');
    expect((await search({ conditions: [cond(level.id, 'Silver')] })).ids).toEqual([]);
    expect((await search({ conditions: [cond(level.id, '金卡会员')] })).ids).toEqual(['s-anna', 's-kim']);
    const documentOf = async (customer: string) =>
      rowsOf<{ terms: string[] }>(
        await db.execute(
          sql`select tsvector_to_array(values_document) as terms from chat_customers where id = ${Number(customers[customer])}`,
        ),
      )[0]?.terms ?? [];
    expect((await documentOf('s-kim')).filter((term) => term.startsWith('='))).toHaveLength(2);
    await set('s-kim', note.id, null);
    expect(await search({ keyword: 'expr' })).toMatchObject({ ids: ['s-anna'] });

    // Both ways (finding the few first, reading in order) list the same customers, page by page.
    const filters: CustomerFilter[] = [
      { keyword: 'expr', conditions: [{ fieldId: level.id, op: 'eq', value: '金卡会员' }], window: null },
      { keyword: '', conditions: [{ fieldId: level.id, op: 'eq', value: '金卡会员' }], window: null },
      { keyword: 's-kim', conditions: [{ fieldId: level.id, op: 'eq', value: '金卡会员' }], window: null },
      { keyword: '', conditions: [{ fieldId: note.id, op: 'eq', value: long }], window: null },
      {
        keyword: '',
        conditions: [{ fieldId: level.id, op: 'eq', value: '金卡会员' }],
        window: { from: Date.now() - 24 * HOUR, to: null },
        satisfaction: 'unrated',
      },
    ];
    for (const filter of filters) {
      await expectSameIds(filter, 1);
      const found = await listCustomers(db, scope, filter, { offset: 0, limit: 10 });
      expect(await listCustomers(db, scope, filter, { offset: 0, limit: 10 }, 0), JSON.stringify(filter)).toEqual(
        found,
      );
      for (let offset = 0; offset < found.rows.length; offset++) {
        const [one] = (await listCustomers(db, scope, filter, { offset, limit: 1 }, 0)).rows;
        expect(one).toEqual(found.rows[offset]);
      }
    }

    // Deleting the field takes its values out of every customer's document.
    expect((await call(r.fieldDelete, { id: level.id }, inScene(team.admin))).code).toBe(0);
    expect((await documentOf('s-anna')).filter((term) => term.startsWith('='))).toHaveLength(1);
    await set('s-anna', note.id, null);
    await set('s-tanaka', note.id, null);
    expect(await documentOf('s-anna')).toEqual([]);
  });

  it('reads a range’s customers into a hash or looks each customer up, with the same answer', async () => {
    const db = t.database.db;
    const scope = { spaceId: team.teamId, sceneId: 19, userId: team.ids.member };
    const made = async (body: Record<string, unknown>) =>
      (await call(r.fieldCreate, body, inScene(team.admin))).data as ProfileField;
    const budget = await made({ name: 'Budget', type: 'number' });
    const ordered = await made({ name: 'Ordered', type: 'date' });
    const values: [string, string, string][] = [
      ['s-zhang', '100', '2025-01-05'],
      ['s-anna', '250.5', '2025-02-10'],
      ['s-kim', '900', '2025-02-28'],
      ['s-mixed', '40', '2024-12-31'],
    ];
    for (const [customer, number, date] of values) {
      await set(customer, budget.id, number);
      await set(customer, ordered.id, date);
    }
    const range = (fieldId: string, on: 'number' | 'date', from: string, to: string): FieldCondition[] => [
      { fieldId, op: 'gte', on, value: from },
      { fieldId, op: 'lte', on, value: to },
    ];
    const cases: [CustomerFilter, string[]][] = [
      [
        { keyword: '', conditions: range(budget.id, 'number', '100', '900'), window: null },
        ['s-zhang', 's-anna', 's-kim'],
      ],
      [
        { keyword: '', conditions: range(ordered.id, 'date', '2025-02-01', '2025-02-28'), window: null },
        ['s-anna', 's-kim'],
      ],
      [
        {
          keyword: '',
          conditions: [
            ...range(budget.id, 'number', '200', '1000'),
            ...range(ordered.id, 'date', '2025-01-01', '2025-02-15'),
          ],
          window: null,
        },
        ['s-anna'],
      ],
      [{ keyword: 'anna', conditions: range(budget.id, 'number', '0', '1000'), window: null }, ['s-anna']],
    ];
    for (const [filter, expected] of cases) {
      const page = { offset: 0, limit: 10 };
      // Found first or read in order; each range hashed (bound 100 000) or looked up per customer (0).
      const answers = [
        await listCustomers(db, scope, filter, page),
        await listCustomers(db, scope, filter, page, 0),
        await listCustomers(db, scope, filter, page, 5_000, 5_000, 0),
        await listCustomers(db, scope, filter, page, 0, 5_000, 0),
      ];
      expect(
        answers[0]?.rows.map((row) => row.source_id),
        JSON.stringify(filter),
      ).toEqual(expected);
      for (const answer of answers.slice(1)) expect(answer).toEqual(answers[0]);
      await expectSameIds(filter, 2);
      await expectSameIds(filter, 2, 0);
    }
    for (const field of [budget, ordered]) {
      expect((await call(r.fieldDelete, { id: field.id }, inScene(team.admin))).code).toBe(0);
    }
  });

  it('keeps the latest rating on the customer whoever writes the surveys', async () => {
    const db = t.database.db;
    const scoreOf = async (customer: string) =>
      rowsOf<{ score: number | null }>(
        await db.execute(
          sql`select satisfaction_score as score from chat_customers where id = ${Number(customers[customer])}`,
        ),
      )[0]?.score ?? null;
    // From the test above: Anna rated 5 then 2, Kim 4 (then a failed survey), Tanaka 3, Mixed never.
    expect([
      await scoreOf('s-anna'),
      await scoreOf('s-kim'),
      await scoreOf('s-tanaka'),
      await scoreOf('s-mixed'),
    ]).toEqual([2, 4, 3, null]);
    // Mixed answers their survey (as satisfaction.service.ts writes a tap): now rated.
    await db.execute(sql`update satisfaction_surveys set state = 'rated', score = 1, rated_at = now()
      where customer_id = ${Number(customers['s-mixed'])}`);
    expect(await scoreOf('s-mixed')).toBe(1);
    expect((await search({ satisfaction: 'unsatisfied' })).ids).toEqual(['s-anna', 's-mixed']);
    // Anna's latest rating goes (its survey deleted): the one before counts again.
    await db.execute(
      sql`delete from satisfaction_surveys where customer_id = ${Number(customers['s-anna'])} and score = 2`,
    );
    expect(await scoreOf('s-anna')).toBe(5);
    expect((await search({ satisfaction: 'satisfied' })).ids).toEqual(['s-anna', 's-kim']);
  });

  it('lets every member search; someone outside the team gets nothing of it', async () => {
    expect((await search({ keyword: '三丰' }, inScene(team.admin))).ids).toEqual(['s-zhang']);
    expect((await call(r.customerList, { keyword: '三丰' }, inScene(team.stranger, '19', team.teamId))).code).toBe(
      16023,
    );
    const own = await search(
      { keyword: '三丰', satisfaction: 'unrated' },
      inScene(team.stranger, '19', team.strangerTeamId),
    );
    expect(own).toMatchObject({ ids: [], total: 0 });
  });
});
