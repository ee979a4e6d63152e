import { createHash, timingSafeEqual } from 'node:crypto';

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

// One child element: <Name>text</Name>, <Name><![CDATA[text]]></Name> or <Name/>.
const CHILD = /\s*<([A-Za-z_][\w.-]*)\s*(?:\/>|>(?:\s*<!\[CDATA\[([\s\S]*?)\]\]>\s*|([^<]*))<\/\1\s*>)/y;
// Applied to trimmed input so no two whitespace runs sit side by side (no quadratic backtracking).
const ENVELOPE = /^(?:<\?xml[^?]*\?>\s*)?<xml>([\s\S]*)<\/xml>$/;

function readFlatXml(xml: string): Map<string, string> | null {
  if (/<!DOCTYPE|<!ENTITY/i.test(xml)) return null;
  const body = ENVELOPE.exec(xml.trim())?.[1];
  if (body === undefined) return null;

  const fields = new Map<string, string>();
  const child = new RegExp(CHILD.source, CHILD.flags);
  let at = 0;
  while (body.slice(at).trim() !== '') {
    child.lastIndex = at;
    const match = child.exec(body);
    if (!match) return null;
    const [, name, cdata, text] = match;
    // A repeated element would let a crafted body pick which value we read.
    if (fields.has(name)) return null;
    fields.set(name, cdata ?? decodeEntities((text ?? '').trim()));
    at = child.lastIndex;
  }
  return fields;
}

const NAMED_ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, ref: string) => {
    if (ref[0] !== '#') return NAMED_ENTITIES[ref] ?? whole;
    const codePoint = ref[1] === 'x' || ref[1] === 'X' ? Number.parseInt(ref.slice(2), 16) : Number(ref.slice(1));
    return codePoint <= 0x10ffff ? String.fromCodePoint(codePoint) : whole;
  });
}
