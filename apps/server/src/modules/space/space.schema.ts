import { bigint, boolean, index, pgTable, primaryKey, smallint, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from '../../platform/db/columns.ts';
import { users } from '../auth/auth.schema.ts';

// Tables of the space module. Other modules may join them in queries (docs/code-style.md).

export const spaces = pgTable('spaces', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull(),
  /** Prepaid balance in fen. */
  balance: bigint('balance', { mode: 'number' }).notNull().default(0),
  personal: boolean('personal').notNull().default(false),
  creatorId: uuid('creator_id')
    .notNull()
    .references(() => users.id),
  createdAt: createdAt(),
  /** Dissolved teams keep their rows (and audit trail) but have no members. */
  dissolvedAt: timestamp('dissolved_at', { withTimezone: true }),
});

export const spaceMembers = pgTable(
  'space_members',
  {
    spaceId: uuid('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    /** 1 creator, 2 admin, 3 member. */
    role: smallint('role').notNull(),
    joinedAt: timestamp('joined_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.spaceId, t.userId] }),
    index('space_members_user_idx').on(t.userId),
    // The member list's order: creator, admins, members, then by joining time.
    index('space_members_listing_idx').on(t.spaceId, t.role, t.joinedAt, t.userId),
  ],
);
