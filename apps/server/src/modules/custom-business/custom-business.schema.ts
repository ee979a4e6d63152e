import { bigint, bigserial, boolean, date, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from '../../platform/db/columns.ts';
import { users } from '../auth/auth.schema.ts';
import { spaces } from '../space/space.schema.ts';

// Tables of the custom-business module. Other modules may join them in queries (docs/code-style.md).

/** Custom AI business: a space asks the platform's operators for a custom solution. */
export const customBusinessRequests = pgTable(
  'custom_business_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    spaceId: uuid('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    requesterId: uuid('requester_id')
      .notNull()
      .references(() => users.id),
    title: text('title').notNull(),
    scenario: text('scenario').notNull(),
    requirements: text('requirements').notNull(),
    contactName: text('contact_name').notNull(),
    contactPhone: text('contact_phone'),
    contactEmail: text('contact_email'),
    budgetRange: text('budget_range').notNull(),
    expectedDate: date('expected_date', { mode: 'string' }),
    /** submitted | in_review | quoted | accepted | closed */
    status: text('status').notNull(),
    quoteFen: bigint('quote_fen', { mode: 'number' }),
    quoteNote: text('quote_note'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('custom_business_requests_space_idx').on(t.spaceId, t.createdAt),
    index('custom_business_requests_status_idx').on(t.status, t.createdAt),
    index('custom_business_requests_created_idx').on(t.createdAt),
  ],
);

/** Files uploaded for a request; `request_id` stays null until the request is submitted. */
export const customBusinessAttachments = pgTable(
  'custom_business_attachments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    spaceId: uuid('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    uploadedBy: uuid('uploaded_by')
      .notNull()
      .references(() => users.id),
    requestId: uuid('request_id').references(() => customBusinessRequests.id, { onDelete: 'cascade' }),
    /** The original file name, cleaned of paths and control characters. */
    name: text('name').notNull(),
    size: integer('size').notNull(),
    /** What the bytes are (sniffed), never what the client claimed. */
    contentType: text('content_type').notNull(),
    /** Object storage key; it holds a random secret and never leaves the server. */
    storageKey: text('storage_key').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('custom_business_attachments_request_idx').on(t.requestId),
    index('custom_business_attachments_uploader_idx').on(t.uploadedBy, t.createdAt),
  ],
);

/** Every status change of a request, its creation included (from_status null). */
export const customBusinessStatusHistory = pgTable(
  'custom_business_status_history',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    requestId: uuid('request_id')
      .notNull()
      .references(() => customBusinessRequests.id, { onDelete: 'cascade' }),
    fromStatus: text('from_status'),
    toStatus: text('to_status').notNull(),
    actorId: uuid('actor_id')
      .notNull()
      .references(() => users.id),
    /** The actor acted as a platform operator (not as a member of the space). */
    byOperator: boolean('by_operator').notNull().default(false),
    note: text('note'),
    quoteFen: bigint('quote_fen', { mode: 'number' }),
    createdAt: createdAt(),
  },
  (t) => [index('custom_business_history_request_idx').on(t.requestId, t.id)],
);
