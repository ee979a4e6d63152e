import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/database.ts';
import { rowsOf, type Tx } from '../db/sql.ts';
import type { AppModule } from '../module.ts';

/** A limit: at most `limit` hits per `windowSeconds` for each subject. `name` keeps rules apart. */
export interface RateLimitRule {
  name: string;
  limit: number;
  windowSeconds: number;
}

/** One thing to count: a rule and whom it counts (an API key's hash, a visitor, an address key). */
export interface RateLimitCheck {
  rule: RateLimitRule;
  subject: string;
}

export interface RateLimitVerdict {
  allowed: boolean;
  /** Seconds until every refused check's window has passed; 0 when allowed. */
  retryAfterSeconds: number;
  /** What `undo` needs to take these hits back. */
  /** Each window's start as PostgreSQL wrote it (ISO 8601, microseconds), to match it exactly. */
  hits: { key: string; windowStart: string }[];
}

export type RateLimits = ReturnType<typeof createRateLimits>;

interface HitRow {
  key: string;
  hits: number;
  window_start: string;
  expires_ms: number;
}

/**
 * Rate limits kept in the database, so every process behind a load balancer counts the same hits,
 * on PGlite and on a PostgreSQL server alike. A hit is one statement (one round trip): an upsert
 * that adds one to the key's window, or opens a new window when the old one has passed, and
 * returns the count. Refused hits count too; they cannot stretch a window, only fill it.
 */
export function createRateLimits(deps: { db: Db; now: () => Date; log: FastifyBaseLogger }) {
  const { db, now } = deps;
  const keyOf = (check: RateLimitCheck) => `${check.rule.name}:${check.subject}`;

  /**
   * Counts one hit for each distinct key at once; allowed when every check is within its limit.
   * Two checks of one key count one hit (a multi-row upsert cannot touch a row twice); they must
   * then share the window, since the row has only one. Pass a transaction as `runner` to have the
   * hits undone with it.
   */
  async function hit(checks: RateLimitCheck[], runner: Tx = db): Promise<RateLimitVerdict> {
    if (checks.length === 0) return { allowed: true, retryAfterSeconds: 0, hits: [] };
    const at = now().getTime();
    const windows = new Map<string, number>();
    for (const check of checks) {
      const key = keyOf(check);
      const seen = windows.get(key);
      if (seen !== undefined && seen !== check.rule.windowSeconds) {
        throw new Error(`rate limit key ${key} is checked with two different windows in one hit`);
      }
      windows.set(key, check.rule.windowSeconds);
    }
    const values = [...windows].map(([key, windowSeconds]) => {
      const expires = new Date(at + windowSeconds * 1000).toISOString();
      return sql`(${key}, ${new Date(at).toISOString()}::timestamptz, 1, ${expires}::timestamptz)`;
    });
    // The window's start comes back as exact text: an epoch in double precision (what `extract`
    // gives before PostgreSQL 14) can round to another microsecond, and `undo` would miss its row.
    const rows = rowsOf<HitRow>(
      await runner.execute(sql`
        INSERT INTO rate_limits AS r (key, window_start, hits, expires_at)
        VALUES ${sql.join(values, sql`, `)}
        ON CONFLICT (key) DO UPDATE SET
          hits = CASE WHEN r.expires_at <= excluded.window_start THEN 1 ELSE r.hits + 1 END,
          window_start = CASE WHEN r.expires_at <= excluded.window_start THEN excluded.window_start ELSE r.window_start END,
          expires_at = CASE WHEN r.expires_at <= excluded.window_start THEN excluded.expires_at ELSE r.expires_at END
        RETURNING key, hits,
          to_char(window_start AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS window_start,
          (extract(epoch FROM expires_at) * 1000)::float8 AS expires_ms
      `),
    );
    let allowed = true;
    let retryAfterMs = 0;
    for (const check of checks) {
      const row = rows.find((r) => r.key === keyOf(check));
      if (!row) throw new Error(`rate limit key ${keyOf(check)} was not counted`);
      if (row.hits <= check.rule.limit) continue;
      allowed = false;
      retryAfterMs = Math.max(retryAfterMs, row.expires_ms - at);
    }
    return {
      allowed,
      retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil(retryAfterMs / 1000)),
      hits: rows.map((row) => ({ key: row.key, windowStart: row.window_start })),
    };
  }

  /** Takes hits back (e.g. a text message the vendor refused to send), within their window only. */
  async function undo(verdict: RateLimitVerdict) {
    for (const { key, windowStart } of verdict.hits) {
      await db.execute(sql`
        UPDATE rate_limits SET hits = hits - 1
        WHERE key = ${key} AND hits > 0 AND window_start = ${windowStart}::timestamptz
      `);
    }
  }

  /** Removes windows that have passed; a passed window counts as empty anyway. */
  async function purge() {
    const removed = await db.execute(
      sql`DELETE FROM rate_limits WHERE expires_at < ${now().toISOString()}::timestamptz RETURNING key`,
    );
    return rowsOf(removed).length;
  }

  /** The purge, every 5 minutes; pg-boss runs each occurrence once across processes. */
  const module: AppModule = {
    name: 'rate-limit',
    routes: () => {},
    schedules: [
      {
        name: 'rate-limit-purge',
        cron: '*/5 * * * *',
        async run() {
          const removed = await purge();
          if (removed > 0) deps.log.debug({ removed }, 'purged passed rate-limit windows');
        },
      },
    ],
  };

  return { hit, undo, purge, module };
}
