import {
  type ActivationTemplate,
  activationRoutes as a,
  BEHAVIOUR_PUSH_SUFFIX,
  chatHistoryRoutes as r,
  teamRoutes,
} from '@athena/contract';
import { and, count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../platform/db/sql.ts';
import { signWebhook } from '../../platform/http/webhook-signature.ts';
import { wecomCrypt } from '../../platform/wecom/msg-crypt.ts';
import { type FakeWecomApi, startFakeWecomApi } from '../../testing/fake-wecom-api.ts';
import { createTestApp, type TestApp } from '../../testing/test-app.ts';
import { activationEvents, activationSends } from '../user-profile/activation.schema.ts';
import { customerEvents } from '../user-profile/behaviour.schema.ts';
import { chatMessages } from './chat-history.schema.ts';
import { wecomAccounts } from './wecom-account.schema.ts';

const TOKEN = 'DissolveToken1';
const AES_KEY = 'jWmYm7qr5nMoAUwZRjGtBxmz3KA1tkAj3ykkR6q2B2C';
const KF = 'wkDissolvedTeam00000000000000001';
const CUSTOMER = 'wmDissolveCustomer';
const HOUR = 3_600_000;
const NAME = '将解散的团队';

/**
 * Everything of a team's chat history the outside can call stops when the team is dissolved:
 * the ingest URL (messages and behaviour events), the WeCom callback URL, and every background
 * job that would call WeCom with the team's stored secret (pulls, media downloads, activation
 * events). Each works before the dissolve (checked in `beforeAll`) and is refused after it.
 */
describe("a dissolved team's chat channels", () => {
  let wecom: FakeWecomApi;
  let t: TestApp;
  let owner: string;
  let space: string;
  let ingest: { url: string; secret: string };
  let callbackPath: string;
  let eventId: string;
  let clock = Date.now();
  let seq = 0;
  const seconds = () => String(Math.floor(clock / 1000));
  const as = (scene: string) => ({ token: owner, 'space-id': space, 'scene-id': scene });
  const crypt = () => wecomCrypt({ token: TOKEN, encodingAesKey: AES_KEY, receiveId: wecom.corpId });
  const calls = (path: string) => wecom.requests.filter((request) => request.path === path).length;

  /** A signed POST to the scene's ingest URL, as a channel sends it. */
  async function signed(body: unknown, suffix = '') {
    const raw = JSON.stringify(body);
    const response = await t.app.inject({
      method: 'POST',
      url: `${new URL(ingest.url).pathname}${suffix}`,
      headers: {
        'content-type': 'application/json',
        'x-athena-signature': `t=${seconds()},v1=${signWebhook(ingest.secret, Number(seconds()), raw)}`,
      },
      payload: raw,
    });
    return { status: response.statusCode, body: response.json() as Record<string, unknown> };
  }
  const message = () => {
    seq += 1;
    return {
      msg_id: `m-${seq}`,
      conversation: { id: 'conv-1' },
      customer: { id: 'cust-1', name: '王小明' },
      send_type: 'user',
      kind: 11041,
      content: `第 ${seq} 条`,
      sent_at: clock,
    };
  };
  const behaviourEvent = () => {
    seq += 1;
    return { event_id: `e-${seq}`, customer_id: 'cust-1', kind: 'purchase', name: '年卡', occurred_at: clock };
  };

  /** WeCom's `kf_msg_or_event` push, correctly signed; resolves once any pull it started ended. */
  async function push() {
    const timestamp = seconds();
    const inner = `<xml><ToUserName><![CDATA[${wecom.corpId}]]></ToUserName><CreateTime>${timestamp}</CreateTime><MsgType><![CDATA[event]]></MsgType><Event><![CDATA[kf_msg_or_event]]></Event><Token><![CDATA[sync-token]]></Token><OpenKfId><![CDATA[${KF}]]></OpenKfId></xml>`;
    const sealed = crypt().seal(inner, timestamp, 'nonce1');
    const response = await t.app.inject({
      method: 'POST',
      url: `${callbackPath}?msg_signature=${sealed.msg_signature}&timestamp=${timestamp}&nonce=nonce1`,
      headers: { 'content-type': 'text/xml' },
      payload: `<xml><ToUserName><![CDATA[${wecom.corpId}]]></ToUserName><Encrypt><![CDATA[${sealed.encrypt}]]></Encrypt><AgentID><![CDATA[]]></AgentID></xml>`,
    });
    await t.app.modules.chatHistory.puller.idle();
    return response;
  }
  /** WeCom's check of the callback URL, correctly signed. */
  async function urlCheck() {
    const timestamp = seconds();
    const sealed = crypt().seal('1616140317555161061', timestamp, 'n0');
    return t.app.inject({
      method: 'GET',
      url: `${callbackPath}?msg_signature=${sealed.msg_signature}&timestamp=${timestamp}&nonce=n0&echostr=${encodeURIComponent(sealed.encrypt)}`,
    });
  }
  const customerWrites = (content: string, extra: Record<string, unknown> = {}) => {
    seq += 1;
    wecom.receive({
      msgid: `w-${seq}`,
      open_kfid: KF,
      external_userid: CUSTOMER,
      send_time: Math.floor(clock / 1000),
      origin: 3,
      msgtype: 'text',
      text: { content },
      ...extra,
    } as never);
  };
  const messagesIn = async (scene: number) =>
    (
      await t.database.db
        .select({ n: count() })
        .from(chatMessages)
        .where(and(eq(chatMessages.spaceId, space), eq(chatMessages.sceneId, scene)))
    )[0].n;
  const behaviourEvents = async () =>
    (await t.database.db.select({ n: count() }).from(customerEvents).where(eq(customerEvents.spaceId, space)))[0].n;

  beforeAll(async () => {
    wecom = await startFakeWecomApi();
    wecom.setCustomer({ external_userid: CUSTOMER, nickname: '韩梅梅' });
    t = await createTestApp({ env: { WECOM_API_BASE: wecom.url }, now: () => new Date(clock) });
    owner = await t.signInBySms('13200009001');
    space = (await t.call(teamRoutes.create, { name: NAME }, { token: owner })).body.data.id;

    // Scene 10: the signed ingest URL takes messages and behaviour events.
    ingest = (await t.call(r.ingestRotate, {}, as('10'))).body.data;
    expect(await signed({ messages: [message()] })).toMatchObject({ status: 200, body: { stored: 1 } });
    expect(await signed({ events: [behaviourEvent()] }, BEHAVIOUR_PUSH_SUFFIX)).toMatchObject({
      status: 200,
      body: { stored: 1 },
    });

    // Scene 5: WeCom customer service, connected, checked and pulled from.
    const connected = await t.call(
      r.wecomConnect,
      { corpid: wecom.corpId, secret: wecom.secret, callback_token: TOKEN, encoding_aes_key: AES_KEY },
      as('5'),
    );
    expect(connected.body.code, connected.body.msg).toBe(0);
    callbackPath = new URL(connected.body.data.callback_url ?? '').pathname;
    expect((await urlCheck()).body).toBe('1616140317555161061');
    customerWrites('你好');
    customerWrites('', { msgtype: 'image', text: undefined, image: { media_id: 'MEDIA_NOT_YET' } });
    expect((await push()).body).toBe('success');
    await t.app.modules.chatHistory.media.idle();
    expect(await messagesIn(5)).toBe(2);
    // The image's download is still to be done (a crash, an outage): the sweep would take it up.
    await t.database.db.execute(
      sql`update chat_messages set media_state = 'pending', media_error = null,
        created_at = now() - interval '10 minutes'
        where space_id = ${space}::uuid and source_media_id = 'MEDIA_NOT_YET'`,
    );

    // An activation event for later, to message the scene's customers through WeCom.
    const template = (
      await t.call(a.templateCreate, { name: '回访', mode: 'template', body: '{{customer_name}}，好久不见' }, as('5'))
    ).body.data as ActivationTemplate;
    const event = await t.call(
      a.eventCreate,
      { name: '下周回访', template_id: template.id, audience: {}, send_at: clock + HOUR },
      as('5'),
    );
    expect(event.body.code, event.body.msg).toBe(0);
    eventId = event.body.data.id;

    const dissolved = await t.call(teamRoutes.dissolve, { confirm_name: NAME }, { token: owner, 'space-id': space });
    expect(dissolved.body.code, dissolved.body.msg).toBe(0);
  });
  afterAll(async () => {
    await t?.close();
    await wecom?.close();
  });

  it("answers a dissolved team's chat ingest hook 404 as a turned-off endpoint, and stores nothing", async () => {
    const before = await messagesIn(10);
    const refused = await signed({ messages: [message()] });
    expect(refused).toMatchObject({ status: 404, body: { code: 40505, key: 'CHAT_INGEST_NOT_FOUND' } });
    expect(await messagesIn(10)).toBe(before);
  });

  it("answers a dissolved team's behaviour ingest hook 404 as a turned-off endpoint, and stores nothing", async () => {
    const before = await behaviourEvents();
    const refused = await signed({ events: [behaviourEvent()] }, BEHAVIOUR_PUSH_SUFFIX);
    expect(refused).toMatchObject({ status: 404, body: { code: 40505, key: 'CHAT_INGEST_NOT_FOUND' } });
    expect(await behaviourEvents()).toBe(before);
  });

  it("answers a correctly signed push to a dissolved team's WeCom callback 404, and no sync_msg reaches WeCom", async () => {
    const pulls = calls('/cgi-bin/kf/sync_msg');
    customerWrites('还在吗');
    const refused = await push();
    expect(refused.statusCode).toBe(404);
    expect(refused.body).not.toBe('success');
    expect(calls('/cgi-bin/kf/sync_msg')).toBe(pulls);
    expect(await messagesIn(5)).toBe(2);
  });

  it("answers WeCom's URL check of a dissolved team's callback 404, without the echostr", async () => {
    const refused = await urlCheck();
    expect(refused.statusCode).toBe(404);
    expect(refused.body).not.toContain('1616140317555161061');
  });

  it("stops a pull of a dissolved team's account before it calls WeCom", async () => {
    // As a pull going round for a push that arrived just before the dissolve.
    const [account] = await t.database.db.select().from(wecomAccounts).where(eq(wecomAccounts.spaceId, space));
    const requests = wecom.requests.length;
    t.app.modules.chatHistory.puller.start(account, KF, 'sync-token');
    await t.app.modules.chatHistory.puller.idle();
    expect(wecom.requests.length).toBe(requests);
    expect(await messagesIn(5)).toBe(2);
    // The pull let go of the account's cursor: nothing is left held.
    const held = rowsOf(
      await t.database.db.execute(
        sql`select 1 from wecom_cursors where account_id = ${account.id}::uuid and lease_owner is not null`,
      ),
    );
    expect(held).toHaveLength(0);
  });

  it('downloads no media of a dissolved team in the sweep: WeCom is not called and the download fails', async () => {
    const requests = wecom.requests.length;
    await t.app.modules.chatHistory.media.sweep();
    expect(wecom.requests.length).toBe(requests);
    const [row] = await t.database.db
      .select({ state: chatMessages.mediaState })
      .from(chatMessages)
      .where(and(eq(chatMessages.spaceId, space), eq(chatMessages.sourceMediaId, 'MEDIA_NOT_YET')));
    expect(row.state).toBe('failed');
  });

  it("cancels a dissolved team's scheduled activation event when it comes due, and messages no customer", async () => {
    const requests = wecom.requests.length;
    clock += 2 * HOUR;
    await t.app.modules.userProfile.activationSender.runDue();
    expect(wecom.requests.length).toBe(requests);
    expect(wecom.sent).toHaveLength(0);
    const [event] = await t.database.db.select().from(activationEvents).where(eq(activationEvents.id, eventId));
    expect(event.status).toBe('cancelled');
    const sends = await t.database.db.select().from(activationSends).where(eq(activationSends.eventId, eventId));
    expect(sends.length).toBeGreaterThan(0);
    expect(sends.every((send) => send.state === 'failed' && send.reason === 'cancelled')).toBe(true);
  });
});
