import type { SatisfactionState } from '@athena/contract';
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt } from '../../platform/db/columns.ts';
import { users } from '../auth/auth.schema.ts';
import { chatConversations, chatCustomers } from '../chat-history/chat-history.schema.ts';
import { spaces } from '../space/space.schema.ts';

/**
 * A scene's satisfaction question (docs/user-profiles.md, Satisfaction). No row: off, with the
 * default wording in the reader's language.
 */
export const satisfactionSettings = pgTable(
  'satisfaction_settings',
  {
    spaceId: uuid('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    sceneId: integer('scene_id').notNull(),
    enabled: boolean('enabled').notNull().default(false),
    head: text('head').notNull(),
    /** Best first, as the menu shows them. */
    options: jsonb('options').$type<{ score: number; label: string }[]>().notNull(),
    updatedBy: uuid('updated_by').references(() => users.id, { onDelete: 'set null' }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.spaceId, t.sceneId] })],
);

/** One question asked at the end of a session, and the customer's answer. */
export const satisfactionSurveys = pgTable(
  'satisfaction_surveys',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    spaceId: uuid('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    sceneId: integer('scene_id').notNull(),
    conversationId: bigint('conversation_id', { mode: 'number' })
      .notNull()
      .references(() => chatConversations.id, { onDelete: 'cascade' }),
    customerId: bigint('customer_id', { mode: 'number' }).references(() => chatCustomers.id, { onDelete: 'cascade' }),
    /** WeCom's servicer userid when the session ended. */
    servicer: text('servicer'),
    /** The scene's reply agent then. */
    agentId: uuid('agent_id'),
    state: text('state').$type<SatisfactionState>().notNull(),
    failReason: text('fail_reason'),
    /** 1..5, 5 = very satisfied. */
    score: smallint('score'),
    ratedAt: timestamp('rated_at', { withTimezone: true }),
    requestedAt: timestamp('requested_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('satisfaction_surveys_scene_idx').on(t.spaceId, t.sceneId, t.requestedAt),
    index('satisfaction_surveys_customer_idx').on(t.customerId, t.requestedAt),
  ],
);
