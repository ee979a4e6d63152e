import {
  createCipheriv,
  createDecipheriv,
  createPublicKey,
  createSign,
  createVerify,
  type KeyObject,
  X509Certificate,
} from 'node:crypto';

/**
 * The cryptography of WeChat Pay API v3, on node:crypto only: SHA256-with-RSA (PKCS#1 v1.5)
 * request signatures and the Authorization header, the platform's signatures on answers and
 * notifications (by platform certificate or by WeChat Pay public key), and AEAD_AES_256_GCM for
 * the notification `resource`.
 */

export const WECHATPAY_SCHEMA = 'WECHATPAY2-SHA256-RSA2048';

/** Public-key ids look like this; anything else in Wechatpay-Serial is a certificate serial. */
export const PUBLIC_KEY_ID_PREFIX = 'PUB_KEY_ID_';

const GCM_TAG_BYTES = 16;

/** `METHOD\nPATH?QUERY\nTIMESTAMP\nNONCE\nBODY\n`: what the merchant signs for each request. */
export function requestSignatureMessage(
  method: string,
  pathWithQuery: string,
  timestamp: number | string,
  nonce: string,
  body: string,
): string {
  return `${method.toUpperCase()}\n${pathWithQuery}\n${timestamp}\n${nonce}\n${body}\n`;
}

/**
 * `TIMESTAMP\nNONCE\nBODY\n` over the body bytes exactly as they arrived: a re-serialised JSON
 * (other key order, escaped Chinese) would not be what WeChat Pay signed.
 */
export function answerSignatureMessage(timestamp: string, nonce: string, body: Buffer | string): Buffer {
  return Buffer.concat([Buffer.from(`${timestamp}\n${nonce}\n`), Buffer.from(body), Buffer.from('\n')]);
}

/** Base64 SHA256-with-RSA; PKCS#1 v1.5 padding is deterministic, so published vectors apply. */
export function signSha256WithRsa(message: Buffer | string, privateKey: KeyObject | string): string {
  return createSign('RSA-SHA256').update(message).sign(privateKey, 'base64');
}

export function verifySha256WithRsa(message: Buffer | string, signature: string, publicKey: KeyObject): boolean {
  try {
    return createVerify('RSA-SHA256').update(message).verify(publicKey, signature, 'base64');
  } catch {
    // A malformed signature (or WeChat's "WECHATPAY/SIGNTEST/" probe) is simply not valid.
    return false;
  }
}

export interface AuthorizationInput {
  mchId: string;
  /** Serial number of the merchant's API certificate. */
  serialNo: string;
  privateKey: KeyObject | string;
  method: string;
  pathWithQuery: string;
  body: string;
  /** Seconds since the epoch. */
  timestamp: number;
  nonce: string;
}

export function buildAuthorization(input: AuthorizationInput): string {
  const message = requestSignatureMessage(input.method, input.pathWithQuery, input.timestamp, input.nonce, input.body);
  const signature = signSha256WithRsa(message, input.privateKey);
  return (
    `${WECHATPAY_SCHEMA} mchid="${input.mchId}",nonce_str="${input.nonce}",signature="${signature}",` +
    `timestamp="${input.timestamp}",serial_no="${input.serialNo}"`
  );
}

/** The serial as WeChat Pay writes it in Wechatpay-Serial: upper-case hex, no separators. */
export function certificateSerial(certificate: X509Certificate | string): string {
  const cert = typeof certificate === 'string' ? new X509Certificate(certificate) : certificate;
  return cert.serialNumber.replace(/:/g, '').toUpperCase();
}

export interface PlatformKey {
  serial: string;
  kind: 'public_key' | 'certificate';
  key: KeyObject;
}

/**
 * One trusted key from configuration: a WeChat Pay public key (by its PUB_KEY_ID_…) or a platform
 * certificate (by its serial). A certificate filed under another serial is a configuration mistake
 * that would otherwise surface only as every notification failing, so it throws here.
 */
export function loadPlatformKey(serial: string, material: KeyObject | string): PlatformKey {
  const kind = serial.startsWith(PUBLIC_KEY_ID_PREFIX) ? 'public_key' : 'certificate';
  if (typeof material !== 'string') {
    if (material.type !== 'public') throw new Error(`WeChat Pay key ${serial} must be a public key`);
    return { serial, kind, key: material };
  }
  if (material.includes('-----BEGIN CERTIFICATE-----')) {
    const cert = new X509Certificate(material);
    const actual = certificateSerial(cert);
    if (actual !== serial.toUpperCase()) {
      throw new Error(`WeChat Pay certificate filed under ${serial} has serial ${actual}`);
    }
    return { serial: actual, kind: 'certificate', key: cert.publicKey };
  }
  return { serial, kind, key: createPublicKey(material) };
}

export function loadPlatformKeys(entries: Iterable<[string, KeyObject | string]>): Map<string, KeyObject> {
  const keys = new Map<string, KeyObject>();
  for (const [serial, material] of entries) {
    const loaded = loadPlatformKey(serial, material);
    keys.set(loaded.serial, loaded.key);
  }
  return keys;
}

/** The four Wechatpay-* headers of an answer or a notification. */
export interface WechatpaySignatureHeaders {
  timestamp?: string;
  nonce?: string;
  signature?: string;
  serial?: string;
}

export type SignatureCheck = 'ok' | 'unknown_serial' | 'bad_signature';

export function checkWechatpaySignature(
  headers: WechatpaySignatureHeaders,
  rawBody: Buffer,
  keys: ReadonlyMap<string, KeyObject>,
): SignatureCheck {
  const key = headers.serial ? keys.get(headers.serial) : undefined;
  if (!key) return 'unknown_serial';
  const { timestamp, nonce, signature } = headers;
  if (!timestamp || !nonce || !signature) return 'bad_signature';
  return verifySha256WithRsa(answerSignatureMessage(timestamp, nonce, rawBody), signature, key)
    ? 'ok'
    : 'bad_signature';
}

/** The APIv3 key is 32 ASCII characters used as the AES-256 key bytes. */
export function apiV3KeyBytes(apiV3Key: string | Buffer): Buffer {
  const key = typeof apiV3Key === 'string' ? Buffer.from(apiV3Key, 'utf8') : apiV3Key;
  if (key.length !== 32) throw new Error(`the WeChat Pay APIv3 key must be 32 bytes, got ${key.length}`);
  return key;
}

export interface EncryptedResource {
  /** Base64 of ciphertext || 16-byte tag. */
  ciphertext: string;
  nonce: string;
  associated_data?: string;
}

/** Opens a notification `resource`; throws when the key, nonce, data or tag do not match. */
export function decryptResource(resource: EncryptedResource, apiV3Key: string | Buffer): string {
  const sealed = Buffer.from(resource.ciphertext, 'base64');
  if (sealed.length < GCM_TAG_BYTES) throw new Error('ciphertext shorter than the GCM tag');
  const decipher = createDecipheriv('aes-256-gcm', apiV3KeyBytes(apiV3Key), Buffer.from(resource.nonce, 'utf8'), {
    authTagLength: GCM_TAG_BYTES,
  });
  decipher.setAAD(Buffer.from(resource.associated_data ?? '', 'utf8'));
  decipher.setAuthTag(sealed.subarray(sealed.length - GCM_TAG_BYTES));
  const plain = Buffer.concat([decipher.update(sealed.subarray(0, sealed.length - GCM_TAG_BYTES)), decipher.final()]);
  return plain.toString('utf8');
}

/** The sealing side, as WeChat Pay does it: base64(ciphertext || tag). */
export function encryptResource(
  plaintext: string,
  apiV3Key: string | Buffer,
  nonce: string,
  associatedData: string,
): string {
  const cipher = createCipheriv('aes-256-gcm', apiV3KeyBytes(apiV3Key), Buffer.from(nonce, 'utf8'), {
    authTagLength: GCM_TAG_BYTES,
  });
  cipher.setAAD(Buffer.from(associatedData, 'utf8'));
  const sealed = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]);
  return sealed.toString('base64');
}
