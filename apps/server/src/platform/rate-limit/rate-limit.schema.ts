import { index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * One row per limited thing (`<rule>:<subject>`, e.g. `share-address:<agent>:203.0.113.7`): the
 * hits of its current window. The window opens at the key's first hit, so no moment of the clock
 * resets every key at once. Rows whose window has passed are dead and purged by a scheduled job.
 * The migration creates it UNLOGGED (drizzle cannot say so here): no WAL flush per hit, and a
 * crash only empties it.
 */
export const rateLimits = pgTable(
  'rate_limits',
  {
    key: text('key').primaryKey(),
    windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
    hits: integer('hits').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('rate_limits_expires_idx').on(t.expiresAt)],
);
