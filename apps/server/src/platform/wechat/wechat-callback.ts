import { createHash, timingSafeEqual } from 'node:crypto';
import { readFlatXml } from '../flat-xml.ts';

/**
 * Pure helpers for the official-account callback (plaintext mode). WeChat signs only the query
 * (token, timestamp, nonce), not the body, so callers should also bound the timestamp's age.
 */

export interface WechatSignatureInput {
  token: string;
  timestamp: string | undefined;
  nonce: string | undefined;
  signature: string | undefined;
}

export function verifyWechatSignature({ token, timestamp, nonce, signature }: WechatSignatureInput): boolean {
  if (!token || !timestamp || !nonce || !signature) return false;
  const expected = Buffer.from(createHash('sha1').update([token, timestamp, nonce].sort().join('')).digest('hex'));
  const given = Buffer.from(signature);
  // timingSafeEqual throws on unequal lengths; a wrong length is simply a wrong signature.
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export interface WechatScanEvent {
  openid: string;
  sceneStr: string;
  event: 'subscribe' | 'SCAN';
}

const SCENE_PREFIX = 'qrscene_';

/**
 * Reads a subscribe/SCAN event push. Returns null for anything else, including any document with
 * a DOCTYPE or ENTITY declaration (XXE) and any structure richer than a flat list of elements:
 * the events we accept are flat, so refusing the rest keeps the parser small and unambiguous.
 */
export function parseWechatScanEvent(xml: string): WechatScanEvent | null {
  const fields = readFlatXml(xml);
  if (!fields) return null;
  const openid = fields.get('FromUserName');
  const eventKey = fields.get('EventKey') ?? '';
  if (fields.get('MsgType') !== 'event' || !openid) return null;

  const event = fields.get('Event');
  if (event === 'subscribe') {
    // A plain follow (not through one of our QR codes) has no qrscene_ key.
    if (!eventKey.startsWith(SCENE_PREFIX) || eventKey.length === SCENE_PREFIX.length) return null;
    return { openid, sceneStr: eventKey.slice(SCENE_PREFIX.length), event };
  }
  if (event === 'SCAN') {
    return eventKey ? { openid, sceneStr: eventKey, event } : null;
  }
  return null;
}
