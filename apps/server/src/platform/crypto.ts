import { createCipheriv, createDecipheriv, createHmac, hash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** 256 random bits, URL-safe. */
export const newToken = () => randomBytes(32).toString('base64url');

// The one-shot hash: every signed-in call hashes its token, and on Node 20 createHash() costs ~4 µs
// more a call (a Hash object, and an option read for a pending deprecation).
export const sha256 = (value: string) => hash('sha256', value, 'hex');

export const hmac = (key: Buffer, value: string) => createHmac('sha256', key).update(value).digest('hex');

export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (value: string) => UUID_PATTERN.test(value);

/** Shows an API key's shape without revealing it: "sk-…wxyz"; short keys show nothing. */
export const maskApiKey = (key: string) => (key.length < 12 ? '****' : `${key.slice(0, 3)}…${key.slice(-4)}`);

/**
 * The master key protects secrets at rest and peppers code hashes. It comes from
 * ATHENA_MASTER_KEY (base64, 32 bytes) or is generated once into the data directory (mode 0600).
 */
export function loadMasterKey(opts: { envValue?: string; dataDir: string }): Buffer {
  if (opts.envValue) {
    const key = Buffer.from(opts.envValue, 'base64');
    if (key.length !== 32) throw new Error('ATHENA_MASTER_KEY must be 32 bytes, base64-encoded');
    return key;
  }
  if (opts.dataDir.startsWith('memory://')) return randomBytes(32);
  const file = path.join(opts.dataDir, 'master.key');
  if (!fs.existsSync(file)) {
    fs.mkdirSync(opts.dataDir, { recursive: true });
    fs.writeFileSync(file, randomBytes(32).toString('base64'), { mode: 0o600, flag: 'wx' });
  }
  return Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64');
}

const SECRET_VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

function requireAesKey(key: Buffer) {
  if (key.length !== 32) throw new Error('the encryption key must be 32 bytes');
}

/**
 * AES-256-GCM with a fresh 12-byte IV per call: `v1.` + base64url(iv ‖ tag ‖ ciphertext). The
 * version prefix lets a later format (or key rotation) coexist with rows already written.
 */
export function encryptSecret(key: Buffer, plaintext: string): string {
  requireAesKey(key);
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return `${SECRET_VERSION}.${Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64url')}`;
}

/** Reverses encryptSecret; throws when the value was altered or sealed with another key. */
export function decryptSecret(key: Buffer, sealed: string): string {
  requireAesKey(key);
  const [version, payload, extra] = sealed.split('.');
  if (version !== SECRET_VERSION || payload === undefined || extra !== undefined) {
    throw new Error('not an encrypted secret of a known version');
  }
  const bytes = Buffer.from(payload, 'base64url');
  if (bytes.length < IV_BYTES + TAG_BYTES) throw new Error('encrypted secret is truncated');
  const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, IV_BYTES));
  decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  try {
    return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
  } catch {
    // Node's message ("Unsupported state or unable to authenticate data") says nothing useful.
    throw new Error('encrypted secret failed authentication (wrong key or altered data)');
  }
}
