import { integer, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from '../../platform/db/columns.ts';
import { users } from '../auth/auth.schema.ts';
import { spaces } from '../space/space.schema.ts';

// A team's WeCom customer-service connection (docs/wecom.md): one per space and scene, its
// credentials sealed with the master key, and the sync cursor of each customer-service account.

export const wecomAccounts = pgTable(
  'wecom_accounts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    spaceId: uuid('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    sceneId: integer('scene_id').notNull(),
    corpId: text('corp_id').notNull(),
    secretSealed: text('secret_sealed').notNull(),
    tokenSealed: text('token_sealed').notNull(),
    aesKeySealed: text('aes_key_sealed').notNull(),
    /** The callback URL's public part. */
    callbackId: text('callback_id').notNull(),
    verifiedAt: timestamp('verified_at', { withTimezone: true }),
    lastPullAt: timestamp('last_pull_at', { withTimezone: true }),
    lastError: text('last_error'),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('wecom_accounts_scene_key').on(t.spaceId, t.sceneId),
    uniqueIndex('wecom_accounts_callback_key').on(t.callbackId),
  ],
);

/**
 * Where the pull of one customer-service account (open_kfid) stands. `pulling_until` is a lease:
 * one process pulls an account at a time; a push arriving meanwhile leaves its token, and the
 * puller goes round once more (with the push's sync token) before letting go.
 */
export const wecomCursors = pgTable(
  'wecom_cursors',
  {
    accountId: uuid('account_id')
      .notNull()
      .references(() => wecomAccounts.id, { onDelete: 'cascade' }),
    openKfId: text('open_kfid').notNull(),
    cursor: text('cursor').notNull().default(''),
    pullingUntil: timestamp('pulling_until', { withTimezone: true }),
    /** Which pull holds the lease: only it may renew, move the cursor or let go. */
    leaseOwner: text('lease_owner'),
    /** A push's sync token that arrived while a pull ran (empty: pull without one); null: none waiting. */
    pendingSyncToken: text('pending_sync_token'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.openKfId] })],
);
