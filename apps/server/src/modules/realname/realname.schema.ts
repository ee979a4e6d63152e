import { index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from '../../platform/db/columns.ts';
import { users } from '../auth/auth.schema.ts';

// Tables of the realname module. Other modules may join them in queries (docs/code-style.md).

/** Real-name verification attempts; name and ID number are encrypted with the master key. */
export const realNameVerifications = pgTable(
  'real_name_verifications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    /** pending | verified | failed */
    state: text('state').notNull(),
    provider: text('provider').notNull(),
    /** The provider's handle for this attempt (e.g. a BizToken). */
    providerToken: text('provider_token').notNull(),
    nameEncrypted: text('name_encrypted').notNull(),
    idNumberEncrypted: text('id_number_encrypted').notNull(),
    /** Masked copies for display, computed once at submission. */
    nameMasked: text('name_masked').notNull(),
    idNumberMasked: text('id_number_masked').notNull(),
    failureReason: text('failure_reason'),
    createdAt: createdAt(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (t) => [
    index('real_name_user_idx').on(t.userId, t.createdAt),
    uniqueIndex('real_name_token_key').on(t.providerToken),
  ],
);
