import { describe, expect, it } from 'vitest';
import { STORAGE_KEYS } from './storage-keys.ts';
import { consumeUrlSession } from './url-session.ts';

const run = (href: string) => {
  const stored = new Map<string, string>();
  const replaced: string[] = [];
  const changed = consumeUrlSession(href, { setItem: (k, v) => void stored.set(k, v) }, (u) => replaced.push(u));
  return { changed, stored, replaced };
};

describe('consumeUrlSession', () => {
  it('stores token and spaceId and removes only them from the URL', () => {
    const { changed, stored, replaced } = run('http://x/knowledge?token=abc&spaceId=s1&tab=2#top');
    expect(changed).toBe(true);
    expect(stored.get(STORAGE_KEYS.token)).toBe('abc');
    expect(stored.get(STORAGE_KEYS.spaceId)).toBe('s1');
    expect(replaced).toEqual(['/knowledge?tab=2#top']);
  });

  it('leaves a URL without them alone', () => {
    const { changed, stored, replaced } = run('http://x/dashboard?from=crm');
    expect([changed, stored.size, replaced.length]).toEqual([false, 0, 0]);
  });
});
