import type { ProfileChangeSource, ProfileFieldType } from '@athena/contract';
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt } from '../../platform/db/columns.ts';
import { users } from '../auth/auth.schema.ts';
import { chatConversations, chatCustomers, chatMessages, tsvector } from '../chat-history/chat-history.schema.ts';
import { spaces } from '../space/space.schema.ts';

// Tables of user profiles (docs/user-profiles.md): a scene's fields, each customer's current
// values, and every change to a value. Customers are chat history's; deleting a customer or a
// field takes its values and their history with it.

/** One field of a scene's profile. */
export const profileFields = pgTable(
  'profile_fields',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    spaceId: uuid('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    sceneId: integer('scene_id').notNull(),
    /** Stored trimmed; unique in the scene whatever its case (profile_fields_name_key). */
    name: text('name').notNull(),
    type: text('type').$type<ProfileFieldType>().notNull(),
    /** A select field's choices, distinct; empty for the other types. */
    options: jsonb('options').$type<string[]>().notNull().default([]),
    required: boolean('required').notNull().default(false),
    aiExtract: boolean('ai_extract').notNull().default(false),
    aiOverwrite: boolean('ai_overwrite').notNull().default(false),
    description: text('description').notNull().default(''),
    position: integer('position').notNull(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // Two creates of one name at once: the database lets one through, whatever the case.
    uniqueIndex('profile_fields_name_key').on(t.spaceId, t.sceneId, sql`lower(${t.name})`),
    index('profile_fields_scene_idx').on(t.spaceId, t.sceneId, t.position),
  ],
);

/**
 * A customer's current value of one field, as canonical text (a number as `12.5`, a date as
 * `YYYY-MM-DD`). Numbers and dates are also kept typed, so a search compares them as such.
 */
export const profileValues = pgTable(
  'profile_values',
  {
    customerId: bigint('customer_id', { mode: 'number' })
      .notNull()
      .references(() => chatCustomers.id, { onDelete: 'cascade' }),
    fieldId: uuid('field_id')
      .notNull()
      .references(() => profileFields.id, { onDelete: 'cascade' }),
    value: text('value').notNull(),
    valueNumber: numeric('value_number'),
    valueDate: date('value_date', { mode: 'string' }),
    source: text('source').$type<ProfileChangeSource>().notNull(),
    updatedBy: uuid('updated_by').references(() => users.id, { onDelete: 'set null' }),
    /** Who an AI or channel change is attributed to (a channel's name). */
    updatedByLabel: text('updated_by_label').notNull().default(''),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /** The value's keyword terms, for the customer search (docs/user-profiles.md, "Keyword search"). */
    searchVector: tsvector('search_vector').generatedAlwaysAs(sql`profile_search_terms(value)`),
  },
  (t) => [
    primaryKey({ columns: [t.customerId, t.fieldId] }),
    index('profile_values_search_idx').using('gin', t.searchVector),
    // Search conditions, field first: equal (on the value's start: a long text would not fit an
    // index entry), and ranges of numbers and dates, with the customer, so a range's customers are
    // read from the index alone (customer-list.query.ts, HASHED_VALUES).
    index('profile_values_field_value_idx').on(t.fieldId, sql`left(${t.value}, 100)`),
    index('profile_values_field_number_idx')
      .on(t.fieldId, t.valueNumber, t.customerId)
      .where(sql`value_number is not null`),
    index('profile_values_field_date_idx').on(t.fieldId, t.valueDate, t.customerId).where(sql`value_date is not null`),
  ],
);

/** Every change to a value, never updated but to mark it undone. */
export const profileChanges = pgTable(
  'profile_changes',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    customerId: bigint('customer_id', { mode: 'number' })
      .notNull()
      .references(() => chatCustomers.id, { onDelete: 'cascade' }),
    fieldId: uuid('field_id')
      .notNull()
      .references(() => profileFields.id, { onDelete: 'cascade' }),
    oldValue: text('old_value'),
    newValue: text('new_value'),
    source: text('source').$type<ProfileChangeSource>().notNull(),
    actorId: uuid('actor_id').references(() => users.id, { onDelete: 'set null' }),
    /** For AI and channel changes: what the change is attributed to. */
    actorLabel: text('actor_label').notNull().default(''),
    /** For an AI change: the message it was read from. */
    messageId: bigint('message_id', { mode: 'number' }).references(() => chatMessages.id, { onDelete: 'set null' }),
    revertedBy: bigint('reverted_by', { mode: 'number' }),
    createdAt: createdAt(),
  },
  (t) => [
    index('profile_changes_customer_idx').on(t.customerId, t.createdAt, t.id),
    index('profile_changes_field_idx').on(t.customerId, t.fieldId, t.id),
    index('profile_changes_field_id_idx').on(t.fieldId),
  ],
);

/**
 * The last AI extraction of each conversation (docs/user-profiles.md, AI extraction): up to which
 * message it read, so a conversation with nothing new is not read again, and how it went.
 */
export const profileExtractions = pgTable('profile_extractions', {
  conversationId: bigint('conversation_id', { mode: 'number' })
    .primaryKey()
    .references(() => chatConversations.id, { onDelete: 'cascade' }),
  /** The newest message of the conversation when it was read (by id: later arrivals are new). */
  lastMessageId: bigint('last_message_id', { mode: 'number' }).notNull(),
  status: text('status').$type<'ok' | 'failed'>().notNull(),
  /** Why it failed, or which values were skipped. */
  reason: text('reason'),
  model: text('model').notNull().default(''),
  changed: integer('changed').notNull().default(0),
  unchanged: integer('unchanged').notNull().default(0),
  skipped: integer('skipped').notNull().default(0),
  kept: integer('kept').notNull().default(0),
  /** When this (the latest) extraction ran: each run replaces the row. */
  createdAt: createdAt(),
});
