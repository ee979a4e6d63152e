import { createHash, createHmac, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** 256 random bits, URL-safe. */
export const newToken = () => randomBytes(32).toString('base64url');

export const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

export const hmac = (key: Buffer, value: string) => createHmac('sha256', key).update(value).digest('hex');

export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (value: string) => UUID_PATTERN.test(value);

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
