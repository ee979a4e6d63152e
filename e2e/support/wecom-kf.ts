import { expect, inject } from 'vitest';
import { wecomCrypt } from '../../apps/server/src/platform/wecom/msg-crypt.ts';

/** The fake WeCom the product was started against (global-setup), shared by the whole suite. */
export const wecomApi = () => inject('wecomApi');

/** The EncodingAESKey every spec pastes next to its callback URL (each has its own token and account). */
export const WECOM_AES_KEY = 'jWmYm7qr5nMoAUwZRjGtBxmz3KA1tkAj3ykkR6q2B2C';

/** Unix seconds, as WeCom times things. */
export const wecomSeconds = () => Math.floor(Date.now() / 1000);

/**
 * Drives the fake WeCom through its /__control/ endpoints (what WeCom would hold or answer). The
 * fake is shared by every spec: nothing here changes what it answers anyone else. A refused send
 * comes from the spec's own customer's session (a servicer has it), as in WeCom.
 */
export async function controlWecom(path: 'receive' | 'customer' | 'account' | 'media', body: unknown): Promise<void> {
  const res = await fetch(`${wecomApi().url}/__control/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(await res.json()).toMatchObject({ errcode: 0 });
}

/** Waits for the product's background work, such as a WeCom pull (expect.poll is for tests, not their set-up). */
export async function until(done: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > end) throw new Error('timed out waiting for the product');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** A spec's own WeCom customer-service account: the token its admin makes up, and its open_kfid. */
export function wecomKfAccount(account: { callbackToken: string; openKfId: string }) {
  const crypt = () =>
    wecomCrypt({ token: account.callbackToken, encodingAesKey: WECOM_AES_KEY, receiveId: wecomApi().corpId });
  return {
    crypt,
    /** What the admin pastes from WeCom's console (chatHistoryRoutes.wecomConnect's body). */
    credentials: () => ({
      corpid: wecomApi().corpId,
      secret: wecomApi().secret,
      callback_token: account.callbackToken,
      encoding_aes_key: WECOM_AES_KEY,
    }),
    /** WeCom announcing new messages of the account (`kf_msg_or_event`): the product then pulls them. */
    async announce(callbackUrl: string) {
      const timestamp = String(wecomSeconds());
      const corpId = wecomApi().corpId;
      const inner = `<xml><ToUserName><![CDATA[${corpId}]]></ToUserName><CreateTime>${timestamp}</CreateTime><MsgType><![CDATA[event]]></MsgType><Event><![CDATA[kf_msg_or_event]]></Event><Token><![CDATA[sync-token]]></Token><OpenKfId><![CDATA[${account.openKfId}]]></OpenKfId></xml>`;
      const sealed = crypt().seal(inner, timestamp, 'push');
      const query = new URLSearchParams({ msg_signature: sealed.msg_signature, timestamp, nonce: 'push' });
      const res = await fetch(`${callbackUrl}?${query}`, {
        method: 'POST',
        headers: { 'content-type': 'text/xml' },
        body: `<xml><ToUserName><![CDATA[${corpId}]]></ToUserName><Encrypt><![CDATA[${sealed.encrypt}]]></Encrypt><AgentID><![CDATA[]]></AgentID></xml>`,
      });
      expect(res.status).toBe(200);
      expect(await res.text()).toBe('success');
    },
  };
}
