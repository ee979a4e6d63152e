import {
  agentRoutes,
  type ChatConversation,
  type ChatHistoryMessage,
  modelKeyRoutes,
  chatHistoryRoutes as r,
  teamRoutes,
} from '@athena/contract';
import { type FakeOpenAI, startFakeOpenAI } from '@athena/fake-openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wecomCrypt } from '../../platform/wecom/msg-crypt.ts';
import { type FakeWecomApi, startFakeWecomApi } from '../../testing/fake-wecom-api.ts';
import { createTestApp, type TestApp } from '../../testing/test-app.ts';
import { llmUsage } from '../model-key/model-key.schema.ts';

const TOKEN = 'ReplyToken1';
const AES_KEY = 'jWmYm7qr5nMoAUwZRjGtBxmz3KA1tkAj3ykkR6q2B2C';
const KF = 'wkReplies';

describe('chat replies: people, the agent and fixed scripts, through WeCom', () => {
  let wecom: FakeWecomApi;
  let openai: FakeOpenAI;
  let t: TestApp;
  let owner: string;
  let member: string;
  let space: string;
  let agentId: string;
  let callbackPath: string;
  let seq = 0;
  const as = (token: string) => ({ token, 'space-id': space, 'scene-id': '5' });
  const seconds = () => Math.floor(Date.now() / 1000);

  /** A customer writes; WeCom pushes; the pull and every automatic reply it causes finish. */
  async function customerWrites(content: string, customer = 'wmAlice') {
    seq += 1;
    wecom.receive({
      msgid: `in-${seq}`,
      open_kfid: KF,
      external_userid: customer,
      send_time: seconds(),
      origin: 3,
      msgtype: 'text',
      text: { content },
    } as never);
    await push();
  }
  async function push() {
    const timestamp = String(seconds());
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
    await t.app.modules.chatHistory.autoReply.idle();
  }
  async function conversationOf(customer: string) {
    const items = (await t.call(r.conversationList, {}, as(member))).body.data.items as ChatConversation[];
    const found = items.find((item) => item.customer?.name === customer || item.title === customer);
    if (!found) throw new Error(`no conversation with ${customer}`);
    return found;
  }
  const thread = async (conversationId: string) =>
    (await t.call(r.messageList, { conversation_id: conversationId }, as(member))).body.data
      .items as ChatHistoryMessage[];
  const setReply = (settings: Record<string, unknown>, token = owner) => t.call(r.replyUpdate, settings, as(token));

  beforeAll(async () => {
    wecom = await startFakeWecomApi();
    openai = await startFakeOpenAI({ tokenDelayMs: 0 });
    wecom.setCustomer({ external_userid: 'wmAlice', nickname: 'Alice' });
    wecom.setCustomer({ external_userid: 'wmBob', nickname: 'Bob' });
    t = await createTestApp({ env: { WECOM_API_BASE: wecom.url, ALLOW_PRIVATE_MODEL_ENDPOINTS: 'true' } });
    owner = await t.signInBySms('13300000001');
    member = await t.signInBySms('13300000002');
    space = (await t.call(teamRoutes.create, { name: '客服' }, { token: owner })).body.data.id;
    const invite = await t.call(teamRoutes.inviteCreate, {}, { token: owner, 'space-id': space });
    await t.call('/api/athena/v1/invite/accept', { code: invite.body.data.code }, { token: member });
    const key = { model_name: '通义', version: 'fake-chat', base_url: openai.url, api_key: 'sk-fake', purpose: 'chat' };
    expect((await t.call(modelKeyRoutes.create, key, as(owner))).body.code).toBe(0);
    agentId = (await t.call(agentRoutes.create, { name: '售后助手' }, as(owner))).body.data.id;
    const connected = await t.call(
      r.wecomConnect,
      { corpid: wecom.corpId, secret: wecom.secret, callback_token: TOKEN, encoding_aes_key: AES_KEY },
      as(owner),
    );
    callbackPath = new URL(connected.body.data.callback_url ?? '').pathname;
  });
  afterAll(async () => {
    await t.close();
    await wecom.close();
    await openai.close();
  });

  it('lets the creator and admins set how replies are made, with an agent of the team for the AI modes', async () => {
    expect((await setReply({ mode: 'ai_full', agent_id: agentId }, member)).body.code).toBe(40300);
    expect((await setReply({ mode: 'ai_full' })).body.code).toBe(40520);
    expect((await setReply({ mode: 'ai_full', agent_id: '00000000-0000-4000-8000-000000000000' })).body.code).toBe(
      40521,
    );
    expect(
      (await setReply({ mode: 'human', office_hours: { start: '9am', end: '18:00', days: [1], timezone: 'UTC' } })).body
        .code,
    ).toBe(40518);
    const saved = await setReply({ mode: 'human', agent_id: agentId, welcome_text: '您好，欢迎咨询！' });
    expect(saved.body.data).toMatchObject({ can_send: true, reply: { mode: 'human', agent_id: agentId } });
    expect((await t.call(r.settingsGet, {}, as(member))).body.data.reply.welcome_text).toBe('您好，欢迎咨询！');
  });

  it("sends a person's reply through WeCom with our msgid, once however often it is retried", async () => {
    await customerWrites('请问什么时候发货？');
    const conversation = await conversationOf('Alice');
    const body = { conversation_id: conversation.id, content: '今天下午发货', client_msg_id: 'client-msg-0001' };
    const sent = await t.call(r.messageSend, body, as(member));
    expect(sent.body.data).toMatchObject({ send_type: 'human', status: 'sent', content: '今天下午发货' });
    expect(sent.body.data.sender_name).not.toBe('');
    const again = await t.call(r.messageSend, body, as(member));
    expect(again.body.data.id).toBe(sent.body.data.id);
    expect(
      wecom.sent.filter((message) => (message.text as { content: string }).content === '今天下午发货'),
    ).toHaveLength(1);
    const last = wecom.sent.at(-1) as { msgid: string; touser: string; open_kfid: string };
    expect(last).toMatchObject({ touser: 'wmAlice', open_kfid: KF });
    expect(last.msgid).toMatch(/^[0-9a-zA-Z_-]{1,32}$/);

    // A refusal by WeCom stays on the message, and a msg_send_fail event later says the same.
    wecom.failNextSend(95018);
    const refused = await t.call(
      r.messageSend,
      { ...body, client_msg_id: 'client-msg-0002', content: '还在吗' },
      as(member),
    );
    expect(refused.body.data).toMatchObject({ status: 'failed' });
    expect(refused.body.data.fail_reason).toContain('95018');
  });

  it('keeps to WeCom’s limits: 5 messages after the customer’s last, none after 48 hours', async () => {
    const conversation = await conversationOf('Alice');
    // One sent above; three more make four; the fifth is allowed, the sixth is not.
    for (let i = 3; i <= 6; i++) {
      const res = await t.call(
        r.messageSend,
        { conversation_id: conversation.id, content: `第 ${i} 条`, client_msg_id: `client-msg-000${i}` },
        as(member),
      );
      expect(res.body.code).toBe(0);
    }
    const sixth = await t.call(
      r.messageSend,
      { conversation_id: conversation.id, content: '第 7 条', client_msg_id: 'client-msg-0007' },
      as(member),
    );
    expect(sixth.body.code).toBe(40524);

    wecom.receive({
      msgid: 'old-1',
      open_kfid: KF,
      external_userid: 'wmDave',
      send_time: seconds() - 49 * 3600,
      origin: 3,
      msgtype: 'text',
      text: { content: '两天前的问题' },
    } as never);
    await push();
    const dave = (await t.call(r.conversationList, { keyword: '两天前' }, as(member))).body.data
      .items[0] as ChatConversation;
    const late = await t.call(
      r.messageSend,
      { conversation_id: dave.id, content: '抱歉', client_msg_id: 'client-late-01' },
      as(member),
    );
    expect(late.body.code).toBe(40523);
  });

  it('drafts with the agent for a person to edit (AI assisted), and answers at a person’s request (AI manual)', async () => {
    await customerWrites('退货地址是哪里');
    const conversation = await conversationOf('Alice');
    const draft = await t.call(r.messageDraft, { conversation_id: conversation.id }, as(member));
    expect(draft.body.data).toEqual({ text: 'Echo: 退货地址是哪里', handover: false });
    const edited = await t.call(
      r.messageSend,
      {
        conversation_id: conversation.id,
        content: '退货地址：上海市',
        send_type: 'ai_assisted',
        client_msg_id: 'assisted-0001',
      },
      as(member),
    );
    expect(edited.body.data).toMatchObject({ send_type: 'ai_assisted', status: 'sent' });
    const manual = await t.call(r.messageAiReply, { conversation_id: conversation.id }, as(member));
    expect(manual.body.data).toMatchObject({
      send_type: 'ai_manual',
      sender_name: '售后助手',
      content: 'Echo: 退货地址是哪里',
    });
    // Every model call is recorded like any other.
    const usage = await t.database.db.select().from(llmUsage);
    expect(usage.filter((row) => row.source === 'chat.reply')).toHaveLength(2);
  });

  it('answers by itself in AI full mode, hands over when asked or unsure, and answers keywords with scripts', async () => {
    await setReply({
      mode: 'ai_full',
      agent_id: agentId,
      keyword_replies: [{ keywords: ['营业时间'], reply: '我们每天 9 点到 18 点营业。' }],
      handover_text: '正在为您转接人工客服。',
      welcome_text: '您好，欢迎咨询！',
    });
    await customerWrites('你好', 'wmBob');
    let bob = await conversationOf('Bob');
    expect((await thread(bob.id)).map((m) => [m.send_type, m.content])).toEqual([
      ['user', '你好'],
      ['ai_full', 'Echo: 你好'],
    ]);
    expect(bob.handler.state).toBe('ai');

    await customerWrites('你们的营业时间？', 'wmBob');
    expect((await thread(bob.id)).at(-1)).toMatchObject({ send_type: 'fixed', content: '我们每天 9 点到 18 点营业。' });

    // The agent would rather hand over: the conversation goes to the queue for a person.
    await customerWrites('[[HANDOVER]] 这个问题很复杂', 'wmBob');
    bob = await conversationOf('Bob');
    expect(bob.handler.state).toBe('waiting');
    expect(wecom.transfers.at(-1)).toMatchObject({ external_userid: 'wmBob', service_state: 2 });
    expect(wecom.serviceState(KF, 'wmBob')).toBe(2);
    // The notice went out before the queue, where WeCom no longer takes the API's messages.
    expect((await thread(bob.id)).at(-1)).toMatchObject({
      send_type: 'fixed',
      content: '正在为您转接人工客服。',
      status: 'sent',
    });
    // While it waits for a person, the AI stays quiet.
    const before = wecom.sent.length;
    await customerWrites('有人吗', 'wmBob');
    expect(wecom.sent.length).toBe(before);
  });

  it('greets a customer entering a session with the welcome, through the welcome code', async () => {
    wecom.receive({
      msgid: 'enter-1',
      open_kfid: KF,
      send_time: seconds(),
      origin: 4,
      msgtype: 'event',
      event: { event_type: 'enter_session', open_kfid: KF, external_userid: 'wmCarol', welcome_code: 'WELCOME1' },
    } as never);
    await push();
    expect(wecom.sent.at(-1)).toMatchObject({ code: 'WELCOME1', text: { content: '您好，欢迎咨询！' } });
    const items = (await t.call(r.conversationList, {}, as(member))).body.data.items as ChatConversation[];
    const carol = items.find((item) => item.last_message?.preview === '您好，欢迎咨询！');
    expect(carol?.last_message?.send_type).toBe('fixed');
  });

  it('refuses replies in a scene without a channel that can send', async () => {
    const ingest = { token: member, 'space-id': space, 'scene-id': '19' };
    const settings = await t.call(r.settingsGet, {}, ingest);
    expect(settings.body.data.can_send).toBe(false);
    const conversation = await conversationOf('Alice');
    const res = await t.call(
      r.messageSend,
      { conversation_id: conversation.id, content: 'x', client_msg_id: 'client-other' },
      ingest,
    );
    expect(res.body.code).toBe(40501);
  });
});
