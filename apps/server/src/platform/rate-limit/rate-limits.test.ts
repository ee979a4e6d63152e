import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/test-app.ts';
import { rowsOf } from '../db/sql.ts';
import type { RateLimitRule } from './rate-limits.ts';

// Two test apps on one database stand for two server processes behind a load balancer.
describe('rate limits kept in the database', () => {
  let a: TestApp;
  let b: TestApp;
  let clock = Date.parse('2031-03-01T08:00:00Z');
  const later = (seconds: number) => {
    clock += seconds * 1000;
  };
  const now = () => new Date(clock);
  const limits = (t: TestApp) => t.app.modules.rateLimit;
  const rule: RateLimitRule = { name: 'test', limit: 3, windowSeconds: 60 };

  beforeAll(async () => {
    a = await createTestApp({ now });
    b = await createTestApp({ now, sameDatabaseAs: a });
  });
  afterAll(async () => {
    await b.close();
    await a.close();
  });

  it('counts the hits of every process together', async () => {
    const check = [{ rule, subject: 'shared' }];
    expect((await limits(a).hit(check)).allowed).toBe(true);
    later(10);
    expect((await limits(b).hit(check)).allowed).toBe(true);
    expect((await limits(a).hit(check)).allowed).toBe(true);
    later(5);
    // The window opened with the first hit, 15 s ago.
    expect(await limits(b).hit(check)).toMatchObject({ allowed: false, retryAfterSeconds: 45 });
    expect((await limits(a).hit([{ rule, subject: 'another' }])).allowed).toBe(true);
  });

  it('opens a new window once the old one has passed; refused hits do not stretch it', async () => {
    const check = [{ rule, subject: 'renewed' }];
    for (let i = 0; i < 3; i++) await limits(a).hit(check);
    later(59);
    expect(await limits(b).hit(check)).toMatchObject({ allowed: false, retryAfterSeconds: 1 });
    later(1);
    expect((await limits(b).hit(check)).allowed).toBe(true);
    expect((await limits(a).hit(check)).allowed).toBe(true);
    expect((await limits(a).hit(check)).allowed).toBe(true);
    expect((await limits(a).hit(check)).allowed).toBe(false);
  });

  it('counts hits that arrive at the same moment on both processes exactly', async () => {
    const check = [{ rule: { ...rule, limit: 7 }, subject: 'burst' }];
    const verdicts = await Promise.all(Array.from({ length: 20 }, (_, i) => limits(i % 2 ? a : b).hit(check)));
    expect(verdicts.filter((v) => v.allowed)).toHaveLength(7);
  });

  it('allows only when every check of a hit allows, and says the longest wait', async () => {
    const short = { name: 'short', limit: 1, windowSeconds: 10 };
    const long = { name: 'long', limit: 1, windowSeconds: 100 };
    const both = [
      { rule: short, subject: 'x' },
      { rule: long, subject: 'x' },
    ];
    expect((await limits(a).hit(both)).allowed).toBe(true);
    expect(await limits(b).hit(both)).toMatchObject({ allowed: false, retryAfterSeconds: 100 });
    later(10);
    expect(await limits(b).hit(both)).toMatchObject({ allowed: false, retryAfterSeconds: 90 });
    // A refused hit still counts for each rule: the short window that just opened is full.
    expect(await limits(b).hit([{ rule: short, subject: 'x' }])).toMatchObject({
      allowed: false,
      retryAfterSeconds: 10,
    });
  });

  it('takes hits back within their window only', async () => {
    const check = [{ rule: { ...rule, limit: 1 }, subject: 'undone' }];
    const first = await limits(a).hit(check);
    await limits(b).undo(first);
    expect((await limits(b).hit(check)).allowed).toBe(true);
    const old = await limits(a).hit([{ rule: { ...rule, limit: 1 }, subject: 'old' }]);
    later(60);
    await limits(a).hit([{ rule: { ...rule, limit: 1 }, subject: 'old' }]);
    // An undo of a hit from a window that has passed leaves the new window alone.
    await limits(a).undo(old);
    expect((await limits(a).hit([{ rule: { ...rule, limit: 1 }, subject: 'old' }])).allowed).toBe(false);
  });

  it('counts one hit for two checks of the same key, each judged by its own limit', async () => {
    const loose = { ...rule, limit: 2 };
    const strict = { ...rule, limit: 1 };
    const twice = [
      { rule: loose, subject: 'twice' },
      { rule: strict, subject: 'twice' },
    ];
    expect(await limits(a).hit(twice)).toMatchObject({ allowed: true, hits: [{ key: 'test:twice' }] });
    expect(await limits(b).hit(twice)).toMatchObject({ allowed: false, retryAfterSeconds: 60 });
    expect((await limits(a).hit([{ rule: loose, subject: 'twice' }])).allowed).toBe(false);
    // One row has one window, so a key checked with two windows is a mistake in the caller.
    await expect(
      limits(a).hit([
        { rule, subject: 'mixed' },
        { rule: { ...rule, windowSeconds: 10 }, subject: 'mixed' },
      ]),
    ).rejects.toThrow(/two different windows/);
  });

  it('takes back a hit whose window started at a fraction of a millisecond', async () => {
    // Another writer (or a clock with microseconds) may have opened the window; the undo must
    // still find it, which a round trip through a floating-point epoch does not promise.
    const start = new Date(clock - 1000).toISOString().replace('Z', '457Z');
    const expires = new Date(clock + 59_000).toISOString();
    await a.database.db.execute(
      sql`INSERT INTO rate_limits (key, window_start, hits, expires_at) VALUES ('test:micro', ${start}::timestamptz, 1, ${expires}::timestamptz)`,
    );
    const second = await limits(a).hit([{ rule: { ...rule, limit: 1 }, subject: 'micro' }]);
    expect(second.allowed).toBe(false);
    await limits(b).undo(second);
    const [row] = rowsOf<{ hits: number }>(
      await a.database.db.execute(sql`SELECT hits FROM rate_limits WHERE key = 'test:micro'`),
    );
    expect(row.hits).toBe(1);
  });

  it('purges passed windows on its schedule and keeps live ones', async () => {
    later(3600);
    await limits(a).hit([{ rule, subject: 'live' }]);
    const keys = async () =>
      rowsOf<{ key: string }>(await a.database.db.execute(sql`SELECT key FROM rate_limits ORDER BY key`)).map(
        (row) => row.key,
      );
    expect((await keys()).length).toBeGreaterThan(1);
    const [purge] = limits(b).module.schedules ?? [];
    expect(purge).toMatchObject({ name: 'rate-limit-purge', cron: '*/5 * * * *' });
    await purge.run();
    expect(await keys()).toEqual(['test:live']);
  });
});
