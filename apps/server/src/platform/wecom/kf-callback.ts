import { readFlatXml } from '../flat-xml.ts';
import { type CallbackQuery, type WecomCrypt, WecomCryptError } from './msg-crypt.ts';

/** A push body is a few hundred bytes; anything past this is refused before it is parsed. */
export const MAX_CALLBACK_BODY_BYTES = 64 * 1024;

/**
 * WeCom customer service pushes only one thing: "there is something new for this account", with a
 * short-lived token that lets the next `kf/sync_msg` pull start right away. The messages themselves
 * are pulled, never pushed.
 */
export interface KfMsgOrEvent {
  corpId: string;
  openKfId: string;
  /** For `kf/sync_msg`'s `token`: pulls with it are not rate-limited as hard (valid 10 minutes). */
  syncToken: string;
  createTime: number;
}

/** The decrypted XML of a push body (`<xml><ToUserName/><Encrypt/><AgentID/></xml>`). */
export function openKfCallback(crypt: WecomCrypt, query: CallbackQuery, body: string): string {
  if (Buffer.byteLength(body, 'utf8') > MAX_CALLBACK_BODY_BYTES) throw new WecomCryptError('envelope');
  const encrypted = readFlatXml(body)?.get('Encrypt');
  if (!encrypted) throw new WecomCryptError('envelope');
  return crypt.openCallback(query, encrypted);
}

/**
 * Reads a decrypted push. Returns null for any other event or message (WeCom sends customer
 * service nothing else on this URL, but a push it does not announce must not break the loop).
 */
export function readKfMsgOrEvent(xml: string): KfMsgOrEvent | null {
  const fields = readFlatXml(xml);
  if (fields?.get('MsgType') !== 'event' || fields.get('Event') !== 'kf_msg_or_event') return null;
  const corpId = fields.get('ToUserName') ?? '';
  const openKfId = fields.get('OpenKfId') ?? '';
  const syncToken = fields.get('Token') ?? '';
  const createTime = Number(fields.get('CreateTime'));
  if (!corpId || !openKfId || !Number.isSafeInteger(createTime)) return null;
  return { corpId, openKfId, syncToken, createTime };
}
