import { chatHistoryRoutes as r } from '@athena/contract';
import { signWebhook } from '../../platform/http/webhook-signature.ts';
import { wecomCrypt } from '../../platform/wecom/msg-crypt.ts';
import type { FakeWecomApi } from '../../testing/fake-wecom-api.ts';
import type { TestApp } from '../../testing/test-app.ts';

// Shared by behaviour.test.ts and satisfaction.test.ts: a WeCom account connected to scene 5 of a
// team against the fake WeCom, pushes that start a pull, and WeCom's message and event shapes.

const TOKEN = 'QDG6eK';
const AES_KEY = 'jWmYm7qr5nMoAUwZRjGtBxmz3KA1tkAj3ykkR6q2B2C';
export const KF = 'wkBehaviourKf0000000000000000001';

export async function connectWecom(t: TestApp, wecom: FakeWecomApi, headers: Record<string, string>) {
  const body = { corpid: wecom.corpId, secret: wecom.secret, callback_token: TOKEN, encoding_aes_key: AES_KEY };
  const connected = await t.call(r.wecomConnect, body, { ...headers, 'scene-id': '5' });
  if (connected.body.code !== 0) throw new Error(`connect failed: ${connected.body.msg}`);
  const callbackPath = new URL(connected.body.data.callback_url ?? '').pathname;
  const crypt = wecomCrypt({ token: TOKEN, encodingAesKey: AES_KEY, receiveId: wecom.corpId });

  /** WeCom's `kf_msg_or_event` push; resolves when the pull (and its listeners) finished. */
  return async function push() {
    const timestamp = String(Math.floor(Date.now() / 1000));
    const inner = `<xml><ToUserName><![CDATA[${wecom.corpId}]]></ToUserName><CreateTime>${timestamp}</CreateTime><MsgType><![CDATA[event]]></MsgType><Event><![CDATA[kf_msg_or_event]]></Event><Token><![CDATA[sync-token]]></Token><OpenKfId><![CDATA[${KF}]]></OpenKfId></xml>`;
    const sealed = crypt.seal(inner, timestamp, 'nonce1');
    const response = await t.app.inject({
      method: 'POST',
      url: `${callbackPath}?msg_signature=${sealed.msg_signature}&timestamp=${timestamp}&nonce=nonce1`,
      headers: { 'content-type': 'text/xml' },
      payload: `<xml><ToUserName><![CDATA[${wecom.corpId}]]></ToUserName><Encrypt><![CDATA[${sealed.encrypt}]]></Encrypt><AgentID><![CDATA[]]></AgentID></xml>`,
    });
    await t.app.modules.chatHistory.puller.idle();
    if (response.statusCode !== 200) throw new Error(`push refused: ${response.body}`);
  };
}

const seconds = () => Math.floor(Date.now() / 1000);

export const kfText = (msgid: string, customer: string, content: string, menuId?: string) => ({
  msgid,
  open_kfid: KF,
  external_userid: customer,
  send_time: seconds(),
  origin: 3,
  msgtype: 'text',
  text: { content, ...(menuId ? { menu_id: menuId } : {}) },
});

export const kfEvent = (msgid: string, customer: string, body: Record<string, unknown>) => ({
  msgid,
  open_kfid: KF,
  send_time: seconds(),
  origin: 4,
  msgtype: 'event',
  event: { open_kfid: KF, external_userid: customer, ...body },
});

/** A session ended by the servicer (change_type 3) with the one-time code for the closing message. */
export const kfSessionEnd = (msgid: string, customer: string, msgCode: string) =>
  kfEvent(msgid, customer, {
    event_type: 'session_status_change',
    change_type: 3,
    old_servicer_userid: 'zhangsan',
    msg_code: msgCode,
  });

/** A signed POST to a scene's ingest URL (plus `suffix`), stamped `at` seconds. */
export function sendSigned(
  t: TestApp,
  endpoint: { url: string; secret: string },
  raw: string,
  opts: { suffix?: string; at?: number; secret?: string } = {},
) {
  const at = opts.at ?? seconds();
  return t.app.inject({
    method: 'POST',
    url: `${new URL(endpoint.url).pathname}${opts.suffix ?? ''}`,
    headers: {
      'content-type': 'application/json',
      'x-athena-signature': `t=${at},v1=${signWebhook(opts.secret ?? endpoint.secret, at, raw)}`,
    },
    payload: raw,
  });
}
