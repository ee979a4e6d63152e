import { timestamp } from 'drizzle-orm/pg-core';

/** The `created_at` column every table has: UTC, set by the database. */
export const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
