import type { BehaviourKind } from '@athena/contract';
import { bigint, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from '../../platform/db/columns.ts';
import { chatConversations, chatCustomers } from '../chat-history/chat-history.schema.ts';
import { spaces } from '../space/space.schema.ts';

/**
 * What a customer did besides writing (docs/user-profiles.md, Behaviour data): derived from what
 * chat history stored, or pushed by a channel. `source_key` names where each came from (`msg:<msgid>`,
 * `session:<event msgid>`, `push:<event_id>`), unique in the scene: storing the same thing again
 * (a batch sent twice, a WeCom page pulled twice) stores nothing.
 */
export const customerEvents = pgTable(
  'customer_events',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    spaceId: uuid('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    sceneId: integer('scene_id').notNull(),
    customerId: bigint('customer_id', { mode: 'number' })
      .notNull()
      .references(() => chatCustomers.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<BehaviourKind>().notNull(),
    sourceKey: text('source_key').notNull(),
    name: text('name').notNull().default(''),
    detail: jsonb('detail').$type<Record<string, unknown>>().notNull().default({}),
    /** An order's or purchase's amount in fen (cents). */
    amountFen: bigint('amount_fen', { mode: 'number' }),
    conversationId: bigint('conversation_id', { mode: 'number' }).references(() => chatConversations.id, {
      onDelete: 'set null',
    }),
    /** The chat message it was read from (no foreign key: a message's conversation owns it). */
    messageId: bigint('message_id', { mode: 'number' }),
    occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('customer_events_source_key').on(t.spaceId, t.sceneId, t.sourceKey),
    index('customer_events_customer_idx').on(t.customerId, t.occurredAt, t.id),
  ],
);
