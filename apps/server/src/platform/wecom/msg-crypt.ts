import { createCipheriv, createDecipheriv, createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * WeCom's callback encryption (WXBizMsgCrypt), which WeCom customer service (微信客服) uses for its
 * callback URL: the URL check (GET, an encrypted echostr to answer in plain text) and every push
 * (POST, an encrypted XML body).
 *
 * - Signature: SHA-1 of token, timestamp, nonce and the ciphertext, sorted and joined.
 * - Cipher: AES-256-CBC with the key `base64(EncodingAESKey + "=")` and its first 16 bytes as IV.
 * - Plaintext: 16 random bytes, the message's byte length (4 bytes, big-endian), the message, the
 *   receive id (the corp id), then PKCS#7 padding to a multiple of 32 bytes (not AES's 16).
 *
 * Checked against the vectors WeCom publishes with its sample code (msg-crypt.test.ts).
 */

export interface WecomCallbackKeys {
  token: string;
  /** 43 characters of base64, as WeCom shows it. */
  encodingAesKey: string;
  /** The corp id the messages are for; a message for another receiver is refused. */
  receiveId: string;
}

/** Why a callback was refused; none of them says more than this to the sender. */
export type WecomCryptFailure = 'signature' | 'ciphertext' | 'receive_id' | 'envelope' | 'timestamp';

export class WecomCryptError extends Error {
  constructor(readonly reason: WecomCryptFailure) {
    super(`WeCom callback refused: ${reason}`);
    this.name = 'WecomCryptError';
  }
}

/** The signed query of a callback: `?msg_signature=…&timestamp=…&nonce=…` (and `echostr` on GET). */
export interface CallbackQuery {
  msg_signature: string;
  timestamp: string;
  nonce: string;
}

const BLOCK = 32;
/** A callback's ciphertext is a few KB; this bounds the work a forged one can ask for. */
const MAX_CIPHERTEXT_CHARS = 1_000_000;

/** True when the key is what WeCom generates: 43 base64 characters decoding to 32 bytes. */
export function isEncodingAesKey(value: string): boolean {
  return /^[A-Za-z0-9+/]{43}$/.test(value) && Buffer.from(`${value}=`, 'base64').length === 32;
}

/**
 * A push is fresh when its timestamp (seconds) is within `maxAgeSeconds` of now, either way.
 * Replaying a fresh one is harmless for customer service: a push only says "pull new messages",
 * and pulling is idempotent.
 */
export function isFreshTimestamp(timestamp: string, now: Date, maxAgeSeconds = 300): boolean {
  if (!/^\d{1,12}$/.test(timestamp)) return false;
  return Math.abs(now.getTime() / 1000 - Number(timestamp)) <= maxAgeSeconds;
}

export function wecomCrypt(keys: WecomCallbackKeys) {
  if (!isEncodingAesKey(keys.encodingAesKey)) throw new Error('EncodingAESKey must be 43 base64 characters');
  const key = Buffer.from(`${keys.encodingAesKey}=`, 'base64');
  const iv = key.subarray(0, 16);

  const sign = (timestamp: string, nonce: string, ciphertext: string) =>
    createHash('sha1').update([keys.token, timestamp, nonce, ciphertext].sort().join('')).digest('hex');

  function checkSignature(query: CallbackQuery, ciphertext: string) {
    const expected = Buffer.from(sign(query.timestamp, query.nonce, ciphertext));
    const given = Buffer.from(query.msg_signature ?? '');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new WecomCryptError('signature');
  }

  function decrypt(ciphertext: string): string {
    if (ciphertext.length > MAX_CIPHERTEXT_CHARS || !/^[A-Za-z0-9+/]+={0,2}$/.test(ciphertext)) {
      throw new WecomCryptError('ciphertext');
    }
    const sealed = Buffer.from(ciphertext, 'base64');
    if (sealed.length < BLOCK || sealed.length % 16 !== 0) throw new WecomCryptError('ciphertext');
    let plain: Buffer;
    try {
      const decipher = createDecipheriv('aes-256-cbc', key, iv);
      decipher.setAutoPadding(false);
      plain = Buffer.concat([decipher.update(sealed), decipher.final()]);
    } catch {
      throw new WecomCryptError('ciphertext');
    }
    const pad = plain[plain.length - 1] ?? 0;
    if (pad < 1 || pad > BLOCK || plain.subarray(plain.length - pad).some((byte) => byte !== pad)) {
      throw new WecomCryptError('ciphertext');
    }
    const content = plain.subarray(16, plain.length - pad);
    if (content.length < 4) throw new WecomCryptError('ciphertext');
    const length = content.readUInt32BE(0);
    if (length > content.length - 4) throw new WecomCryptError('ciphertext');
    const receiveId = content.subarray(4 + length).toString('utf8');
    if (receiveId !== keys.receiveId) throw new WecomCryptError('receive_id');
    return content.subarray(4, 4 + length).toString('utf8');
  }

  return {
    sign,

    /** The URL check (GET): the echostr's plaintext, which is the whole answer. */
    openEcho(query: CallbackQuery & { echostr: string }): string {
      checkSignature(query, query.echostr ?? '');
      return decrypt(query.echostr);
    },

    /** A push (POST): the decrypted XML inside the body's <Encrypt> element. */
    openCallback(query: CallbackQuery, encrypted: string): string {
      checkSignature(query, encrypted);
      return decrypt(encrypted);
    },

    /** Encrypts and signs a message as WeCom does: for our fake WeCom server and the tests. */
    seal(message: string, timestamp: string, nonce: string, random: Buffer = randomBytes(16)) {
      const body = Buffer.from(message, 'utf8');
      const length = Buffer.alloc(4);
      length.writeUInt32BE(body.length, 0);
      const unpadded = Buffer.concat([random, length, body, Buffer.from(keys.receiveId, 'utf8')]);
      const pad = BLOCK - (unpadded.length % BLOCK);
      const cipher = createCipheriv('aes-256-cbc', key, iv);
      cipher.setAutoPadding(false);
      const sealed = Buffer.concat([cipher.update(Buffer.concat([unpadded, Buffer.alloc(pad, pad)])), cipher.final()]);
      const encrypt = sealed.toString('base64');
      return { encrypt, msg_signature: sign(timestamp, nonce, encrypt) };
    },
  };
}
export type WecomCrypt = ReturnType<typeof wecomCrypt>;
