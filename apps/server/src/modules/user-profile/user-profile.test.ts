import {
  chatHistoryRoutes,
  PROFILE_LIMITS,
  type ProfileChange,
  type ProfileCustomer,
  type ProfileField,
  type RouteDescriptor,
  profileRoutes as r,
} from '@athena/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendIngest } from '../../testing/chat-ingest.ts';
import { buildTeam, type TeamFixture } from '../../testing/fixtures.ts';
import { createTestApp, type TestApp } from '../../testing/test-app.ts';
import type { CustomerFilter, FieldCondition } from './customer-filter.sql.ts';
import { listCustomers } from './customer-list.query.ts';

const HOUR = 3_600_000;

describe('user profiles: fields, values, history and customers', () => {
  let t: TestApp;
  let team: TeamFixture;
  /** Customers of scene 19 by their channel id. */
  const customers: Record<string, string> = {};
  const inScene = (token: string, scene = '19', space?: string): Record<string, string> => ({
    ...team.as(token, space),
    'scene-id': scene,
  });
  const admin = () => inScene(team.admin);
  const member = () => inScene(team.member);

  const call = async <R extends RouteDescriptor>(route: R, body: unknown, headers: Record<string, string>) =>
    (await t.call(route, body, headers)).body;
  const create = async (body: Record<string, unknown>, headers = admin()) => call(r.fieldCreate, body, headers);
  const field = async (body: Record<string, unknown>) => {
    const answer = await create(body);
    expect(answer.code, answer.msg).toBe(0);
    return answer.data as ProfileField;
  };
  const set = (customer: string, fieldId: string, value: string | null, headers = member()) =>
    call(r.valueSet, { customer_id: customer, field_id: fieldId, value }, headers);
  const currentOf = (customer: ProfileCustomer, fieldId: string) =>
    customer.values.find((v) => v.field_id === fieldId)?.value ?? null;
  const search = async (body: Record<string, unknown>, headers = member()) => {
    const answer = await call(r.customerList, body, headers);
    expect(answer.code, answer.msg).toBe(0);
    const data = answer.data as { items: ProfileCustomer[]; total: number };
    return { ids: data.items.map((c) => c.source_id), total: data.total, items: data.items };
  };

  /** Sends messages through the scene's signed ingest endpoint, as a channel would. */
  async function ingest(
    scene: string,
    messages: { customer: string; name: string; at: number; conversation?: string; sendType?: string }[],
  ) {
    const endpoint = (await call(chatHistoryRoutes.ingestRotate, {}, inScene(team.creator, scene))).data as {
      url: string;
      secret: string;
    };
    const raw = JSON.stringify({
      messages: messages.map((m, i) => ({
        msg_id: `${scene}-${m.customer}-${m.at}-${i}`,
        conversation: { id: m.conversation ?? `conv-${m.customer}`, chat_type: 'private' },
        customer: { id: m.customer, name: m.name },
        channel: { id: 'robot-1', name: '售后机器人' },
        send_type: m.sendType ?? 'user',
        kind: 11041,
        content: '你好',
        sent_at: m.at,
      })),
    });
    const response = await sendIngest(t, endpoint, raw);
    expect(response.statusCode, response.body).toBe(200);
  }

  beforeAll(async () => {
    t = await createTestApp();
    team = await buildTeam(t, { phonePrefix: '135510000' });
    const now = Date.now();
    await ingest('19', [
      { customer: 'c-wang', name: '王小明', at: now - 2 * HOUR },
      { customer: 'c-wang', name: '王小明', at: now - 30 * 60_000, conversation: 'conv-wang-2' },
      { customer: 'c-li', name: '李雷', at: now - 3 * 86_400_000 },
      { customer: 'c-alice', name: 'Alice_100%', at: now - 40 * 86_400_000 },
      // A group: only one of its two customers is the conversation's, the other has none of their own.
      { customer: 'c-bob', name: 'Bob', at: now - 60 * 86_400_000, conversation: 'group-1' },
      { customer: 'c-carol', name: 'Carol', at: now - 59 * 86_400_000, conversation: 'group-1' },
      // Only written to, never writing: our messages are not the customer being active.
      { customer: 'c-dan', name: 'Dan', at: now - HOUR, sendType: 'ai_full' },
      { customer: 'c-li', name: '李雷', at: now - HOUR, conversation: 'conv-li', sendType: 'human' },
    ]);
    await ingest('5', [{ customer: 'c-other-scene', name: '王其他', at: now - HOUR }]);
    const { items } = await search({ page_size: 100 });
    for (const customer of items) customers[customer.source_id] = customer.id;
  }, 60_000);
  afterAll(() => t?.close());

  it('lists customers most recently active first, with their activity', async () => {
    const { items, total } = await search({});
    expect(total).toBe(6);
    const ids = items.map((c) => c.source_id);
    // Active is when the customer last wrote, in a group too; our replies (to 李雷 an hour ago) do not count.
    expect(ids).toEqual(['c-wang', 'c-li', 'c-alice', 'c-carol', 'c-bob', 'c-dan']);
    expect(Date.parse(items[1].last_active_at ?? '')).toBeLessThan(Date.now() - 2 * 86_400_000);
    // The group conversation is Carol's; Bob wrote in it and has no conversation of his own.
    expect(items[3]).toMatchObject({ conversation_count: 1, message_count: 2 });
    expect(items[4]).toMatchObject({ conversation_count: 0, message_count: 0 });
    expect(items[4].last_active_at).not.toBeNull();
    // Only written to: never active, last.
    expect(items[5]).toMatchObject({ last_active_at: null, conversation_count: 1, message_count: 1 });
    expect(items[0]).toMatchObject({ name: '王小明', conversation_count: 2, message_count: 2, values: [] });
    expect(Date.parse(items[0].last_active_at ?? '')).toBeGreaterThan(Date.now() - HOUR);
    // First seen is their earliest message (李雷: three days ago), never after they were last active,
    // however recently the history reached us.
    for (const customer of items) {
      if (customer.last_active_at) expect(customer.first_seen_at <= customer.last_active_at).toBe(true);
    }
    expect(Date.parse(items[1].first_seen_at)).toBeLessThan(Date.now() - 2 * 86_400_000);
    expect(Date.parse(items[0].first_seen_at)).toBeLessThan(Date.now() - HOUR);
    const page = await search({ page: 2, page_size: 2 });
    expect(page).toMatchObject({ ids: ids.slice(2, 4), total: 6 });
    expect(await search({ page: 3, page_size: 2 })).toMatchObject({ ids: ids.slice(4), total: 6 });
    expect(await search({ page: 5, page_size: 2 })).toMatchObject({ ids: [], total: 6 });
    expect(await search({ page: 2, page_size: 4, last_active: '90d' })).toMatchObject({ ids: ['c-bob'], total: 5 });
    // Quiet for a while: who last wrote longer ago than that; never having written matches no time filter.
    expect((await search({ inactive: '7d' })).ids).toEqual(['c-alice', 'c-carol', 'c-bob']);
    expect((await search({ inactive: '90d' })).ids).toEqual([]);
    expect((await search({ inactive: '30d', last_active: '90d' })).ids).toEqual(['c-alice', 'c-carol', 'c-bob']);
    expect((await search({ inactive: '14d', last_active: '7d' })).ids).toEqual([]);
    expect((await call(r.customerList, { inactive: '3d' }, member())).code).toBe(40000);
    // The exact count the page asks for when the list only estimates: the same customers.
    const count = async (body: Record<string, unknown>) => (await call(r.customerCount, body, member())).data;
    expect(await count({})).toEqual({ total: 6 });
    expect(await count({ inactive: '7d' })).toEqual({ total: 3 });
    expect(await count({ keyword: '王' })).toEqual({ total: 1 });
    expect((await call(r.customerCount, { last_active: 'custom' }, member())).code).toBe(40502);
  });

  it('checks field names: required, at most 30 characters, unique in the scene whatever the case or spaces', async () => {
    expect((await create({ name: '   ', type: 'text' })).code).toBe(40800);
    expect((await create({ name: 'x'.repeat(31), type: 'text' })).code).toBe(40801);
    const made = await field({ name: ' Budget ', type: 'number', description: '预算（万元）' });
    expect(made).toMatchObject({ name: 'Budget', type: 'number', options: [], required: false, position: 0 });
    expect((await create({ name: 'budget', type: 'text' })).code).toBe(40802);
    expect((await create({ name: '  BUDGET  ', type: 'date' })).code).toBe(40802);
    // Another scene has its own names.
    expect((await create({ name: 'Budget', type: 'number' }, inScene(team.admin, '5'))).code).toBe(0);
    // Two creates of one name at once: exactly one gets through, the other is told the name is taken.
    const both = await Promise.all([create({ name: 'Twin', type: 'text' }), create({ name: 'twin', type: 'text' })]);
    expect(both.map((a) => a.code).sort()).toEqual([0, 40802]);
    const renamed = await call(r.fieldUpdate, { id: made.id, name: 'TWIN', type: 'number' }, admin());
    expect(renamed.code).toBe(40802);
  });

  it('checks a select field’s options and keeps the type of every field', async () => {
    expect((await create({ name: 'Level', type: 'select', options: [] })).code).toBe(40804);
    expect((await create({ name: 'Level', type: 'select', options: ['VIP', ' VIP '] })).code).toBe(40804);
    expect((await create({ name: 'Level', type: 'select', options: ['x'.repeat(51)] })).code).toBe(40804);
    const level = await field({ name: 'Level', type: 'select', options: [' VIP ', '普通'], required: true });
    expect(level.options).toEqual(['VIP', '普通']);
    // Options given to another type are not kept.
    expect((await field({ name: 'Note', type: 'text', options: ['a'] })).options).toEqual([]);
    const changed = await call(r.fieldUpdate, { id: level.id, name: 'Level', type: 'text' }, admin());
    expect(changed.code).toBe(40806);
    const updated = await call(
      r.fieldUpdate,
      {
        id: level.id,
        name: '等级',
        type: 'select',
        options: ['VIP', '普通', '流失'],
        required: true,
        ai_extract: true,
      },
      admin(),
    );
    expect(updated.data).toMatchObject({ name: '等级', options: ['VIP', '普通', '流失'], ai_extract: true });
  });

  it('lets members read fields and edit values, and only the creator and admins define fields', async () => {
    expect((await call(r.fieldList, {}, member())).code).toBe(0);
    expect((await create({ name: 'Mine', type: 'text' }, member())).code).toBe(40300);
    const [first] = (await call(r.fieldList, {}, member())).data.items as ProfileField[];
    expect((await call(r.fieldUpdate, { id: first.id, name: 'x', type: first.type }, member())).code).toBe(40300);
    expect((await call(r.fieldDelete, { id: first.id }, member())).code).toBe(40300);
    expect((await call(r.fieldReorder, { ids: [first.id] }, member())).code).toBe(40300);
    expect((await create({ name: 'ByCreator', type: 'text' }, inScene(team.creator))).code).toBe(0);
    // A stranger naming the team is not in it; from their own team, the ids are not theirs.
    expect((await call(r.fieldList, {}, inScene(team.stranger, '19', team.teamId))).code).toBe(16023);
    const own = inScene(team.stranger, '19', team.strangerTeamId);
    expect((await call(r.customerGet, { id: customers['c-wang'] }, own)).code).toBe(40400);
    expect((await set(customers['c-wang'], first.id, '1', own)).code).toBe(40400);
    expect((await call(r.fieldDelete, { id: first.id }, own)).code).toBe(40400);
    expect((await call(r.fieldList, {}, own)).data.items).toEqual([]);
    expect((await call(r.customerList, {}, own)).data).toEqual({ items: [], total: 0, total_estimated: false });
    // The agent scene has no customers.
    expect((await call(r.fieldList, {}, inScene(team.member, '10010'))).code).toBe(40500);
  });

  it('checks values against their field’s type and stores them in canonical form', async () => {
    const fields = (await call(r.fieldList, {}, member())).data.items as ProfileField[];
    const byName = (name: string) => fields.find((f) => f.name === name) as ProfileField;
    const wang = customers['c-wang'];
    const budget = byName('Budget');
    const invalid = await set(wang, budget.id, '12,5');
    expect(invalid).toMatchObject({ code: 40811, msg: expect.stringContaining('应为数字') });
    expect((await set(wang, budget.id, '1e3')).code).toBe(40811);
    expect((await set(wang, budget.id, 'abc', { ...member(), language: 'en' })).msg).toContain('a number');
    const stored = await set(wang, budget.id, ' +0012.50 ');
    expect(currentOf(stored.data as ProfileCustomer, budget.id)).toBe('12.5');
    expect(currentOf((await set(wang, budget.id, '-0.0')).data as ProfileCustomer, budget.id)).toBe('0');
    await set(wang, budget.id, '12.5');

    const birthday = await field({ name: 'Birthday', type: 'date' });
    expect((await set(wang, birthday.id, '2026-02-30')).code).toBe(40811);
    expect((await set(wang, birthday.id, '2026/01/31', { ...member(), language: 'zh-TW' })).msg).toContain(
      '應為日期，如 2026-01-31',
    );
    expect((await set(wang, birthday.id, '2024-02-29')).code).toBe(0);

    const level = byName('等级');
    const notAnOption = await set(wang, level.id, '黄金', { ...member(), language: 'en' });
    expect(notAnOption).toMatchObject({ code: 40811, msg: expect.stringContaining('one of: VIP, 普通, 流失') });
    expect((await set(wang, level.id, 'VIP')).code).toBe(0);
    // A required field cannot be emptied; another can.
    expect(await set(wang, level.id, '  ')).toMatchObject({ code: 40810, msg: expect.stringContaining('等级') });
    expect((await set(wang, level.id, null)).code).toBe(40810);

    const note = byName('Note');
    expect((await set(wang, note.id, 'x'.repeat(1001))).code).toBe(40812);
    expect(currentOf((await set(wang, note.id, '  喜欢蓝色 ')).data as ProfileCustomer, note.id)).toBe('喜欢蓝色');
    const cleared = (await set(wang, note.id, '')).data as ProfileCustomer;
    expect(currentOf(cleared, note.id)).toBeNull();
    expect(cleared.values.find((v) => v.field_id === level.id)).toMatchObject({ value: 'VIP', source: 'person' });

    // A field or customer of another scene is not found here.
    const otherScene = ((await call(r.fieldList, {}, inScene(team.member, '5'))).data.items as ProfileField[])[0];
    expect((await set(wang, otherScene.id, '1')).code).toBe(40400);
    expect((await set('999999', budget.id, '1')).code).toBe(40400);
    expect((await set('not-a-number', budget.id, '1')).code).toBe(40400);
    expect((await set(wang, 'not-a-uuid', '1')).code).toBe(40400);
  });

  it('writes one history row per real change, and undoes the latest change only', async () => {
    const li = customers['c-li'];
    const score = await field({ name: 'Score', type: 'number' });
    await set(li, score.id, '10');
    await set(li, score.id, '10.0'); // the same value: no change
    await set(li, score.id, '20', admin());
    const history = async (body: Record<string, unknown> = {}) =>
      (await call(r.history, { customer_id: li, field_id: score.id, ...body }, member())).data as {
        items: ProfileChange[];
        total: number;
      };
    let changes = await history();
    expect(changes.total).toBe(2);
    expect(changes.items.map((c) => [c.old_value, c.new_value, c.source, c.field_name])).toEqual([
      ['10', '20', 'person', 'Score'],
      [null, '10', 'person', 'Score'],
    ]);
    expect(changes.items[0].actor_name).not.toBe('');
    expect(changes.items[0].actor_name).not.toBe(changes.items[1].actor_name);

    // The older change is no longer the latest.
    expect((await call(r.revert, { change_id: changes.items[1].id }, member())).code).toBe(40813);
    const reverted = await call(r.revert, { change_id: changes.items[0].id }, member());
    expect(currentOf(reverted.data as ProfileCustomer, score.id)).toBe('10');
    changes = await history();
    expect(changes.items.map((c) => [c.old_value, c.new_value])).toEqual([
      ['20', '10'],
      ['10', '20'],
      [null, '10'],
    ]);
    expect(changes.items[1].reverted_by).toBe(changes.items[0].id);
    // Undone once: that change is not the latest any more.
    expect((await call(r.revert, { change_id: changes.items[1].id }, member())).code).toBe(40813);
    expect((await history({ page: 2, page_size: 2 })).items.map((c) => c.new_value)).toEqual(['10']);
    // The whole customer's history, and nothing for another team.
    const all = await call(r.history, { customer_id: li }, member());
    expect(all.data.total).toBe(3);
    const own = inScene(team.stranger, '19', team.strangerTeamId);
    expect((await call(r.revert, { change_id: changes.items[0].id }, own)).code).toBe(40400);
    expect((await call(r.history, { customer_id: li }, own)).code).toBe(40400);
    expect((await call(r.revert, { change_id: 'abc' }, member())).code).toBe(40400);
  });

  it('finds customers by keyword, values and last activity', async () => {
    const fields = (await call(r.fieldList, {}, member())).data.items as ProfileField[];
    const byName = (name: string) => fields.find((f) => f.name === name) as ProfileField;
    const [budget, birthday, level, note] = ['Budget', 'Birthday', '等级', 'Note'].map(byName);
    const { 'c-wang': wang, 'c-li': li, 'c-alice': alice } = customers;
    await set(li, budget.id, '9');
    await set(alice, budget.id, '100');
    await set(li, birthday.id, '2023-12-31');
    await set(li, level.id, '普通');
    await set(alice, note.id, '住在上海，喜欢 50% 折扣');

    expect((await search({ keyword: '小明' })).ids).toEqual(['c-wang']);
    expect((await search({ keyword: 'c-li' })).ids).toEqual(['c-li']);
    expect((await search({ keyword: '上海' })).ids).toEqual(['c-alice']);
    // % and _ are literal.
    expect((await search({ keyword: '%' })).ids).toEqual(['c-alice']);
    expect((await search({ keyword: 'alice_1' })).ids).toEqual(['c-alice']);
    expect((await search({ keyword: '王其他' })).ids).toEqual([]);

    const cond = (field: ProfileField, op: string, value?: string) => ({
      conditions: [{ field_id: field.id, op, value }],
    });
    // Numbers compare as numbers (9 < 12.5 < 100, though "9" > "100" as text).
    expect((await search(cond(budget, 'gte', '10'))).ids).toEqual(['c-wang', 'c-alice']);
    expect((await search(cond(budget, 'lte', '12.50'))).ids).toEqual(['c-wang', 'c-li']);
    expect((await search(cond(budget, 'eq', '012.5'))).ids).toEqual(['c-wang']);
    expect((await search(cond(birthday, 'gte', '2024-01-01'))).ids).toEqual(['c-wang']);
    expect((await search(cond(birthday, 'lte', '2024-01-01'))).ids).toEqual(['c-li']);
    expect((await search(cond(level, 'eq', 'VIP'))).ids).toEqual(['c-wang']);
    expect((await search(cond(note, 'contains', '50%'))).ids).toEqual(['c-alice']);
    expect((await search(cond(level, 'empty'))).ids.slice(0, 1)).toEqual(['c-alice']);
    expect((await search(cond(level, 'empty'))).total).toBe(4);
    expect((await search(cond(level, 'not_empty'))).ids).toEqual(['c-wang', 'c-li']);
    const both = { conditions: [...cond(budget, 'gte', '5').conditions, ...cond(level, 'not_empty').conditions] };
    expect((await search(both)).ids).toEqual(['c-wang', 'c-li']);
    expect((await call(r.customerList, cond(budget, 'gte', 'ten'), member())).code).toBe(40811);
    expect((await call(r.customerList, cond(note, 'gte', 'a'), member())).code).toBe(40000);
    expect((await call(r.customerList, cond(note, 'eq'), member())).code).toBe(40000);
    expect((await call(r.customerList, { conditions: [{ field_id: 'nope', op: 'empty' }] }, member())).code).toBe(
      40400,
    );

    expect((await search({ last_active: '1h' })).ids).toEqual(['c-wang']);
    expect((await search({ last_active: '7d' })).ids).toEqual(['c-wang', 'c-li']);
    const now = Date.now();
    const range = { last_active: 'custom', start_time: now - 50 * 86_400_000, end_time: now - 10 * 86_400_000 };
    expect((await search(range)).ids).toEqual(['c-alice']);
    expect((await call(r.customerList, { last_active: 'custom', start_time: now }, member())).code).toBe(40502);
    expect((await search({ last_active: '90d', keyword: 'Alice', ...cond(budget, 'gte', '50') })).ids).toEqual([
      'c-alice',
    ]);

    const one = (await call(r.customerGet, { id: wang }, member())).data as ProfileCustomer;
    expect(one).toMatchObject({ source_id: 'c-wang', conversation_count: 2 });
    expect(one.values.map((v) => v.field_id)).toEqual(
      fields.filter((f) => one.values.some((v) => v.field_id === f.id)).map((f) => f.id),
    );
    expect((await call(r.customerGet, { id: wang }, inScene(team.member, '5'))).code).toBe(40400);
  });

  it('lists the same customers in the same order both ways: walking conversations, or finding the few first', async () => {
    const fields = (await call(r.fieldList, {}, member())).data.items as ProfileField[];
    const byName = (name: string) => fields.find((f) => f.name === name) as ProfileField;
    const scope = { spaceId: team.teamId, sceneId: 19, userId: team.ids.member };
    const none = { keyword: '', conditions: [] as FieldCondition[], window: null };
    const filters: CustomerFilter[] = [
      // Words beginning with 1: 12.5, 2023-12-31, Alice_100% and 100.
      { ...none, keyword: '1' },
      { ...none, conditions: [{ fieldId: byName('等级').id, op: 'empty' }] },
      { ...none, conditions: [{ fieldId: byName('Budget').id, op: 'gte', on: 'number', value: '1' }] },
      { ...none, keyword: '1', window: { from: Date.now() - 90 * 86_400_000, to: null } },
    ];
    for (const filter of filters) {
      const found = await listCustomers(t.database.db, scope, filter, { offset: 0, limit: 100 });
      const walked = await listCustomers(t.database.db, scope, filter, { offset: 0, limit: 100 }, 0);
      expect(found.rows.length).toBeGreaterThan(1);
      expect(walked).toEqual(found);
      const pages = [];
      for (let offset = 0; offset < found.total; offset += 2) {
        const next = await listCustomers(t.database.db, scope, filter, { offset, limit: 2 }, 0);
        expect(next.total).toBe(found.total);
        pages.push(...next.rows);
      }
      expect(pages).toEqual(found.rows);
    }
  });

  it('keeps values of a removed option, orders fields, and deletes a field with its values and history', async () => {
    const fields = (await call(r.fieldList, {}, admin())).data.items as ProfileField[];
    const level = fields.find((f) => f.name === '等级') as ProfileField;
    const narrowed = { id: level.id, name: level.name, type: level.type, options: ['普通', '流失'], required: true };
    expect((await call(r.fieldUpdate, narrowed, admin())).code).toBe(0);
    const wang = (await call(r.customerGet, { id: customers['c-wang'] }, member())).data as ProfileCustomer;
    expect(currentOf(wang, level.id)).toBe('VIP');
    expect((await set(customers['c-wang'], level.id, 'VIP')).code).toBe(40811);

    const reversed = fields.map((f) => f.id).reverse();
    const reordered = await call(r.fieldReorder, { ids: reversed.slice(0, 2) }, admin());
    expect((reordered.data.items as ProfileField[]).map((f) => f.id)).toEqual([
      ...reversed.slice(0, 2),
      ...fields.map((f) => f.id).filter((id) => !reversed.slice(0, 2).includes(id)),
    ]);
    expect((await call(r.fieldList, {}, member())).data.items.map((f: ProfileField) => f.position)).toEqual(
      fields.map((_, i) => i),
    );
    expect((await call(r.fieldReorder, { ids: ['missing'] }, admin())).code).toBe(40400);

    const score = fields.find((f) => f.name === 'Score') as ProfileField;
    expect((await call(r.fieldDelete, { id: score.id }, admin())).code).toBe(0);
    const li = (await call(r.customerGet, { id: customers['c-li'] }, member())).data as ProfileCustomer;
    expect(currentOf(li, score.id)).toBeNull();
    expect((await call(r.history, { customer_id: customers['c-li'] }, member())).data.items).not.toContainEqual(
      expect.objectContaining({ field_id: score.id }),
    );
    expect((await call(r.fieldDelete, { id: score.id }, admin())).code).toBe(40400);
  });

  it(`refuses more than ${PROFILE_LIMITS.fieldsPerScene} fields in a scene`, async () => {
    const headers = inScene(team.admin, '10');
    for (let i = 0; i < PROFILE_LIMITS.fieldsPerScene; i++) {
      expect((await create({ name: `F${i}`, type: 'text' }, headers)).code).toBe(0);
    }
    const over = await create({ name: 'One more', type: 'text' }, { ...headers, language: 'en' });
    expect(over).toMatchObject({ code: 40803, msg: expect.stringContaining('100') });
  }, 60_000);
});
