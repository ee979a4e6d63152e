import type { ChatPayload, ReplySettings } from '@athena/contract';
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt } from '../../platform/db/columns.ts';
import { users } from '../auth/auth.schema.ts';
import { spaces } from '../space/space.schema.ts';

// Tables of chat history (docs/chat-history.md). Customers, conversations and messages belong to a
// space and a scene; a source's own ids are unique within them, which is what makes ingestion
// idempotent. Ids are bigint: a busy team has tens of millions of messages.

export const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

/** A team's configuration of one scene: its ingest endpoint (sealed signing secret) and how it is answered. */
export const chatSceneSettings = pgTable(
  'chat_scene_settings',
  {
    spaceId: uuid('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    sceneId: integer('scene_id').notNull(),
    /** The ingest URL's public part; null while the endpoint is off. */
    ingestId: text('ingest_id'),
    ingestSecretSealed: text('ingest_secret_sealed'),
    ingestSecretPrefix: text('ingest_secret_prefix'),
    lastIngestAt: timestamp('last_ingest_at', { withTimezone: true }),
    /** How conversations are answered (docs/chat-replies.md); read over the defaults, so new settings need no migration. */
    reply: jsonb('reply').$type<Partial<ReplySettings>>().notNull().default({}),
    updatedBy: uuid('updated_by').references(() => users.id, { onDelete: 'set null' }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.spaceId, t.sceneId] }),
    uniqueIndex('chat_scene_settings_ingest_key').on(t.ingestId),
  ],
);

/** Ingest signatures already accepted, until they could no longer pass the timestamp check. */
export const chatIngestSignatures = pgTable(
  'chat_ingest_signatures',
  {
    signature: text('signature').primaryKey(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('chat_ingest_signatures_expires_idx').on(t.expiresAt)],
);

export const chatCustomers = pgTable(
  'chat_customers',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    spaceId: uuid('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    sceneId: integer('scene_id').notNull(),
    /** The source's id of the customer (WeCom's external_userid, a channel's user id). */
    sourceId: text('source_id').notNull(),
    name: text('name').notNull().default(''),
    avatarUrl: text('avatar_url'),
    /** The name's keyword terms, for the profile search (docs/user-profiles.md, "Keyword search"). */
    searchVector: tsvector('search_vector').generatedAlwaysAs(sql`profile_search_terms(name)`),
    /**
     * When the customer last wrote (their newest message's time; null: never), raised by the
     * message store as batches arrive, so the profile list reads one index. Our own messages to
     * them do not count.
     */
    lastActiveAt: timestamp('last_active_at', { withTimezone: true }),
    /**
     * The earliest message of any of their conversations (theirs or ours), lowered by the message
     * store as batches arrive, older ones included: when they were first seen, which the row's
     * created_at is not for a history imported later.
     */
    firstMessageAt: timestamp('first_message_at', { withTimezone: true }),
    /**
     * The profile values' keyword terms and equality tokens, kept by triggers on profile_values
     * (migration 0035; docs/user-profiles.md, "Reading at scale").
     */
    valuesDocument: tsvector('values_document').notNull().default(sql`''::tsvector`),
    /** The name's terms and `values_document`: one GIN lookup for a keyword with value conditions. */
    searchDocument: tsvector('search_document').generatedAlwaysAs(sql`profile_search_terms(name) || values_document`),
    /** The score of the customer's latest rated survey (null: none), kept by triggers (migration 0035). */
    satisfactionScore: smallint('satisfaction_score'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('chat_customers_source_key').on(t.spaceId, t.sceneId, t.sourceId),
    index('chat_customers_search_idx').using('gin', t.searchVector),
    index('chat_customers_document_idx').using('gin', t.searchDocument),
    // Most recently active first, never active last (newest first): the profile list's order.
    index('chat_customers_active_idx').on(t.spaceId, t.sceneId, t.lastActiveAt.desc().nullsLast(), t.id.desc()),
    // The same order per latest rating: "unsatisfied in the last 7 days" is two ranges of it.
    index('chat_customers_satisfaction_idx').on(
      t.spaceId,
      t.sceneId,
      t.satisfactionScore,
      t.lastActiveAt.desc().nullsLast(),
      t.id.desc(),
    ),
  ],
);

export const chatConversations = pgTable(
  'chat_conversations',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    spaceId: uuid('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    sceneId: integer('scene_id').notNull(),
    /** The source's id of the conversation (a group id; for a private chat, channel and customer). */
    sourceId: text('source_id').notNull(),
    chatType: text('chat_type').$type<'private' | 'group'>().notNull(),
    title: text('title').notNull().default(''),
    channelId: text('channel_id').notNull().default(''),
    channelName: text('channel_name').notNull().default(''),
    customerId: bigint('customer_id', { mode: 'number' }).references(() => chatCustomers.id, { onDelete: 'set null' }),
    lastMessageId: bigint('last_message_id', { mode: 'number' }),
    firstMessageAt: timestamp('first_message_at', { withTimezone: true }).notNull(),
    lastMessageAt: timestamp('last_message_at', { withTimezone: true }).notNull(),
    messageCount: integer('message_count').notNull().default(0),
    /** The send types among its messages, one bit each (SEND_TYPE_BITS): the send-type filter reads it. */
    sendTypes: integer('send_types').notNull().default(0),
    unread: integer('unread').notNull().default(0),
    handlerState: text('handler_state').notNull().default('none'),
    servicer: text('servicer'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('chat_conversations_source_key').on(t.spaceId, t.sceneId, t.sourceId),
    // Ascending, read backwards for "newest first". (Drizzle's desc() builds DESC NULLS LAST, which
    // no `order by … desc` matches: every list then read all of a scene's conversations and sorted.)
    index('chat_conversations_recent_idx').on(t.spaceId, t.sceneId, t.lastMessageAt, t.id),
    index('chat_conversations_customer_idx').on(t.customerId, t.lastMessageAt),
  ],
);

export const chatMessages = pgTable(
  'chat_messages',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    spaceId: uuid('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    sceneId: integer('scene_id').notNull(),
    conversationId: bigint('conversation_id', { mode: 'number' })
      .notNull()
      .references(() => chatConversations.id, { onDelete: 'cascade' }),
    /** The source's message id (WeCom msgid, a channel's msg_id, or ours for what we send). */
    sourceMsgId: text('source_msg_id').notNull(),
    sendType: text('send_type').notNull(),
    senderName: text('sender_name').notNull().default(''),
    displayType: text('display_type').notNull(),
    sourceKind: text('source_kind').notNull(),
    content: text('content').notNull().default(''),
    payload: jsonb('payload').$type<ChatPayload>().notNull().default({}),
    /** The source's id of the media a message carries (WeCom media_id), until it is downloaded. */
    sourceMediaId: text('source_media_id'),
    /** Where that media is: none, pending download, stored (at media_key), or failed (media_error). */
    mediaState: text('media_state').notNull().default('none'),
    /** The media's key in the object storage; never sent to clients (they get signed URLs). */
    mediaKey: text('media_key'),
    mediaError: text('media_error'),
    /** Word and two-character terms of the text (search-terms.ts), for keyword search in any language. */
    searchVector: tsvector('search_vector').notNull(),
    status: text('status').notNull().default('received'),
    failReason: text('fail_reason'),
    recalled: boolean('recalled').notNull().default(false),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('chat_messages_source_key').on(t.spaceId, t.sceneId, t.sourceMsgId),
    index('chat_messages_thread_idx').on(t.conversationId, t.sentAt, t.id),
    index('chat_messages_send_type_idx').on(t.spaceId, t.sceneId, t.sendType, t.sentAt.desc()),
    // A time window of the scene: with a keyword, intersected with the search index.
    index('chat_messages_time_idx').on(t.spaceId, t.sceneId, t.sentAt),
    index('chat_messages_search_idx').using('gin', t.searchVector),
    index('chat_messages_media_pending_idx').on(t.createdAt).where(sql`media_state = 'pending'`),
  ],
);
