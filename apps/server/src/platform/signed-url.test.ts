import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createUrlSigner } from './signed-url.ts';

describe('signed URLs', () => {
  const key = randomBytes(32);
  let now = new Date('2026-01-01T10:20:00Z');
  const signer = createUrlSigner(key, 'test-url', () => now);
  const parts = (query: string) => Object.fromEntries(new URLSearchParams(query)) as { exp: string; sig: string };

  it('accepts its own signature for one to two hours, the same URL within an hour', () => {
    const { query, seconds } = signer.sign('abc');
    expect(seconds).toBeGreaterThan(3600);
    expect(seconds).toBeLessThanOrEqual(7200);
    const { exp, sig } = parts(query);
    expect(signer.check('abc', exp, sig)).toBe(seconds);
    now = new Date('2026-01-01T10:50:00Z');
    expect(signer.sign('abc').query).toBe(query);
    now = new Date('2026-01-01T13:00:00Z');
    expect(signer.check('abc', exp, sig)).toBeNull();
    now = new Date('2026-01-01T10:20:00Z');
  });

  it('refuses another subject, an altered expiry, another purpose and junk', () => {
    const { exp, sig } = parts(signer.sign('abc').query);
    expect(signer.check('abd', exp, sig)).toBeNull();
    expect(signer.check('abc', String(Number(exp) + 3600), sig)).toBeNull();
    expect(createUrlSigner(key, 'other-url', () => now).check('abc', exp, sig)).toBeNull();
    expect(signer.check('abc', 'x', sig)).toBeNull();
    expect(signer.check('abc', exp, 'zz')).toBeNull();
  });
});
