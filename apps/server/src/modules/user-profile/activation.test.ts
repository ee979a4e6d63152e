import {
  type ActivationEvent,
  type ActivationSend,
  type ActivationTemplate,
  activationRoutes as a,
  agentRoutes,
  chatHistoryRoutes,
  modelKeyRoutes,
  profileRoutes,
  type RouteDescriptor,
} from '@athena/contract';
import { type FakeOpenAI, startFakeOpenAI } from '@athena/fake-openai';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wecomCrypt } from '../../platform/wecom/msg-crypt.ts';
import { sendIngest } from '../../testing/chat-ingest.ts';
import { type FakeWecomApi, startFakeWecomApi } from '../../testing/fake-wecom-api.ts';
import { buildTeam, type TeamFixture } from '../../testing/fixtures.ts';
import { createTestApp, type TestApp } from '../../testing/test-app.ts';
import { llmUsage } from '../model-key/model-key.schema.ts';

const TOKEN = 'ActivationToken1';
const AES_KEY = 'jWmYm7qr5nMoAUwZRjGtBxmz3KA1tkAj3ykkR6q2B2C';
const KF = 'wkActivation';
const HOUR = 3_600_000;

describe('activation events: templates, audiences and exactly-once sends through WeCom', () => {
  let wecom: FakeWecomApi;
  let openai: FakeOpenAI;
  let t: TestApp;
  let team: TeamFixture;
  let callbackPath: string;
  let clock = Date.now();
  let seq = 0;
  const customers: Record<string, string> = {};
  const inScene = (token: string, scene = '5') => ({ ...team.as(token), 'scene-id': scene });
  const call = async <R extends RouteDescriptor>(route: R, body: unknown, headers: Record<string, string>) =>
    (await t.call(route, body, headers)).body;
  const admin = () => inScene(team.admin);
  const member = () => inScene(team.member);
  const sender = () => t.app.modules.userProfile.activationSender;
  const sentTo = (external: string) => wecom.sent.filter((message) => message.touser === external);

  /** A customer writes through WeCom (`hoursAgo` back in time); the callback is pushed and pulled. */
  async function customerWrites(external: string, nickname: string, hoursAgo = 0) {
    seq += 1;
    wecom.setCustomer({ external_userid: external, nickname });
    wecom.receive({
      msgid: `in-${seq}`,
      open_kfid: KF,
      external_userid: external,
      send_time: Math.floor((clock - hoursAgo * HOUR) / 1000),
      origin: 3,
      msgtype: 'text',
      text: { content: '你好' },
    } as never);
    const timestamp = String(Math.floor(clock / 1000));
    const inner = `<xml><ToUserName>${wecom.corpId}</ToUserName><CreateTime>${timestamp}</CreateTime><MsgType>event</MsgType><Event>kf_msg_or_event</Event><Token>t</Token><OpenKfId>${KF}</OpenKfId></xml>`;
    const sealed = wecomCrypt({ token: TOKEN, encodingAesKey: AES_KEY, receiveId: wecom.corpId }).seal(
      inner,
      timestamp,
      'n',
    );
    const res = await t.app.inject({
      method: 'POST',
      url: `${callbackPath}?msg_signature=${sealed.msg_signature}&timestamp=${timestamp}&nonce=n`,
      headers: { 'content-type': 'text/xml' },
      payload: `<xml><ToUserName>${wecom.corpId}</ToUserName><Encrypt>${sealed.encrypt}</Encrypt></xml>`,
    });
    expect(res.body).toBe('success');
    await t.app.modules.chatHistory.puller.idle();
    const list = await call(profileRoutes.customerList, { keyword: external }, member());
    const found = (list.data as { items: { id: string; source_id: string }[] }).items.find(
      (c) => c.source_id === external,
    );
    if (!found) throw new Error(`no customer ${external}`);
    customers[external] = found.id;
    return found.id;
  }

  async function template(body: Record<string, unknown>) {
    const answer = await call(a.templateCreate, body, admin());
    expect(answer.code, answer.msg).toBe(0);
    return answer.data as ActivationTemplate;
  }
  async function event(body: Record<string, unknown>, headers = admin()) {
    const answer = await call(a.eventCreate, body, headers);
    expect(answer.code, answer.msg).toBe(0);
    return answer.data as ActivationEvent;
  }
  const getEvent = async (id: string) => (await call(a.eventGet, { id }, member())).data as ActivationEvent;
  const sendsOf = async (eventId: string) =>
    ((await call(a.sendList, { event_id: eventId, page_size: 100 }, member())).data as { items: ActivationSend[] })
      .items;
  const lastText = (external: string) => (sentTo(external).at(-1)?.text as { content: string } | undefined)?.content;
  const usageRows = () =>
    t.database.db
      .select()
      .from(llmUsage)
      .where(and(eq(llmUsage.source, 'profile.activate')))
      .orderBy(llmUsage.id);
  const byName = (sends: ActivationSend[]) =>
    Object.fromEntries(sends.map((send) => [send.customer_name, { state: send.state, reason: send.reason }]));

  beforeAll(async () => {
    wecom = await startFakeWecomApi();
    openai = await startFakeOpenAI({ tokenDelayMs: 0 });
    t = await createTestApp({
      env: { WECOM_API_BASE: wecom.url, ALLOW_PRIVATE_MODEL_ENDPOINTS: 'true' },
      now: () => new Date(clock),
    });
    team = await buildTeam(t, { phonePrefix: '135515000' });
    const connected = await call(
      chatHistoryRoutes.wecomConnect,
      { corpid: wecom.corpId, secret: wecom.secret, callback_token: TOKEN, encoding_aes_key: AES_KEY },
      inScene(team.creator),
    );
    expect(connected.code, connected.msg).toBe(0);
    callbackPath = new URL((connected.data as { callback_url: string }).callback_url).pathname;
    for (const [external, nickname] of [
      ['wmAlice', 'Alice'],
      ['wmBob', 'Bob'],
      ['wmCarol', 'Carol'],
    ]) {
      await customerWrites(external, nickname);
    }
    const city = (await call(profileRoutes.fieldCreate, { name: '城市', type: 'text' }, admin())).data as {
      id: string;
    };
    const budget = (await call(profileRoutes.fieldCreate, { name: '预算', type: 'number' }, admin())).data as {
      id: string;
    };
    await call(profileRoutes.valueSet, { customer_id: customers.wmAlice, field_id: city.id, value: '杭州' }, member());
    await call(profileRoutes.valueSet, { customer_id: customers.wmAlice, field_id: budget.id, value: '300' }, member());
    await call(profileRoutes.valueSet, { customer_id: customers.wmBob, field_id: budget.id, value: '80' }, member());
  });
  afterAll(async () => {
    await t.close();
    await wecom.close();
    await openai.close();
  });

  it('lets every member see templates and events, and only the creator and admins write or send them', async () => {
    const body = { name: '回访', mode: 'template', body: '{{customer_name}}，好久不见' };
    expect((await call(a.templateCreate, body, member())).code).toBe(40300);
    expect((await call(a.templateCreate, body, { ...team.as(team.stranger), 'scene-id': '5' })).code).toBe(16023);
    const saved = await template(body);
    expect((await call(a.templateList, {}, member())).data).toMatchObject({ items: [{ id: saved.id }] });
    // From their own team, the stranger finds nothing of this team's.
    const stranger = { ...team.as(team.stranger, team.strangerTeamId), 'scene-id': '5' };
    expect((await call(a.templateDelete, { id: saved.id }, stranger)).code).toBe(40400);
    expect((await call(a.templateList, {}, stranger)).data).toEqual({ items: [] });
    const audience = { customer_ids: [customers.wmAlice] };
    expect((await call(a.eventCreate, { name: 'x', template_id: saved.id, audience }, member())).code).toBe(40300);
    expect(
      (await call(a.preview, { mode: 'template', body: 'hi', customer_id: customers.wmAlice }, member())).code,
    ).toBe(40300);
    expect((await call(a.audienceCount, { audience }, member())).data).toEqual({
      count: 1,
      estimated: false,
      max: 20_000,
    });
    expect((await call(a.templateCreate, body, admin())).code).toBe(40842);
    expect((await call(a.templateCreate, { ...body, name: ' ' }, admin())).code).toBe(40840);
    expect((await call(a.templateDelete, { id: saved.id }, admin())).code).toBe(0);
  });

  it('refuses variables that are not fields, names them, and renders values with fallbacks', async () => {
    const refused = await call(
      a.templateCreate,
      { name: 'bad', mode: 'template', body: '{{城市}} {{城 市}} {{Level}}' },
      admin(),
    );
    expect(refused.code).toBe(40845);
    expect(refused.msg).toContain('{{城 市}}, {{Level}}');
    const preview = (customer: string, body: string) =>
      call(a.preview, { mode: 'template', body, customer_id: customers[customer] }, admin());
    expect((await preview('wmAlice', '{{customer_name}}，{{城市|您所在的城市}}的新品到了')).data).toEqual({
      text: 'Alice，杭州的新品到了',
    });
    expect((await preview('wmBob', '{{CUSTOMER_NAME}}，{{城市|您所在的城市}}的新品到了')).data).toEqual({
      text: 'Bob，您所在的城市的新品到了',
    });
    const empty = await preview('wmCarol', '预算 {{预算}} 元');
    expect(empty.code).toBe(40846);
    expect(empty.msg).toContain('{{预算}}');
  });

  it('sends once to each customer, fails one whose variable is empty, and finishes the event', async () => {
    const made = await template({
      name: '预算提醒',
      mode: 'template',
      body: '{{customer_name}}，预算 {{预算}} 元的方案到了',
    });
    const created = await event({ name: '三月回访', template_id: made.id, audience: { keyword: '' } });
    expect(created).toMatchObject({ status: 'scheduled', counts: { total: 3, pending: 3, sent: 0, failed: 0 } });
    await sender().runDue();
    const done = await getEvent(created.id);
    expect(done).toMatchObject({ status: 'done', counts: { total: 3, pending: 0, sent: 2, failed: 1 } });
    expect(byName(await sendsOf(created.id))).toEqual({
      Alice: { state: 'sent', reason: null },
      Bob: { state: 'sent', reason: null },
      Carol: { state: 'failed', reason: 'variable_empty: 预算' },
    });
    expect(sentTo('wmAlice').map((m) => (m.text as { content: string }).content)).toEqual([
      'Alice，预算 300 元的方案到了',
    ]);
    expect(sentTo('wmBob')).toHaveLength(1);
    expect(sentTo('wmCarol')).toHaveLength(0);
    // The customer's own list of sends (the drawer's section).
    const alice = await call(a.sendList, { customer_id: customers.wmAlice }, member());
    expect((alice.data as { items: ActivationSend[] }).items[0]).toMatchObject({
      event_name: '三月回访',
      state: 'sent',
    });
  });

  it('retries a transient WeCom failure after its backoff and fails a permanent one at once', async () => {
    const made = await template({ name: '重试', mode: 'template', body: '{{customer_name}}，周末有活动' });
    wecom.failSends(45009, 1);
    const created = await event({
      name: '重试活动',
      template_id: made.id,
      audience: { customer_ids: [customers.wmAlice] },
    });
    await sender().runDue();
    const [first] = await sendsOf(created.id);
    expect(first).toMatchObject({ state: 'pending', attempts: 1 });
    expect(first?.reason).toContain('45009');
    expect((await getEvent(created.id)).status).toBe('sending');
    await sender().runDue();
    expect((await sendsOf(created.id))[0]?.state).toBe('pending');
    clock += 61_000;
    await sender().runDue();
    expect((await sendsOf(created.id))[0]).toMatchObject({ state: 'sent', attempts: 2 });
    expect((await getEvent(created.id)).status).toBe('done');
  });

  it('fails every customer with the reason when the channel rejects every send, and sends nothing twice', async () => {
    const made = await template({ name: '拒绝', mode: 'template', body: '{{customer_name}}，新品上架' });
    const before = wecom.sent.length;
    wecom.failSends(95018);
    const created = await event({ name: '全部拒绝', template_id: made.id, audience: {} });
    await sender().runDue();
    wecom.failSends(null);
    const sends = await sendsOf(created.id);
    expect(sends.map((send) => send.state)).toEqual(['failed', 'failed', 'failed']);
    expect(
      sends.every((send) => send.reason?.startsWith('wecom_rejected: WeCom errcode 95018') && send.attempts === 1),
    ).toBe(true);
    expect(wecom.sent.length).toBe(before);
    expect((await getEvent(created.id)).counts).toMatchObject({ failed: 3, sent: 0 });
  });

  it("fails a customer outside WeCom's 48-hour window, and a scene without an outbound channel", async () => {
    await customerWrites('wmDave', 'Dave', 49);
    const made = await template({ name: '窗口', mode: 'template', body: '{{customer_name}}，您好' });
    const created = await event({
      name: '窗口外',
      template_id: made.id,
      audience: { customer_ids: [customers.wmDave] },
    });
    await sender().runDue();
    expect(byName(await sendsOf(created.id))).toEqual({ Dave: { state: 'failed', reason: 'window_closed' } });
    expect(sentTo('wmDave')).toHaveLength(0);

    // Scene 19 only ingests (docs/chat-ingest.md has no outbound path): nothing can be sent there.
    const endpoint = (await call(chatHistoryRoutes.ingestRotate, {}, inScene(team.creator, '19'))).data as {
      url: string;
      secret: string;
    };
    const raw = JSON.stringify({
      messages: [
        {
          msg_id: 'ingest-1',
          conversation: { id: 'conv-erin', chat_type: 'private' },
          customer: { id: 'erin', name: 'Erin' },
          send_type: 'user',
          kind: 11041,
          content: '在吗',
          sent_at: clock,
        },
      ],
    });
    expect((await sendIngest(t, endpoint, raw)).statusCode).toBe(200);
    const ingestTemplate = (
      await call(
        a.templateCreate,
        { name: '渠道', mode: 'template', body: '{{customer_name}}，您好' },
        inScene(team.admin, '19'),
      )
    ).data as ActivationTemplate;
    const ingestEvent = (
      await call(
        a.eventCreate,
        { name: '只收不发', template_id: ingestTemplate.id, audience: {} },
        inScene(team.admin, '19'),
      )
    ).data as ActivationEvent;
    await sender().runDue();
    const sends = (await call(a.sendList, { event_id: ingestEvent.id }, inScene(team.member, '19'))).data as {
      items: ActivationSend[];
    };
    expect(sends.items.map((send) => [send.customer_name, send.state, send.reason])).toEqual([
      ['Erin', 'failed', 'channel_cannot_send'],
    ]);
  });

  it('cancels a scheduled event: its sends fail as cancelled, nothing is sent, and it cannot be cancelled twice', async () => {
    const made = await template({ name: '取消', mode: 'template', body: '{{customer_name}}，明天见' });
    const before = wecom.sent.length;
    const later = await event({ name: '明天发', template_id: made.id, audience: {}, send_at: clock + HOUR });
    expect(later.status).toBe('scheduled');
    await sender().runDue();
    expect((await getEvent(later.id)).counts.pending).toBe(4);
    expect((await call(a.eventCancel, { id: later.id }, member())).code).toBe(40300);
    const cancelled = (await call(a.eventCancel, { id: later.id }, admin())).data as ActivationEvent;
    expect(cancelled).toMatchObject({ status: 'cancelled', counts: { pending: 0, failed: 4 } });
    expect((await sendsOf(later.id)).every((send) => send.reason === 'cancelled')).toBe(true);
    clock += 2 * HOUR;
    await sender().runDue();
    expect(wecom.sent.length).toBe(before);
    expect((await call(a.eventCancel, { id: later.id }, admin())).code).toBe(40851);
    expect(
      (
        await call(
          a.eventCreate,
          { name: 'x', template_id: made.id, audience: {}, send_at: clock + 100 * 24 * HOUR },
          admin(),
        )
      ).code,
    ).toBe(40849);
  });

  it('messages each customer exactly once across a sender that died mid-batch, two senders at once, and a lost outcome', async () => {
    // Fresh messages, so the window is open for everyone again.
    for (const [external, nickname] of [
      ['wmAlice', 'Alice'],
      ['wmBob', 'Bob'],
      ['wmCarol', 'Carol'],
    ]) {
      await customerWrites(external, nickname);
    }
    const made = await template({ name: '一次', mode: 'template', body: '{{customer_name}}，只发一次' });
    const ids = [customers.wmAlice, customers.wmBob, customers.wmCarol];
    const onceEach = () =>
      ['wmAlice', 'wmBob', 'wmCarol'].map(
        (external) =>
          sentTo(external).filter((m) => (m.text as { content: string }).content.endsWith('只发一次')).length,
      );

    // A sender claims the whole batch and dies before sending (its app is closed).
    const first = await event({ name: '重启', template_id: made.id, audience: { customer_ids: ids } });
    const other = await createTestApp({
      env: { WECOM_API_BASE: wecom.url },
      now: () => new Date(clock),
      sameDatabaseAs: { database: t.database, masterKey: t.masterKey },
    });
    expect(await other.app.modules.userProfile.activationSender.claim(first.id)).toHaveLength(3);
    await other.close();
    await sender().runDue();
    expect((await getEvent(first.id)).counts.pending).toBe(3);
    clock += 6 * 60_000;
    // Two senders at once, from two apps on one database, after the lease ran out.
    const again = await createTestApp({
      env: { WECOM_API_BASE: wecom.url },
      now: () => new Date(clock),
      sameDatabaseAs: { database: t.database, masterKey: t.masterKey },
    });
    await Promise.all([sender().runDue(), again.app.modules.userProfile.activationSender.runEvent(first.id)]);
    await again.close();
    expect((await getEvent(first.id)).counts).toMatchObject({ sent: 3, pending: 0 });
    expect(onceEach()).toEqual([1, 1, 1]);

    // WeCom took the messages but the outcome was never recorded (the process stopped right
    // after): the rows are pending again, and the retry finds the sent message by its msgid.
    await t.database.db.execute(
      sql`update activation_sends set state = 'pending', finished_at = null, leased_until = null where event_id = ${first.id}::uuid`,
    );
    await t.database.db.execute(
      sql`update activation_events set status = 'sending', finished_at = null where id = ${first.id}::uuid`,
    );
    await sender().runEvent(first.id);
    expect(onceEach()).toEqual([1, 1, 1]);
    expect((await getEvent(first.id)).counts.sent).toBe(3);
  });

  it('lets only the sender holding the lease finish a send, and fails what a dead sender of a cancelled event held', async () => {
    for (const [external, nickname] of [
      ['wmAlice', 'Alice'],
      ['wmBob', 'Bob'],
    ]) {
      await customerWrites(external, nickname);
    }
    const made = await template({ name: '租约', mode: 'template', body: '{{customer_name}}，租约' });
    const ids = [customers.wmAlice, customers.wmBob];
    const leased = (external: string) =>
      sentTo(external).filter((m) => (m.text as { content: string }).content.endsWith('租约')).length;
    const second = () =>
      createTestApp({
        env: { WECOM_API_BASE: wecom.url },
        now: () => new Date(clock),
        sameDatabaseAs: { database: t.database, masterKey: t.masterKey },
      });

    // A slow sender's lease runs out and another claims the rows: the slow one's outcome (say, a
    // reply it found still sending) changes nothing; the holder sends each message once.
    const slow = await event({ name: '慢', template_id: made.id, audience: { customer_ids: ids } });
    const other = await second();
    const stale = await other.app.modules.userProfile.activationSender.claim(slow.id);
    expect(stale).toHaveLength(2);
    clock += 6 * 60_000;
    expect(await sender().claim(slow.id)).toHaveLength(2);
    for (const row of stale) {
      await other.app.modules.userProfile.activationSender.finish(row, {
        state: 'failed',
        reason: 'send_unconfirmed',
        transient: false,
      });
    }
    expect((await getEvent(slow.id)).counts).toMatchObject({ pending: 2, failed: 0 });
    clock += 6 * 60_000;
    await sender().runDue();
    expect((await getEvent(slow.id)).counts).toMatchObject({ sent: 2, failed: 0 });
    expect([leased('wmAlice'), leased('wmBob')]).toEqual([1, 1]);

    // A sender claims, the event is cancelled (its held rows are left to it), and the sender dies:
    // the sweep fails them as cancelled once the lease has passed.
    const doomed = await event({ name: '作废', template_id: made.id, audience: { customer_ids: ids } });
    expect(await other.app.modules.userProfile.activationSender.claim(doomed.id)).toHaveLength(2);
    await other.close();
    expect((await call(a.eventCancel, { id: doomed.id }, admin())).data).toMatchObject({
      status: 'cancelled',
      counts: { pending: 2 },
    });
    await sender().runDue();
    expect((await getEvent(doomed.id)).counts.pending).toBe(2);
    clock += 6 * 60_000;
    await sender().runDue();
    expect((await getEvent(doomed.id)).counts).toMatchObject({ pending: 0, failed: 2 });
    expect((await sendsOf(doomed.id)).every((send) => send.reason === 'cancelled')).toBe(true);
    expect([leased('wmAlice'), leased('wmBob')]).toEqual([1, 1]);
  });

  it("has the scene's agent write each customer's message: sent as written, usage recorded, failures retried by rule, hostile answers cleaned or refused", async () => {
    const creator = inScene(team.creator);
    const key = { model_name: '通义', version: 'fake-chat', base_url: openai.url, api_key: 'sk-fake', purpose: 'chat' };
    expect((await call(modelKeyRoutes.create, key, creator)).code).toBe(0);
    const agent = (await call(agentRoutes.create, { name: '回访助手' }, creator)).data as { id: string };
    expect((await call(chatHistoryRoutes.replyUpdate, { mode: 'human', agent_id: agent.id }, creator)).code).toBe(0);
    for (const [external, nickname] of [
      ['wmAlice', 'Alice'],
      ['wmBob', 'Bob'],
      ['wmCarol', 'Carol'],
    ]) {
      await customerWrites(external, nickname);
    }
    const made = await template({ name: '智能回访', mode: 'agent', body: '邀请客户回来看看春季新品' });
    const usageBefore = (await usageRows()).length;
    const bobBefore = sentTo('wmBob').length;
    openai.requests.length = 0;
    // In the order the sender claims them (by customer id): Alice's is plain, Bob's is nothing but
    // control and invisible characters, Carol's is far too long and full of control characters.
    const plain = 'Alice，春季新品到了，欢迎回来看看！';
    openai.queueReplies(plain, '\u0000\u0007\u200b \u202e\r\n', '春季新品上架，欢迎您回来看看。\u0007'.repeat(100));
    const created = await event({
      name: '智能回访',
      template_id: made.id,
      audience: { customer_ids: [customers.wmAlice, customers.wmBob, customers.wmCarol] },
    });
    await sender().runDue();

    // What WeCom got is the model's text, and the event detail shows it per customer.
    expect(lastText('wmAlice')).toBe(plain);
    const sends = Object.fromEntries((await sendsOf(created.id)).map((send) => [send.customer_name, send]));
    expect(sends.Alice).toMatchObject({ state: 'sent', text: plain, attempts: 1 });
    const long = sends.Carol?.text ?? '';
    expect(sends.Carol?.state).toBe('sent');
    expect([...long]).toHaveLength(600);
    expect(long.endsWith('。')).toBe(true);
    expect([...long].some((char) => char.charCodeAt(0) < 0x20)).toBe(false);
    expect(Buffer.byteLength(long)).toBeLessThanOrEqual(2_048);
    expect(lastText('wmCarol')).toBe(long);
    // An answer that is empty once cleaned is not sent; it is retried like any model failure.
    expect(sends.Bob).toMatchObject({
      state: 'pending',
      reason: 'model_failed: empty_answer',
      attempts: 1,
      text: null,
    });
    // The agent was told the instruction, and given the customer's profile as data.
    const [first] = openai.requests.filter((request) => request.path === '/v1/chat/completions');
    const messages = (first?.body as { messages: { role: string; content: string }[] } | undefined)?.messages ?? [];
    expect(messages[0]?.content).toContain('邀请客户回来看看春季新品');
    expect(JSON.parse(messages[1]?.content ?? '{}')).toMatchObject({
      customer_name: 'Alice',
      城市: '杭州',
      预算: '300',
    });

    // The model down (HTTP 500): a second attempt after the backoff, then the third fails for good.
    openai.setMode('server_error');
    clock += 61_000;
    await sender().runDue();
    expect((await sendsOf(created.id)).find((send) => send.customer_name === 'Bob')).toMatchObject({
      state: 'pending',
      attempts: 2,
      reason: 'model_failed: server_error',
    });
    clock += 5 * 60_000 + 1_000;
    await sender().runDue();
    openai.setMode('normal');
    expect((await sendsOf(created.id)).find((send) => send.customer_name === 'Bob')).toMatchObject({
      state: 'failed',
      attempts: 3,
      reason: 'model_failed: server_error',
      text: null,
    });
    expect(await getEvent(created.id)).toMatchObject({ status: 'done', counts: { sent: 2, failed: 1, pending: 0 } });
    expect(sentTo('wmBob')).toHaveLength(bobBefore);

    // Every call is billed to the team as `profile.activate`, on the agent.
    const usage = (await usageRows()).slice(usageBefore);
    expect(usage.filter((row) => row.outcome === 'ok')).toHaveLength(3);
    expect(usage.length).toBeGreaterThanOrEqual(5);
    expect(usage.every((row) => row.spaceId === team.teamId && row.subjectKind === 'agent')).toBe(true);

    // A wrong key is not cured by waiting: failed at the first attempt. An answer with a
    // placeholder left in it is refused, never sent.
    openai.setMode('unauthorized');
    const denied = await event({
      name: '密钥错误',
      template_id: made.id,
      audience: { customer_ids: [customers.wmAlice] },
    });
    await sender().runDue();
    openai.setMode('normal');
    expect(await sendsOf(denied.id)).toMatchObject([{ state: 'failed', attempts: 1, reason: 'model_failed: auth' }]);
    openai.queueReplies('{{customer_name}}，您好');
    const refused = await call(a.preview, { mode: 'agent', body: '问候', customer_id: customers.wmAlice }, admin());
    expect(refused.code).toBe(40852);
    expect(refused.msg).toContain('placeholder_in_answer');
  });

  it('bounds the audience: none, unknown ids, and more customers than one event may reach', async () => {
    const made = await template({ name: '上限', mode: 'template', body: '{{customer_name}}，您好' });
    const create = (audience: Record<string, unknown>) =>
      call(a.eventCreate, { name: '上限', template_id: made.id, audience }, admin());
    expect((await create({ keyword: 'nobody-matches-this' })).code).toBe(40847);
    expect((await create({ customer_ids: ['999999999'] })).code).toBe(40400);
    // 20 001 customers, written straight into the scene (as many channels' imports would).
    await t.database.db.execute(sql`
      insert into chat_customers (space_id, scene_id, source_id, name)
      select ${team.teamId}::uuid, 5, 'bulk-' || n, 'Bulk ' || n from generate_series(1, 20001) n`);
    const count = (await call(a.audienceCount, { audience: {} }, member())).data as { count: number };
    expect(count.count).toBeGreaterThan(5_000);
    const refused = await create({});
    expect(refused.code).toBe(40848);
    expect(refused.msg).toContain('20000');
    expect(
      (await call(a.eventCreate, { name: '上限', template_id: made.id, audience: { keyword: 'Bulk 1999' } }, admin()))
        .code,
    ).toBe(0);
    // "Bulk 1…" matches 11 111 customers: more than the list counts exactly, so its count is an
    // estimate; the estimate decides nothing, the customers read do, and they fit.
    const estimated = (await call(a.audienceCount, { audience: { keyword: 'Bulk 1' } }, member())).data as {
      estimated: boolean;
    };
    expect(estimated.estimated).toBe(true);
    const fits = await event({ name: '上限', template_id: made.id, audience: { keyword: 'Bulk 1' } });
    expect(fits.counts.total).toBe(11_111);
    const list = (await call(a.eventList, {}, member())).data as { total: number };
    expect(list.total).toBe(12);
  });
});
