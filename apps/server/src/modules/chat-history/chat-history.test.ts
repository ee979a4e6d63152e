import {
  authRoutes,
  type ChatConversation,
  type ChatHistoryMessage,
  chatLiveStream,
  chatHistoryRoutes as r,
  teamRoutes,
} from '@athena/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signWebhook } from '../../platform/http/webhook-signature.ts';
import { createTestApp, type TestApp } from '../../testing/test-app.ts';
import { stream } from '../agent/agent-test-helpers.ts';
import { chatMessages } from './chat-history.schema.ts';
import { type ListCursor, listConversations, type Tuning } from './conversation-list.query.ts';

const T0 = Date.parse('2026-11-20T08:00:00Z');

/** One ingest message with the fields a channel must send, and whatever the test overrides. */
const message = (msgId: string, overrides: Record<string, unknown> = {}) => ({
  msg_id: msgId,
  conversation: { id: 'conv-1', chat_type: 'private' },
  customer: { id: 'cust-1', name: '王小明' },
  channel: { id: 'robot-1', name: '售后机器人' },
  send_type: 'user',
  kind: 11041,
  content: '你好，我想申请退款',
  sent_at: T0,
  ...overrides,
});

describe('chat history: ingest and reading', () => {
  let t: TestApp;
  let owner: string;
  let member: string;
  let stranger: string;
  let space: string;
  let ingest: { url: string; secret: string };
  const as = (token: string, scene = '19') => ({ token, 'space-id': space, 'scene-id': scene });

  async function send(body: unknown, opts: { secret?: string; at?: number; raw?: string; url?: string } = {}) {
    const raw = opts.raw ?? JSON.stringify(body);
    const at = opts.at ?? Math.floor(Date.now() / 1000);
    const response = await t.app.inject({
      method: 'POST',
      url: new URL(opts.url ?? ingest.url).pathname,
      headers: {
        'content-type': 'application/json',
        'x-athena-signature': `t=${at},v1=${signWebhook(opts.secret ?? ingest.secret, at, raw)}`,
      },
      payload: raw,
    });
    return {
      status: response.statusCode,
      body: response.json() as { code?: number; stored?: number; duplicates?: number; msg?: string },
    };
  }
  const list = async (filter: Record<string, unknown> = {}, token = owner, scene = '19') =>
    (await t.call(r.conversationList, filter, as(token, scene))).body;

  beforeAll(async () => {
    t = await createTestApp({ env: { CHAT_LIVE_SECONDS: '1' } });
    owner = await t.signInBySms('13100000001');
    member = await t.signInBySms('13100000002');
    stranger = await t.signInBySms('13100000003');
    space = (await t.call(teamRoutes.create, { name: '客服部' }, { token: owner })).body.data.id;
    const invite = await t.call(teamRoutes.inviteCreate, {}, { token: owner, 'space-id': space });
    await t.call('/api/athena/v1/invite/accept', { code: invite.body.data.code }, { token: member });
  });
  afterAll(() => t.close());

  it('lets the creator and admins turn the ingest endpoint on, members only read its state', async () => {
    const refused = await t.call(r.ingestRotate, {}, as(member));
    expect(refused.body.code).toBe(40300);
    const made = await t.call(r.ingestRotate, {}, as(owner));
    expect(made.body.code).toBe(0);
    ingest = made.body.data;
    expect(ingest.url).toMatch(/\/hooks\/chat\/[A-Za-z0-9_-]{32}$/);
    const seen = await t.call(r.settingsGet, {}, as(member));
    expect(seen.body.data).toMatchObject({
      scene_id: 19,
      send_type_options: ['', 'user', 'ai_full'],
      ingest: { enabled: true, url: ingest.url, secret_prefix: ingest.secret.slice(0, 16) },
    });
    expect(JSON.stringify(seen.body)).not.toContain(ingest.secret);
    const full = await t.call(r.settingsGet, {}, as(member, '5'));
    expect(full.body.data.send_type_options).toEqual([
      '',
      'user',
      'human',
      'ai_full',
      'ai_assisted',
      'ai_manual',
      'fixed',
    ]);
    expect((await t.call(r.settingsGet, {}, as(member, '10010'))).body.code).toBe(40500);
    // A stranger is not in the team at all.
    expect((await t.call(r.settingsGet, {}, as(stranger))).body.code).toBe(16023);
  });

  it('stores a batch once, however often it is sent, and shows every kind code as a display type', async () => {
    const batch = {
      messages: [
        message('m1'),
        message('m2', {
          send_type: 'ai_full',
          sender_name: '小助手',
          content: '您好，请提供订单号',
          sent_at: T0 + 1_000,
        }),
        message('m3', {
          kind: 11042,
          content: '',
          payload: { url: 'https://img.example.com/a.png' },
          sent_at: T0 + 2_000,
        }),
        message('m4', { kind: 99999, content: '', sent_at: T0 + 3_000 }),
        message('m5', { kind: 'ParseFailed', content: '', sent_at: T0 + 4_000 }),
        message('g1', {
          conversation: { id: 'group-1', chat_type: 'group', name: 'VIP 客户群' },
          customer: { id: 'cust-2', name: 'Alice' },
          content: 'Where is my parcel? 🚚',
          sent_at: T0 + 5_000,
        }),
      ],
    };
    const now = Math.floor(Date.now() / 1000);
    const first = await send(batch, { at: now - 10 });
    expect(first).toMatchObject({ status: 200, body: { stored: 6, duplicates: 0 } });
    const again = await send(batch, { at: now - 20 });
    expect(again).toMatchObject({ status: 200, body: { stored: 0, duplicates: 6 } });

    const { data } = await list();
    expect(data.items.map((c: ChatConversation) => c.title)).toEqual(['VIP 客户群', '王小明']);
    const [group, privateChat] = data.items as ChatConversation[];
    expect(group).toMatchObject({ chat_type: 'group', message_count: 1, unread: 1 });
    expect(privateChat).toMatchObject({
      chat_type: 'private',
      channel: { id: 'robot-1', name: '售后机器人' },
      customer: { name: '王小明' },
      message_count: 5,
      unread: 4,
      last_message: { display_type: 'unknown' },
    });

    const thread = await t.call(r.messageList, { conversation_id: privateChat.id }, as(member));
    const items = thread.body.data.items as ChatHistoryMessage[];
    expect(items.map((m) => [m.source_kind, m.display_type, m.send_type])).toEqual([
      ['11041', 'text', 'user'],
      ['11041', 'text', 'ai_full'],
      ['11042', 'image', 'user'],
      ['99999', 'unknown', 'user'],
      ['ParseFailed', 'unknown', 'user'],
    ]);
    expect(items[2].payload).toEqual({ url: 'https://img.example.com/a.png' });
    const rows = await t.database.db.select().from(chatMessages);
    expect(rows).toHaveLength(6);
  });

  it('refuses forged, stale and replayed calls, and bad batches whole', async () => {
    const body = { messages: [message('m-new', { sent_at: T0 + 60_000 })] };
    expect(await send(body, { secret: 'athena_chat_wrong' })).toMatchObject({ status: 401, body: { code: 40506 } });
    expect(await send(body, { at: Math.floor(Date.now() / 1000) - 3600 })).toMatchObject({
      status: 401,
      body: { code: 40507 },
    });
    const unknown = await send(body, { url: ingest.url.replace(/[^/]+$/, 'nope') });
    expect(unknown).toMatchObject({ status: 404, body: { code: 40505 } });

    const at = Math.floor(Date.now() / 1000);
    expect((await send(body, { at })).status).toBe(200);
    expect(await send(body, { at })).toMatchObject({ status: 409, body: { code: 40508 } });

    // One bad message: nothing of the batch is stored, and the answer says which and why.
    const bad = await send({
      messages: [message('ok-1'), message('bad-2', { send_type: 'robot' }), message('ok-3')],
    });
    expect(bad).toMatchObject({ status: 400, body: { code: 40509 } });
    expect(bad.body.msg).toContain('messages.1.send_type');
    const nul = await send({ messages: [message('nul', { content: 'a\u0000b' })] });
    expect(nul).toMatchObject({ status: 400, body: { code: 40509 } });
    expect(await send({}, { raw: '{"messages": [' })).toMatchObject({ status: 400, body: { code: 40509 } });

    const tooMany = { messages: Array.from({ length: 1_001 }, (_, i) => ({ msg_id: `x${i}` })) };
    expect(await send(tooMany)).toMatchObject({ status: 413, body: { code: 40510 } });
    const huge = { messages: [message('big', { content: 'x'.repeat(20_000) })], pad: 'y'.repeat(5 * 1024 * 1024) };
    expect(await send(huge)).toMatchObject({ status: 413, body: { code: 40510 } });
    const rows = await t.database.db.select().from(chatMessages);
    expect(rows.map((row) => row.sourceMsgId).sort()).toEqual(['g1', 'm-new', 'm1', 'm2', 'm3', 'm4', 'm5']);
  });

  it('filters by chat type, send type, customer, time and Chinese keywords', async () => {
    const titles = async (filter: Record<string, unknown>) =>
      (await list(filter)).data.items.map((c: ChatConversation) => c.title);
    expect(await titles({ chat_type: 'group' })).toEqual(['VIP 客户群']);
    expect(await titles({ send_type: 'ai_full' })).toEqual(['王小明']);
    expect(await titles({ keyword: '退款' })).toEqual(['王小明']);
    expect(await titles({ keyword: '申请退款' })).toEqual(['王小明']);
    expect(await titles({ keyword: '请退' })).toEqual(['王小明']);
    expect(await titles({ keyword: '退' })).toEqual(['王小明']);
    // Both characters occur, but not side by side: not a hit.
    expect(await titles({ keyword: '退我' })).toEqual([]);
    expect(await titles({ keyword: 'PARCEL' })).toEqual(['VIP 客户群']);
    expect(await titles({ keyword: '100%' })).toEqual([]);
    const customers = await t.call(r.customerSearch, { keyword: '小明' }, as(member));
    expect(customers.body.data.items).toEqual([
      { id: expect.any(String), name: '王小明', avatar_url: null, source_id: 'cust-1' },
    ]);
    // Or by the channel's id of the customer, whole.
    const bySource = await t.call(r.customerSearch, { keyword: 'cust-1' }, as(member));
    expect(bySource.body.data.items.map((customer: { name: string }) => customer.name)).toEqual(['王小明']);
    expect(await titles({ customer_id: customers.body.data.items[0].id })).toEqual(['王小明']);

    const matched = (await list({ keyword: '订单号' })).data.items[0] as ChatConversation;
    expect(matched.matched).toMatchObject({ send_type: 'ai_full', preview: '您好，请提供订单号' });
    const custom = { preset: 'custom', from: T0 - 60_000, to: T0 + 30_000 };
    expect(await titles({ time: custom })).toEqual(['王小明', 'VIP 客户群']);
    expect(await titles({ time: { preset: 'custom', from: T0 + 61_000, to: T0 + 120_000 } })).toEqual([]);
    expect((await list({ time: { preset: 'custom', from: 5, to: 1 } })).code).toBe(40502);
    // The messages are from 2026-11-20; "the last hour" of the real clock holds none of them.
    expect(await titles({ time: { preset: '1h' } })).toEqual([]);
  });

  it('pages the list by cursor and threads both ways, and marks a conversation read', async () => {
    const first = (await list({ limit: 1 })).data;
    expect(first.items).toHaveLength(1);
    const second = (await list({ limit: 1, cursor: first.next_cursor })).data;
    expect(second.items[0].id).not.toBe(first.items[0].id);
    expect((await list({ cursor: 'garbage' })).code).toBe(40000);

    const conversation = [...first.items, ...second.items].find(
      (c: ChatConversation) => c.title === '王小明',
    ) as ChatConversation;
    const newest = await t.call(r.messageList, { conversation_id: conversation.id, limit: 2 }, as(member));
    expect(newest.body.data.has_more).toBe(true);
    const older = await t.call(
      r.messageList,
      { conversation_id: conversation.id, limit: 10, before_id: newest.body.data.items[0].id },
      as(member),
    );
    expect(older.body.data.items).toHaveLength(4);
    expect(older.body.data.items.map((m: ChatHistoryMessage) => m.content)).toContain('您好，请提供订单号');
    expect(older.body.data.has_more).toBe(false);

    expect((await t.call(r.conversationRead, { id: conversation.id }, as(member))).body.code).toBe(0);
    expect((await t.call(r.conversationGet, { id: conversation.id }, as(owner))).body.data.unread).toBe(0);
  });

  it('tells live readers of the scene which conversations changed, then says bye', async () => {
    const [watched, otherScene] = [
      stream(t, chatLiveStream, {}, as(member)),
      stream(t, chatLiveStream, {}, as(member, '5')),
    ];
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await send({ messages: [message('live-1', { sent_at: T0 + 90_000 })] })).status).toBe(200);
    const { items } = (await list()).data;
    const events = (await watched).events;
    // Told once, though the bus delivers a notice both directly and through NOTIFY.
    expect(events.filter((event) => event.event === 'changed')).toEqual([
      { event: 'changed', data: { conversation_ids: [items[0].id] } },
    ]);
    expect(events.at(-1)).toEqual({ event: 'bye', data: {} });
    expect((await otherScene).events).toEqual([{ event: 'bye', data: {} }]);
  });

  it('tells someone removed from the team nothing more of it, while their stream is still open', async () => {
    const leaving = await t.signInBySms('13100000004');
    const invite = await t.call(teamRoutes.inviteCreate, {}, { token: owner, 'space-id': space });
    await t.call('/api/athena/v1/invite/accept', { code: invite.body.data.code }, { token: leaving });
    const [watching, staying] = [stream(t, chatLiveStream, {}, as(leaving)), stream(t, chatLiveStream, {}, as(member))];
    await new Promise((resolve) => setTimeout(resolve, 100));
    const profile = await t.call(authRoutes.userInfo, {}, { token: leaving });
    const removed = await t.call(
      teamRoutes.memberRemove,
      { user_id: profile.body.data.id },
      { token: owner, 'space-id': space },
    );
    expect(removed.body.code).toBe(0);
    expect((await send({ messages: [message('after-removal', { sent_at: T0 + 95_000 })] })).status).toBe(200);
    expect((await watching).events.map((event) => event.event)).toEqual(['bye']);
    expect((await staying).events.map((event) => event.event)).toEqual(['changed', 'bye']);
  });

  it('lists the same conversations whichever way a message filter is answered', async () => {
    const sendTypes = ['user', 'ai_full', 'human', 'fixed'];
    const texts = ['我要退款', '快递到了吗', 'Where is my parcel', '好的谢谢'];
    const messages = Array.from({ length: 48 }, (_, i) =>
      message(`walk-${i}`, {
        conversation: { id: `walk-conv-${i % 12}`, chat_type: i % 5 === 0 ? 'group' : 'private' },
        customer: { id: `walk-cust-${i % 12}`, name: `客户${i % 12}` },
        send_type: sendTypes[(i * 7) % 4],
        content: texts[(i * 5) % 4],
        sent_at: T0 + 100_000 + i * 60_000,
      }),
    );
    expect((await send({ messages })).status).toBe(200);
    const scope = { spaceId: space, sceneId: 19, userId: '' };
    const blank = { chat_type: '', send_type: '', time: null, keyword: '', customer_id: null } as const;
    const everyPage = async (filter: Record<string, unknown>, tuning: Tuning) => {
      const ids: string[] = [];
      let cursor: ListCursor | null = null;
      for (let page = 0; page < 20; page++) {
        const rows = await listConversations(
          t.database.db,
          scope,
          { ...blank, ...filter } as Parameters<typeof listConversations>[2],
          { cursor, limit: 3 },
          new Date(T0 + 10_000_000),
          tuning,
        );
        // With the newest matching message each way found: the same one.
        ids.push(...rows.map((row) => `${row.id}:${row.match_id}`));
        if (rows.length < 3) break;
        const last = rows[2];
        cursor = { at: new Date(last.last_message_at).toISOString(), id: Number(last.id) };
      }
      return ids;
    };
    const filters = [
      { keyword: '退款' },
      { keyword: 'parcel', chat_type: 'private' },
      { send_type: 'fixed', time: { preset: 'custom', from: T0 + 1_000_000, to: T0 + 2_500_000 } },
      { send_type: 'human', keyword: 'parcel' },
    ];
    for (const filter of filters) {
      const walk = { walkBudget: 1_000, candidatesAfterWalk: 0 };
      const rare = await everyPage(filter, { rareHits: 100_000, commonTerm: 100_000, window: 200, ...walk });
      // Counted without the search index, as for a common keyword.
      const rareCommon = await everyPage(filter, { rareHits: 100_000, commonTerm: 0, window: 200, ...walk });
      const walked = await everyPage(filter, { rareHits: 1, commonTerm: 0, window: 2, ...walk });
      // A walk cut short after 2 conversations, then counted after all (or walked on, when more match).
      const counted = await everyPage(filter, {
        rareHits: 50,
        commonTerm: 0,
        window: 2,
        walkBudget: 2,
        candidatesAfterWalk: 100_000,
      });
      const walkedOn = await everyPage(filter, { ...walk, rareHits: 1, commonTerm: 0, window: 2, walkBudget: 2 });
      expect(rare.length, JSON.stringify(filter)).toBeGreaterThan(0);
      expect(rareCommon, JSON.stringify(filter)).toEqual(rare);
      expect(walked, JSON.stringify(filter)).toEqual(rare);
      expect(counted, JSON.stringify(filter)).toEqual(rare);
      expect(walkedOn, JSON.stringify(filter)).toEqual(rare);
    }
  });

  it('refreshes names a channel sends anew, keeps them when it sends none, and keeps the earliest time', async () => {
    const conversation = { id: 'conv-names', chat_type: 'private', name: '旧会话名' };
    const first = message('n1', { conversation, customer: { id: 'cust-names', name: '旧名字' }, sent_at: T0 });
    expect((await send({ messages: [first] })).body).toMatchObject({ stored: 1 });
    const renamed = message('n2', {
      conversation: { ...conversation, name: '新会话名' },
      customer: { id: 'cust-names', name: '新名字', avatar_url: 'https://example.com/a.png' },
      channel: { id: 'robot-1', name: '新机器人' },
      sent_at: T0 + 5_000,
    });
    // An older message than any stored: the conversation now starts earlier.
    const older = message('n3', {
      conversation: { ...conversation, name: '' },
      customer: { id: 'cust-names', name: '' },
      channel: { id: 'robot-1', name: '' },
      sent_at: T0 - 3_600_000,
    });
    expect((await send({ messages: [renamed] })).body).toMatchObject({ stored: 1 });
    expect((await send({ messages: [older] })).body).toMatchObject({ stored: 1 });
    const customer = (await t.call(r.customerSearch, { keyword: '新名字' }, as(owner))).body.data.items[0];
    expect(customer).toMatchObject({ name: '新名字', avatar_url: 'https://example.com/a.png' });
    const [row] = (await list({ customer_id: customer.id })).data.items as ChatConversation[];
    expect(row).toMatchObject({ title: '新会话名', channel: { name: '新机器人' }, message_count: 3 });
    expect(row.last_message?.id).toBeDefined();
    // Listed for a window that holds only the older message, so its time was kept.
    const early = { preset: 'custom', from: T0 - 3_700_000, to: T0 - 3_500_000 };
    expect((await list({ time: early })).data.items.map((c: ChatConversation) => c.title)).toEqual(['新会话名']);
  });

  it('previews a card without text by its title, not by its kind alone', async () => {
    const conversation = { id: 'conv-card', chat_type: 'private' };
    const card = message('card-1', {
      conversation,
      customer: { id: 'cust-card', name: '卡片客户' },
      send_type: 'ai_manual',
      kind: 11047,
      content: '',
      payload: { title: '春季新品目录', url: 'https://example.com/catalogue' },
      sent_at: T0 + 60_000,
    });
    expect((await send({ messages: [card] })).body).toMatchObject({ stored: 1 });
    const customer = (await t.call(r.customerSearch, { keyword: '卡片客户' }, as(owner))).body.data.items[0];
    const [row] = (await list({ customer_id: customer.id })).data.items as ChatConversation[];
    expect(row.last_message).toMatchObject({ display_type: 'link', send_type: 'ai_manual', preview: '春季新品目录' });
  });

  it('keeps scenes and teams apart', async () => {
    const { items } = (await list()).data;
    // The same team's other scene has none of these conversations, and cannot open them.
    expect((await list({}, owner, '5')).data.items).toEqual([]);
    expect((await t.call(r.conversationGet, { id: items[0].id }, as(owner, '5'))).body.code).toBe(40501);
    // Another team's member asking in their own team for these ids: not found.
    const own = (await t.call(teamRoutes.create, { name: 'Other' }, { token: stranger })).body.data.id;
    const theirs = { token: stranger, 'space-id': own, 'scene-id': '19' };
    expect((await t.call(r.conversationGet, { id: items[0].id }, theirs)).body.code).toBe(40501);
    expect((await t.call(r.messageList, { conversation_id: items[0].id }, theirs)).body.code).toBe(40501);
    expect((await t.call(r.conversationList, {}, theirs)).body.data.items).toEqual([]);
  });
});
