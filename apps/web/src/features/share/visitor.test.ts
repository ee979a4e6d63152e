import { describe, expect, it } from 'vitest';
import { visitorId } from './visitor.ts';

const memory = () => {
  const map = new Map<string, string>();
  return {
    map,
    getItem: (key: string) => map.get(key) ?? null,
    setItem: (key: string, value: string) => void map.set(key, value),
    removeItem: (key: string) => void map.delete(key),
  };
};

describe('visitorId', () => {
  it('creates a random id the contract accepts and keeps it', () => {
    const store = memory();
    const id = visitorId(store);
    expect(id).toMatch(/^v-[0-9a-f]{32}$/);
    expect(id.length).toBeGreaterThanOrEqual(8);
    expect(id.length).toBeLessThanOrEqual(64);
    expect(visitorId(store)).toBe(id);
    expect(visitorId(memory())).not.toBe(id);
  });

  it('replaces a stored value of the wrong length', () => {
    const store = memory();
    store.setItem('athena.shareVisitor', 'short');
    expect(visitorId(store)).toMatch(/^v-[0-9a-f]{32}$/);
  });
});
