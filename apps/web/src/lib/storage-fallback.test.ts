import { describe, expect, it } from 'vitest';
import { ensureStorage, memoryStorage } from './storage-fallback.ts';

describe('storage that the browser refuses', () => {
  it('is replaced by one in memory, and usable ones are kept', () => {
    const local = memoryStorage();
    const target = {
      localStorage: local,
      get sessionStorage(): Storage {
        throw new DOMException('Access is denied for this document.', 'SecurityError');
      },
    };
    expect(ensureStorage(target)).toEqual(['sessionStorage']);
    expect(target.localStorage).toBe(local);
    target.sessionStorage.setItem('athena.token', 'abc');
    expect(target.sessionStorage.getItem('athena.token')).toBe('abc');
  });

  it('behaves like Storage', () => {
    const storage = memoryStorage();
    storage.setItem('a', '1');
    storage.setItem('b', '2');
    expect(storage.length).toBe(2);
    expect(storage.key(1)).toBe('b');
    storage.removeItem('a');
    expect(storage.getItem('a')).toBeNull();
    storage.clear();
    expect(storage.length).toBe(0);
  });
});
