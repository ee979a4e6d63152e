import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { type ChatConversation, type ChatHistoryMessage, chatHistoryRoutes as r, teamRoutes } from '@athena/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wecomCrypt } from '../../platform/wecom/msg-crypt.ts';
import { type FakeWecomApi, startFakeWecomApi } from '../../testing/fake-wecom-api.ts';
import { createTestApp, type TestApp } from '../../testing/test-app.ts';
import { makePng } from '../custom-business/test-files.ts';

const AMR_SAMPLE = createRequire(import.meta.url).resolve('benz-amr-recorder/res/mario.amr');

const TOKEN = 'QDG6eK';
const AES_KEY = 'jWmYm7qr5nMoAUwZRjGtBxmz3KA1tkAj3ykkR6q2B2C';
const KF = 'wkAJ2GCAAAZSfhHCt7IFSvLKtMPxyJTw';

describe('chat history from WeCom customer service, against a fake WeCom', () => {
  let wecom: FakeWecomApi;
  let t: TestApp;
  let owner: string;
  let member: string;
  let space: string;
  let callbackPath: string;
  const as = (token: string, scene = '5') => ({ token, 'space-id': space, 'scene-id': scene });
  const connectBody = (overrides: Record<string, string> = {}) => ({
    corpid: wecom.corpId,
    secret: wecom.secret,
    callback_token: TOKEN,
    encoding_aes_key: AES_KEY,
    ...overrides,
  });
  const crypt = () => wecomCrypt({ token: TOKEN, encodingAesKey: AES_KEY, receiveId: wecom.corpId });
  const seconds = () => String(Math.floor(Date.now() / 1000));

  /** Pushes `kf_msg_or_event` for the account as WeCom does, and waits for the pull it starts. */
  async function push(opts: { timestamp?: string; tamper?: boolean } = {}) {
    const timestamp = opts.timestamp ?? seconds();
    const inner = `<xml><ToUserName><![CDATA[${wecom.corpId}]]></ToUserName><CreateTime>${timestamp}</CreateTime><MsgType><![CDATA[event]]></MsgType><Event><![CDATA[kf_msg_or_event]]></Event><Token><![CDATA[sync-token]]></Token><OpenKfId><![CDATA[${KF}]]></OpenKfId></xml>`;
    const sealed = crypt().seal(inner, timestamp, 'nonce1');
    const signature = opts.tamper
      ? sealed.msg_signature.replace(/^./, (c) => (c === 'a' ? 'b' : 'a'))
      : sealed.msg_signature;
    const response = await t.app.inject({
      method: 'POST',
      url: `${callbackPath}?msg_signature=${signature}&timestamp=${timestamp}&nonce=nonce1`,
      headers: { 'content-type': 'text/xml' },
      payload: `<xml><ToUserName><![CDATA[${wecom.corpId}]]></ToUserName><Encrypt><![CDATA[${sealed.encrypt}]]></Encrypt><AgentID><![CDATA[]]></AgentID></xml>`,
    });
    await t.app.modules.chatHistory.puller.idle();
    return response;
  }
  const text = (msgid: string, content: string, at: number, origin = 3) => ({
    msgid,
    open_kfid: KF,
    external_userid: 'wmCustomer1',
    send_time: at,
    origin,
    ...(origin === 5 ? { servicer_userid: 'zhangsan' } : {}),
    msgtype: 'text',
    text: { content },
  });
  const event = (msgid: string, body: Record<string, unknown>) => ({
    msgid,
    open_kfid: KF,
    send_time: Math.floor(Date.now() / 1000),
    origin: 4,
    msgtype: 'event',
    event: { open_kfid: KF, external_userid: 'wmCustomer1', ...body },
  });

  beforeAll(async () => {
    wecom = await startFakeWecomApi();
    wecom.setCustomer({ external_userid: 'wmCustomer1', nickname: '李雷' });
    t = await createTestApp({ env: { WECOM_API_BASE: wecom.url } });
    owner = await t.signInBySms('13200000001');
    member = await t.signInBySms('13200000002');
    space = (await t.call(teamRoutes.create, { name: '企微客服' }, { token: owner })).body.data.id;
    const invite = await t.call(teamRoutes.inviteCreate, {}, { token: owner, 'space-id': space });
    await t.call('/api/athena/v1/invite/accept', { code: invite.body.data.code }, { token: member });
  });
  afterAll(async () => {
    await t.close();
    await wecom.close();
  });

  it('connects an account only with credentials WeCom accepts, for the creator and admins, in a WeCom scene', async () => {
    expect((await t.call(r.wecomConnect, connectBody(), as(member))).body.code).toBe(40300);
    expect((await t.call(r.wecomConnect, connectBody(), as(owner, '19'))).body.code).toBe(40511);
    expect((await t.call(r.wecomConnect, connectBody({ encoding_aes_key: 'short' }), as(owner))).body.code).toBe(40515);
    expect((await t.call(r.wecomConnect, connectBody({ callback_token: 'has space' }), as(owner))).body.code).toBe(
      40514,
    );
    const refused = await t.call(r.wecomConnect, connectBody({ secret: 'wrong-secret-123' }), as(owner));
    expect(refused.body).toMatchObject({ code: 40516 });
    expect(refused.body.msg).toContain('errcode');

    const connected = await t.call(r.wecomConnect, connectBody(), as(owner));
    expect(connected.body.data).toMatchObject({ connected: true, corp_id: wecom.corpId, verified_at: null });
    callbackPath = new URL(connected.body.data.callback_url ?? '').pathname;
    expect(callbackPath).toMatch(/^\/hooks\/wecom\/[A-Za-z0-9_-]{32}$/);
    const seen = await t.call(r.wecomGet, {}, as(member));
    expect(seen.body.data.connected).toBe(true);
    expect(JSON.stringify(seen.body)).not.toContain(wecom.secret);
    expect(JSON.stringify(seen.body)).not.toContain(AES_KEY);
  });

  it("answers WeCom's URL check with the echostr, and marks the connection verified", async () => {
    const timestamp = seconds();
    const sealed = crypt().seal('1616140317555161061', timestamp, 'n0');
    const url = (signature: string) =>
      `${callbackPath}?msg_signature=${signature}&timestamp=${timestamp}&nonce=n0&echostr=${encodeURIComponent(sealed.encrypt)}`;
    const forged = await t.app.inject({ method: 'GET', url: url('0'.repeat(40)) });
    expect(forged.statusCode).toBe(403);
    const answer = await t.app.inject({ method: 'GET', url: url(sealed.msg_signature) });
    expect(answer.statusCode).toBe(200);
    expect(answer.body).toBe('1616140317555161061');
    expect((await t.call(r.wecomGet, {}, as(member))).body.data.verified_at).not.toBeNull();
    expect((await t.app.inject({ method: 'GET', url: '/hooks/wecom/unknown' })).statusCode).toBe(404);
  });

  it('pulls what a push announces, names the customer and the channel, and stores each message once', async () => {
    const at = Math.floor(Date.now() / 1000) - 60;
    wecom.setPageSize(2);
    // The account's name as WeCom's account list gives it: the channel column shows it, not the id.
    wecom.setAccount({ open_kfid: KF, name: '售后客服' });
    wecom.receive(
      text('w1', '你好，快递到哪了？', at),
      text('w2', '订单号 123', at + 1),
      text('w3', '您好，已查到', at + 2, 5),
    );
    const answer = await push();
    expect(answer.statusCode).toBe(200);
    expect(answer.body).toBe('success');

    const list = (await t.call(r.conversationList, {}, as(member))).body.data.items as ChatConversation[];
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({
      title: '李雷',
      channel: { id: KF, name: '售后客服' },
      message_count: 3,
      unread: 2,
    });
    // The same push again (WeCom retries) and a push with nothing new: nothing is doubled.
    await push();
    await push();
    const again = (await t.call(r.conversationList, {}, as(member))).body.data.items as ChatConversation[];
    expect(again[0].message_count).toBe(3);
    const thread = await t.call(r.messageList, { conversation_id: list[0].id }, as(member));
    expect(thread.body.data.items.map((m: ChatHistoryMessage) => [m.send_type, m.source_kind, m.sender_name])).toEqual([
      ['user', 'wecom:text', ''],
      ['user', 'wecom:text', ''],
      ['human', 'wecom:text', 'zhangsan'],
    ]);
    expect((await t.call(r.conversationList, { keyword: '快递' }, as(member))).body.data.items).toHaveLength(1);
  });

  it('applies recalls, failed sends and session changes that WeCom reports as events', async () => {
    wecom.receive(
      event('e1', { event_type: 'user_recall_msg', recall_msgid: 'w1' }),
      event('e2', { event_type: 'msg_send_fail', fail_msgid: 'w3', fail_type: 11 }),
      event('e3', { event_type: 'session_status_change', change_type: 1, new_servicer_userid: 'lisi' }),
    );
    await push();
    const [conversation] = (await t.call(r.conversationList, {}, as(member))).body.data.items as ChatConversation[];
    expect(conversation.handler).toEqual({ state: 'human', servicer: 'lisi' });
    const items = (await t.call(r.messageList, { conversation_id: conversation.id }, as(member))).body.data
      .items as ChatHistoryMessage[];
    expect(items[0].recalled).toBe(true);
    expect(items[2]).toMatchObject({ status: 'failed', fail_reason: 'WeCom fail_type 11' });
  });

  it("copies a message's media into storage and serves it by signed URL; media it cannot get is marked failed", async () => {
    const png = makePng();
    // Declared as a JPEG: what the bytes are decides what the browser is told.
    wecom.addMedia('MEDIA_IMG', { bytes: png, contentType: 'image/jpeg', fileName: 'photo.jpg' });
    wecom.addMedia('MEDIA_HUGE', { bytes: Buffer.alloc(26 * 1024 * 1024), contentType: 'application/octet-stream' });
    // A real AMR-NB recording (89 s, from the decoder's package): stored as WAV, which browsers play.
    wecom.addMedia('MEDIA_VOICE', { bytes: readFileSync(AMR_SAMPLE), contentType: 'voice/amr' });
    // Says it is AMR, but holds no frame to decode: kept as it came, a download.
    const brokenAmr = Buffer.from('#!AMR\n');
    wecom.addMedia('MEDIA_BAD_VOICE', { bytes: brokenAmr, contentType: 'voice/amr' });
    const at = Math.floor(Date.now() / 1000);
    const media = (msgid: string, msgtype: string, mediaId: string) => ({
      msgid,
      open_kfid: KF,
      external_userid: 'wmCustomer1',
      send_time: at,
      origin: 3,
      msgtype,
      [msgtype]: { media_id: mediaId },
    });
    wecom.receive(
      media('voice1', 'voice', 'MEDIA_VOICE'),
      media('voice2', 'voice', 'MEDIA_BAD_VOICE'),
      media('img1', 'image', 'MEDIA_IMG'),
      media('file1', 'file', 'MEDIA_HUGE'),
      media('img2', 'image', 'GONE'),
    );
    await push();
    await t.app.modules.chatHistory.media.idle();
    const [conversation] = (await t.call(r.conversationList, {}, as(member))).body.data.items as ChatConversation[];
    const items = (await t.call(r.messageList, { conversation_id: conversation.id }, as(member))).body.data
      .items as ChatHistoryMessage[];
    const [voice, badVoice, image, huge, gone] = items.slice(-5);
    expect(voice).toMatchObject({ display_type: 'audio', media_state: 'stored', payload: { duration_s: 89 } });
    const wav = await t.app.inject({ method: 'GET', url: voice.media_url ?? '' });
    expect(wav.headers['content-type']).toBe('audio/wav');
    expect(wav.headers['content-disposition']).toBe('inline');
    // RIFF/WAVE, 16-bit PCM at 8 kHz: 89 s of samples.
    expect(wav.rawPayload.subarray(0, 4).toString('latin1')).toBe('RIFF');
    expect(wav.rawPayload.readUInt32LE(24)).toBe(8_000);
    expect(Math.round(wav.rawPayload.readUInt32LE(40) / 16_000)).toBe(89);
    expect(badVoice).toMatchObject({ display_type: 'audio', media_state: 'stored' });
    const kept = await t.app.inject({ method: 'GET', url: badVoice.media_url ?? '' });
    expect(kept.headers['content-type']).toBe('audio/amr');
    expect(kept.rawPayload.equals(brokenAmr)).toBe(true);
    expect(image).toMatchObject({ display_type: 'image', media_state: 'stored', payload: { file_size: png.length } });
    expect(huge).toMatchObject({ display_type: 'raw_file', media_state: 'failed' });
    expect(huge.media_error).toContain('larger than');
    expect(gone).toMatchObject({ media_state: 'failed' });

    const served = await t.app.inject({ method: 'GET', url: image.media_url ?? '' });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['content-disposition']).toBe('inline');
    expect(served.rawPayload.equals(png)).toBe(true);
    // One hex digit of the signature changed (to another digit, whatever it was).
    const forged = (image.media_url ?? '').replace(/sig=(.)/, (_, digit: string) => `sig=${digit === '0' ? '1' : '0'}`);
    expect((await t.app.inject({ method: 'GET', url: forged })).statusCode).toBe(404);
    const otherMessage = (image.media_url ?? '').replace(`/${image.id}?`, `/${huge.id}?`);
    expect((await t.app.inject({ method: 'GET', url: otherMessage })).statusCode).toBe(404);
  });

  it('refuses forged and stale pushes alike, and records a pull that WeCom refuses', async () => {
    expect((await push({ tamper: true })).statusCode).toBe(403);
    expect((await push({ timestamp: String(Math.floor(Date.now() / 1000) - 3600) })).statusCode).toBe(403);
    const tooBig = await t.app.inject({
      method: 'POST',
      url: `${callbackPath}?msg_signature=x&timestamp=${seconds()}&nonce=n`,
      headers: { 'content-type': 'text/xml' },
      payload: `<xml>${'a'.repeat(70_000)}</xml>`,
    });
    expect(tooBig.statusCode).toBe(413);
    const entity = await t.app.inject({
      method: 'POST',
      url: `${callbackPath}?msg_signature=x&timestamp=${seconds()}&nonce=n`,
      headers: { 'content-type': 'text/xml' },
      payload: '<!DOCTYPE xml [<!ENTITY a "aaaa">]><xml><Encrypt>&a;</Encrypt></xml>',
    });
    expect(entity.statusCode).toBe(403);

    wecom.expireToken();
    wecom.receive(text('w4', '还在吗', Math.floor(Date.now() / 1000)));
    await push();
    // An expired access token is replaced once and the pull goes on.
    const [conversation] = (await t.call(r.conversationList, {}, as(member))).body.data.items as ChatConversation[];
    expect(conversation.message_count).toBe(9);
    expect((await t.call(r.wecomGet, {}, as(member))).body.data).toMatchObject({ last_error: null });
  });
});
