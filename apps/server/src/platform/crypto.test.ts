import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decryptSecret, encryptSecret } from './crypto.ts';

const key = randomBytes(32);

/** Builds a sealed value by hand, from the documented layout: v1.base64url(iv ‖ tag ‖ ciphertext). */
const seal = (hex: { iv: string; tag: string; ciphertext: string }) =>
  `v1.${Buffer.from(hex.iv + hex.tag + hex.ciphertext, 'hex').toString('base64url')}`;

describe('encryptSecret / decryptSecret (AES-256-GCM)', () => {
  it('round-trips text, including CJK, empty and long values', () => {
    for (const text of ['张三', '11010519491231002X', '', 'sk-'.padEnd(5000, 'x')]) {
      expect(decryptSecret(key, encryptSecret(key, text))).toBe(text);
    }
  });

  it('produces one base64url string with a version prefix and a fresh IV each time', () => {
    const a = encryptSecret(key, '张三');
    const b = encryptSecret(key, '张三');
    expect(a).toMatch(/^v1\.[A-Za-z0-9_-]+$/);
    expect(a).not.toBe(b);
    // 12-byte IV + 16-byte tag + 6 bytes of UTF-8 for two CJK characters.
    expect(Buffer.from(a.slice(3), 'base64url')).toHaveLength(12 + 16 + 6);
    expect(a).not.toContain(Buffer.from('张三').toString('base64url'));
  });

  // Test cases 13 and 14 of McGrew & Viega, "The Galois/Counter Mode of Operation" (the GCM spec):
  // 256-bit zero key, 96-bit zero IV.
  it('opens values sealed per the published GCM test vectors', () => {
    const zeroKey = Buffer.alloc(32);
    const iv = '00'.repeat(12);
    expect(decryptSecret(zeroKey, seal({ iv, tag: '530f8afbc74536b9a963b4f1c4cb738b', ciphertext: '' }))).toBe('');
    const sealed = seal({
      iv,
      tag: 'd0d1c8a799996bf0265b98b5d48ab919',
      ciphertext: 'cea7403d4d606b6e074ec5d3baf39d18',
    });
    expect(decryptSecret(zeroKey, sealed)).toBe('\0'.repeat(16));
  });

  it('refuses a wrong key, an altered byte, truncation and unknown versions', () => {
    const sealed = encryptSecret(key, '110105194912310021');
    expect(() => decryptSecret(randomBytes(32), sealed)).toThrow(/failed authentication/);

    const bytes = Buffer.from(sealed.slice(3), 'base64url');
    for (const index of [0, 12, bytes.length - 1]) {
      const altered = Buffer.from(bytes);
      altered[index] ^= 0x01;
      expect(() => decryptSecret(key, `v1.${altered.toString('base64url')}`)).toThrow(/failed authentication/);
    }
    expect(() => decryptSecret(key, `v1.${bytes.subarray(0, 20).toString('base64url')}`)).toThrow(/truncated/);
    expect(() => decryptSecret(key, `v2.${sealed.slice(3)}`)).toThrow(/known version/);
    expect(() => decryptSecret(key, 'plain text')).toThrow(/known version/);
    expect(() => decryptSecret(key, `${sealed}.extra`)).toThrow(/known version/);
  });

  it('insists on a 256-bit key', () => {
    expect(() => encryptSecret(randomBytes(16), 'x')).toThrow(/32 bytes/);
    expect(() => decryptSecret(randomBytes(16), 'v1.AAAA')).toThrow(/32 bytes/);
  });
});
