import {
  type BehaviourEvent,
  behaviourRoutes as b,
  chatHistoryRoutes,
  type ProfileCustomer,
  profileRoutes,
} from '@athena/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../platform/db/sql.ts';
import { type FakeWecomApi, startFakeWecomApi } from '../../testing/fake-wecom-api.ts';
import { buildTeam, type TeamFixture } from '../../testing/fixtures.ts';
import { createTestApp, type TestApp } from '../../testing/test-app.ts';
import { amountFenOf } from './behaviour.service.ts';
import { connectWecom, kfEvent, kfText, sendSigned } from './behaviour-test-kit.ts';

describe("a WeCom shop order's amount, read from its price wording", () => {
  it('reads yuan exactly as whole fen, with or without a currency mark, thousands separators or a total', () => {
    const cases: [string, number | null][] = [
      ['¥12.50', 1_250],
      ['12.50元', 1_250],
      ['合计 ¥1,234.00', 123_400],
      ['￥0.1', 10],
      ['¥19.99', 1_999],
      ['RMB 8', 800],
      ['共2件 合计：¥1,000,000.07', 100_000_007],
      ['原价 ¥20.00 实付 ¥12.50', 1_250],
      ['¥12.50 ¥12.50', 1_250],
    ];
    for (const [wording, fen] of cases) expect(amountFenOf(wording), wording).toBe(fen);
  });

  it('reads no amount from wording it does not understand, rather than a wrong one', () => {
    for (const wording of ['', '免费', '12.50', '¥12.505', '¥20 ¥30', '¥1,23.00', '$12.50', '¥99999999999.00', '¥']) {
      expect(amountFenOf(wording), wording).toBeNull();
    }
  });
});

type EventList = { items: BehaviourEvent[]; total: number; message_counts: { display_type: string; count: number }[] };

describe('behaviour data: derived from chat history, pushed by channels, read per customer', () => {
  let t: TestApp;
  let team: TeamFixture;
  let wecom: FakeWecomApi;
  let push: () => Promise<void>;
  let endpoint: { url: string; secret: string };
  const inScene = (token: string, scene: string) => ({ ...team.as(token), 'scene-id': scene });

  async function customerId(scene: string, sourceId: string) {
    const list = await t.call(profileRoutes.customerList, { keyword: sourceId }, inScene(team.member, scene));
    const found = (list.body.data as { items: ProfileCustomer[] }).items.find((c) => c.source_id === sourceId);
    if (!found) throw new Error(`no customer ${sourceId}`);
    return found.id;
  }
  const events = async (scene: string, customer: string, extra: Record<string, unknown> = {}, token = team.member) => {
    const answer = await t.call(b.behaviourList, { customer_id: customer, ...extra }, inScene(token, scene));
    expect(answer.body.code, answer.body.msg).toBe(0);
    return answer.body.data as EventList;
  };
  const countEvents = async () =>
    Number(
      rowsOf<{ n: number }>(await t.database.db.execute(sql`select count(*)::int as n from customer_events`))[0].n,
    );

  const batch = JSON.stringify({
    messages: [
      {
        msg_id: 'b-1',
        conversation: { id: 'conv-li', chat_type: 'private' },
        customer: { id: 'c-li', name: '李四' },
        send_type: 'user',
        kind: 11041,
        content: '查看订单',
        payload: { menu_id: 'menu-orders' },
        sent_at: Date.now() - 60_000,
      },
      {
        msg_id: 'b-2',
        conversation: { id: 'conv-li', chat_type: 'private' },
        customer: { id: 'c-li', name: '李四' },
        send_type: 'user',
        kind: 11041,
        content: '你好',
        sent_at: Date.now() - 50_000,
      },
    ],
  });

  beforeAll(async () => {
    wecom = await startFakeWecomApi();
    t = await createTestApp({ env: { WECOM_API_BASE: wecom.url } });
    team = await buildTeam(t, { phonePrefix: '135530000' });
    push = await connectWecom(t, wecom, team.as(team.creator));
    endpoint = (await t.call(chatHistoryRoutes.ingestRotate, {}, inScene(team.creator, '19'))).body.data as {
      url: string;
      secret: string;
    };
  });
  afterAll(async () => {
    await t.close();
    await wecom.close();
  });

  it('derives a menu tap from an ingested message once, however often the batch is sent', async () => {
    const first = await sendSigned(t, endpoint, batch);
    expect(first.statusCode, first.body).toBe(200);
    // The same batch again, signed anew (a channel's retry): stored nothing, derived nothing.
    const again = await sendSigned(t, endpoint, batch, { at: Math.floor(Date.now() / 1000) - 5 });
    expect(again.json()).toEqual({ stored: 0, duplicates: 2 });
    const li = await customerId('19', 'c-li');
    const list = await events('19', li);
    expect(list.items).toMatchObject([
      { kind: 'menu_click', origin: 'chat', name: '查看订单', detail: { menu_id: 'menu-orders' } },
    ]);
    expect(list.total).toBe(1);
    expect(list.message_counts).toEqual([{ display_type: 'text', count: 2 }]);
  });

  it('derives again what a crash between storing and deriving lost, once, from the catch-up job', async () => {
    const catchUp = () => t.app.modules.userProfile.behaviourCatchUp.catchUp();
    await catchUp();
    const li = await customerId('19', 'c-li');
    // As if the process had died after storing b-1 and before deriving it: no event, and the job's
    // watermark still before it.
    await t.database.db.execute(sql`delete from customer_events where source_key = 'msg:b-1'`);
    await t.database.db.execute(sql`update report_watermarks set message_id = 0 where name = 'behaviour'`);
    expect((await events('19', li)).total).toBe(0);
    await catchUp();
    expect((await events('19', li)).items).toMatchObject([{ kind: 'menu_click', name: '查看订单' }]);
    const before = await countEvents();
    await t.database.db.execute(sql`update report_watermarks set message_id = 0 where name = 'behaviour'`);
    await catchUp();
    expect(await countEvents()).toBe(before);
  });

  it('names a menu tap by its first 200 characters, never cutting an emoji in half', async () => {
    // 199 letters and then an emoji: cut by UTF-16 units, its high surrogate alone would be the
    // 200th and the notice's jsonb insert would fail.
    const long = `${'a'.repeat(199)}😀 and more`;
    const sent = await sendSigned(
      t,
      endpoint,
      JSON.stringify({
        messages: [
          {
            msg_id: 'b-emoji',
            conversation: { id: 'conv-emoji', chat_type: 'private' },
            customer: { id: 'c-emoji', name: '表情' },
            send_type: 'user',
            kind: 11041,
            content: long,
            payload: { menu_id: 'menu-emoji' },
            sent_at: Date.now() - 40_000,
          },
        ],
      }),
    );
    expect(sent.statusCode, sent.body).toBe(200);
    const list = await events('19', await customerId('19', 'c-emoji'));
    expect(list.items).toMatchObject([{ kind: 'menu_click', name: `${'a'.repeat(199)}😀` }]);
  });

  it('derives sessions, menu taps and shop orders from WeCom, once even when a page is pulled twice', async () => {
    wecom.receive(
      kfEvent('e-enter', 'wmWang', { event_type: 'enter_session', welcome_code: 'WELCOME1' }),
      kfText('w-1', 'wmWang', '人工客服', 'menu-human'),
      {
        msgid: 'w-2',
        open_kfid: 'wkBehaviourKf0000000000000000001',
        external_userid: 'wmWang',
        send_time: Math.floor(Date.now() / 1000),
        origin: 3,
        msgtype: 'channels_shop_order',
        channels_shop_order: {
          order_id: 'o-1',
          product_titles: '保温杯',
          price_wording: '¥99.00',
          state: '已支付',
          shop_nickname: '小店',
        },
      },
      kfEvent('e-end', 'wmWang', { event_type: 'session_status_change', change_type: 3, msg_code: 'END1' }),
    );
    await push();
    const before = await countEvents();
    // The cursor forgotten (as after a lost cursor): WeCom hands the same page again.
    await t.database.db.execute(sql`update wecom_cursors set cursor = ''`);
    await push();
    expect(await countEvents()).toBe(before);

    const wang = await customerId('5', 'wmWang');
    const list = await events('5', wang);
    // All in one second (WeCom times to the second) and the session events stored after the page's
    // messages: still the session's end on top, its start at the bottom, the messages in between.
    expect(list.items.map((e) => e.kind)).toEqual(['session_end', 'order', 'menu_click', 'session_start']);
    expect(list.items.find((e) => e.kind === 'order')).toMatchObject({
      name: '保温杯',
      detail: { description: '小店 · ¥99.00 · 已支付' },
      amount_fen: 9_900,
    });
    // Newest first; a kind filter.
    const times = list.items.map((e) => e.occurred_at);
    expect([...times].sort().reverse()).toEqual(times);
    expect((await events('5', wang, { kind: 'order' })).items).toHaveLength(1);
    expect((await events('5', wang, { page_size: 1, page: 2 })).items).toHaveLength(1);
  });

  describe('the push API for channels', () => {
    const event = (id: string, extra: Record<string, unknown> = {}) => ({
      event_id: id,
      customer_id: 'c-li',
      kind: 'purchase',
      name: '年卡',
      occurred_at: Date.now() - 1_000,
      amount_fen: 19_900,
      ...extra,
    });
    const pushEvents = (events: unknown[], opts: Parameters<typeof sendSigned>[3] = {}) =>
      sendSigned(t, endpoint, JSON.stringify({ events }), { suffix: '/behaviour', ...opts });

    it('stores each event once by its id, and names customers the scene does not have', async () => {
      const raw = [
        event('p-1'),
        event('p-2', { kind: 'link_open', name: '活动页', url: 'https://shop.example.com/a', amount_fen: undefined }),
        event('p-3', { customer_id: 'c-nobody' }),
      ];
      const first = await pushEvents(raw);
      expect(first.statusCode, first.body).toBe(200);
      expect(first.json()).toEqual({ stored: 2, duplicates: 0, unknown_customers: ['p-3'] });
      const again = await pushEvents(raw, { at: Math.floor(Date.now() / 1000) - 3 });
      expect(again.json()).toEqual({ stored: 0, duplicates: 2, unknown_customers: ['p-3'] });
      // The very same signed request twice: refused like a replayed ingest batch.
      const at = Math.floor(Date.now() / 1000) - 7;
      const once = [event('p-4')];
      expect((await pushEvents(once, { at })).statusCode).toBe(200);
      expect((await pushEvents(once, { at })).statusCode).toBe(409);

      const li = await customerId('19', 'c-li');
      const list = await events('19', li, { kind: 'purchase' });
      expect(list.items).toMatchObject([
        { kind: 'purchase', origin: 'push', amount_fen: 19_900 },
        { kind: 'purchase', origin: 'push', amount_fen: 19_900 },
      ]);
      expect(list.total).toBe(2);
      expect((await events('19', li, { kind: 'link_open' })).items[0].detail).toEqual({
        url: 'https://shop.example.com/a',
      });
    });

    it('refuses bad input whole, with clear codes', async () => {
      const code = async (response: Awaited<ReturnType<typeof pushEvents>>) => ({
        status: response.statusCode,
        code: response.json().code,
      });
      expect(await code(await pushEvents([event('x-1')], { secret: 'wrong' }))).toEqual({ status: 401, code: 40506 });
      expect(await code(await pushEvents([event('x-1')], { at: 1_000 }))).toEqual({ status: 401, code: 40507 });
      expect(await code(await pushEvents([event('x-1', { kind: 'teleport' })]))).toEqual({ status: 400, code: 40820 });
      expect(await code(await pushEvents([event('x-1', { amount_fen: 12.5 })]))).toEqual({ status: 400, code: 40820 });
      expect(await code(await pushEvents([event('x-1', { occurred_at: 'yesterday' })]))).toEqual({
        status: 400,
        code: 40820,
      });
      expect(await code(await pushEvents([]))).toEqual({ status: 400, code: 40820 });
      const many = Array.from({ length: 501 }, (_, i) => event(`m-${i}`));
      expect(await code(await pushEvents(many))).toEqual({ status: 413, code: 40821 });
      const notJson = await sendSigned(t, endpoint, 'not json', { suffix: '/behaviour' });
      expect(notJson.json()).toMatchObject({ code: 40820 });
      const nowhere = await t.app.inject({ method: 'POST', url: '/hooks/chat/nope/behaviour', payload: '{}' });
      expect(nowhere.statusCode).toBe(404);
      const refused = rowsOf<{ n: number }>(
        await t.database.db.execute(
          sql`select count(*)::int as n from customer_events where source_key like 'push:x-%' or source_key like 'push:m-%'`,
        ),
      );
      expect(refused[0].n).toBe(0);
    });
  });

  it('lets every member read a customer’s behaviour; a stranger gets NOT_FOUND or 16023', async () => {
    const li = await customerId('19', 'c-li');
    for (const token of [team.creator, team.admin, team.member])
      expect((await events('19', li, {}, token)).total).toBeGreaterThan(0);
    const strangerOwn = await t.call(
      b.behaviourList,
      { customer_id: li },
      {
        ...team.as(team.stranger, team.strangerTeamId),
        'scene-id': '19',
      },
    );
    expect(strangerOwn.body.code).toBe(40400);
    const strangerHere = await t.call(
      b.behaviourList,
      { customer_id: li },
      { ...team.as(team.stranger), 'scene-id': '19' },
    );
    expect(strangerHere.body.code).toBe(16023);
    // Another scene of the same team does not hold this customer.
    expect((await t.call(b.behaviourList, { customer_id: li }, inScene(team.member, '5'))).body.code).toBe(40400);
  });
});
