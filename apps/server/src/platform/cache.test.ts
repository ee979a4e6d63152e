import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_DIR } from '../config.ts';
import { createInvalidationBus, INVALIDATION_CHANNEL, TaggedCache } from './cache.ts';
import { type Database, openDatabase } from './db/database.ts';

describe('TaggedCache', () => {
  it('expires entries and drops every entry of an invalidated tag', () => {
    const cache = new TaggedCache<number>(1000);
    cache.set('a', 1, ['space:1', 'user:1'], 0);
    cache.set('b', 2, ['space:1', 'user:2'], 0);
    cache.set('c', 3, ['space:2'], 0);
    expect(cache.get('a', 999)).toBe(1);
    expect(cache.get('a', 1000)).toBeUndefined();
    cache.invalidate('space:1');
    expect(cache.get('b', 1)).toBeUndefined();
    expect(cache.get('c', 1)).toBe(3);
  });

  it('keeps nothing read before an invalidation that arrived while it was being read', () => {
    const cache = new TaggedCache<string>(1000);
    // A miss: the caller reads the row, and meanwhile another process's change is announced.
    expect(cache.get('a', 0)).toBeUndefined();
    cache.invalidate('space:1');
    cache.set('a', 'old row', ['space:1'], 0);
    expect(cache.get('a', 1)).toBeUndefined();
    // The next read, with no message in between, is kept.
    cache.set('a', 'new row', ['space:1'], 1);
    expect(cache.get('a', 2)).toBe('new row');
    // A clear (the listening connection dropped) counts too.
    expect(cache.get('b', 2)).toBeUndefined();
    cache.clear();
    cache.set('b', 'old row', ['space:2'], 2);
    expect(cache.get('b', 3)).toBeUndefined();
  });

  it('stays bounded', () => {
    const cache = new TaggedCache<number>(1000, 2);
    cache.set('a', 1, [], 0);
    cache.set('b', 2, [], 0);
    cache.set('c', 3, [], 0);
    expect([cache.get('a', 1), cache.get('c', 1)]).toEqual([undefined, 3]);
  });
});

describe('invalidation bus', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openDatabase({ dataDir: 'memory://', migrationsFolder: MIGRATIONS_DIR });
  });
  afterAll(() => database.close());

  const busOn = async () => {
    const bus = createInvalidationBus({
      notify: (key) => database.notify(INVALIDATION_CHANNEL, key),
      listen: (onMessage) => database.listen(INVALIDATION_CHANNEL, onMessage),
    });
    await bus.start();
    return bus;
  };

  it('delivers a published key locally at once and to other listeners through NOTIFY', async () => {
    const writer = await busOn();
    const reader = await busOn();
    const local: string[] = [];
    const remote: string[] = [];
    writer.subscribe((key) => local.push(key));
    reader.subscribe((key) => remote.push(key));
    await writer.publish('space:42');
    expect(local[0]).toBe('space:42');
    await expect.poll(() => remote).toContain('space:42');
  });
});
