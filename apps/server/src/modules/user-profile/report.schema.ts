import { bigint, boolean, index, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { chatConversations, chatCustomers } from '../chat-history/chat-history.schema.ts';
import { spaces } from '../space/space.schema.ts';

// Summary tables of the service reports (docs/user-profiles.md, Reports). A report over 90 days of
// ten million messages cannot read the messages, so the summary job (report-summary.job.ts) folds
// every message once, in id order from a watermark, into hourly counts and one row per session; a
// report reads these plus the few messages newer than the watermark. Hours are UTC hours, so a day
// of any whole-hour time zone is a set of whole hours.

const timestamptz = (name: string) => timestamp(name, { withTimezone: true });

/** How far the summary job has read: every message with an id up to `message_id` is folded in. */
export const reportWatermarks = pgTable('report_watermarks', {
  name: text('name').primaryKey(),
  messageId: bigint('message_id', { mode: 'number' }).notNull(),
  updatedAt: timestamptz('updated_at').notNull().defaultNow(),
});

/** Messages per scene, UTC hour (of sent_at) and send type. */
export const reportMessageHours = pgTable(
  'report_message_hours',
  {
    spaceId: uuid('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    sceneId: integer('scene_id').notNull(),
    hour: timestamptz('hour').notNull(),
    sendType: text('send_type').notNull(),
    messages: integer('messages').notNull(),
  },
  (t) => [primaryKey({ columns: [t.spaceId, t.sceneId, t.hour, t.sendType] })],
);

/**
 * One row per session: a conversation's messages with no silence over 30 minutes between them.
 * Kept so a late message (an earlier sent_at, or one that joins two sessions) can replace exactly
 * the sessions it changes, and their hourly sums with them.
 */
export const reportSessions = pgTable(
  'report_sessions',
  {
    conversationId: bigint('conversation_id', { mode: 'number' })
      .notNull()
      .references(() => chatConversations.id, { onDelete: 'cascade' }),
    startedAt: timestamptz('started_at').notNull(),
    spaceId: uuid('space_id').notNull(),
    sceneId: integer('scene_id').notNull(),
    lastMessageAt: timestamptz('last_message_at').notNull(),
    messages: integer('messages').notNull(),
    firstCustomerAt: timestamptz('first_customer_at'),
    /** The first message after the first customer message that is not the customer's. */
    firstReplyAt: timestamptz('first_reply_at'),
    /** A person (send type human) wrote in it: a hand-over. */
    human: boolean('human').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.conversationId, t.startedAt] }),
    index('report_sessions_scene_idx').on(t.spaceId, t.sceneId, t.startedAt),
  ],
);

/** The sessions' facts summed per scene and UTC hour of their start. */
export const reportSessionHours = pgTable(
  'report_session_hours',
  {
    spaceId: uuid('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    sceneId: integer('scene_id').notNull(),
    hour: timestamptz('hour').notNull(),
    sessions: integer('sessions').notNull(),
    asked: integer('asked').notNull(),
    replied: integer('replied').notNull(),
    handedOver: integer('handed_over').notNull(),
    aiResolved: integer('ai_resolved').notNull(),
    /** Sum of first-response times of the replied sessions, milliseconds (the mean is read from it). */
    responseMs: bigint('response_ms', { mode: 'number' }).notNull(),
    within1m: integer('within_1m').notNull(),
    within5m: integer('within_5m').notNull(),
    within30m: integer('within_30m').notNull(),
  },
  (t) => [primaryKey({ columns: [t.spaceId, t.sceneId, t.hour] })],
);

/** When each customer's first message was sent (any conversation of theirs). */
export const reportCustomers = pgTable(
  'report_customers',
  {
    customerId: bigint('customer_id', { mode: 'number' })
      .primaryKey()
      .references(() => chatCustomers.id, { onDelete: 'cascade' }),
    spaceId: uuid('space_id').notNull(),
    sceneId: integer('scene_id').notNull(),
    firstAt: timestamptz('first_at').notNull(),
  },
  (t) => [index('report_customers_scene_idx').on(t.spaceId, t.sceneId, t.firstAt)],
);

/** New customers per scene and UTC hour of their first message. */
export const reportCustomerHours = pgTable(
  'report_customer_hours',
  {
    spaceId: uuid('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    sceneId: integer('scene_id').notNull(),
    hour: timestamptz('hour').notNull(),
    customers: integer('customers').notNull(),
  },
  (t) => [primaryKey({ columns: [t.spaceId, t.sceneId, t.hour] })],
);
