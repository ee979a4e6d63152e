import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from '../../platform/db/columns.ts';
import { users } from '../auth/auth.schema.ts';
import { spaces } from '../space/space.schema.ts';

// Tables of the agent module. Other modules may join them in queries (docs/code-style.md).

export const agents = pgTable(
  'agents',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    spaceId: uuid('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    /** The `model` name callers use on /v1/chat/completions. */
    publicId: text('public_id').notNull(),
    name: text('name').notNull(),
    avatarUrl: text('avatar_url'),
    description: text('description').notNull().default(''),
    systemPrompt: text('system_prompt').notNull().default(''),
    openingMessage: text('opening_message').notNull().default(''),
    suggestedQuestions: jsonb('suggested_questions').$type<string[]>().notNull().default([]),
    modelKeyId: uuid('model_key_id'),
    params: jsonb('params').$type<{ temperature: number; max_tokens: number | null }>().notNull(),
    attachments: jsonb('attachments')
      .$type<{ knowledge_ids: string[]; workflow_ids: string[]; mcp_tools: string[] }>()
      .notNull(),
    /** Random part of the public share link; null when sharing is off. */
    shareCode: text('share_code'),
    createdBy: uuid('created_by')
      .notNull()
      .references(() => users.id),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('agents_space_idx').on(t.spaceId, t.createdAt),
    uniqueIndex('agents_public_id_key').on(t.publicId),
    uniqueIndex('agents_share_code_key').on(t.shareCode),
  ],
);

export const conversations = pgTable(
  'conversations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    agentId: uuid('agent_id')
      .notNull()
      .references(() => agents.id, { onDelete: 'cascade' }),
    spaceId: uuid('space_id').notNull(),
    /** A signed-in member (playground) … */
    userId: uuid('user_id').references(() => users.id),
    /** … or a share-page visitor (random id kept in their browser). */
    visitorId: text('visitor_id'),
    /** playground | share | api */
    channel: text('channel').notNull(),
    title: text('title').notNull(),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('conversations_owner_idx').on(t.agentId, t.userId, t.updatedAt)],
);

export const messages = pgTable(
  'messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    conversationId: uuid('conversation_id')
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    /** user | assistant */
    role: text('role').notNull(),
    content: text('content').notNull(),
    /** complete | streaming | stopped | error | interrupted (the server went away mid-answer) */
    status: text('status').notNull(),
    error: text('error'),
    /** Knowledge sources an assistant answer cites ([n] markers), see the contract's citationSchema. */
    citations: jsonb('citations').$type<unknown[]>().notNull().default([]),
    /** The MCP tools an assistant answer called, in order, see the contract's agentToolStepSchema. */
    steps: jsonb('steps').$type<unknown[]>().notNull().default([]),
    inputTokens: integer('input_tokens').notNull().default(0),
    outputTokens: integer('output_tokens').notNull().default(0),
    createdAt: createdAt(),
    /**
     * While an answer streams, its process writes what has arrived and this time every few seconds;
     * an answer still "streaming" whose time has gone stale lost its process (docs/agents.md).
     */
    streamedAt: timestamp('streamed_at', { withTimezone: true }),
  },
  (t) => [
    index('messages_conversation_idx').on(t.conversationId, t.createdAt),
    // The sweep for answers whose process went away reads only the few that are streaming.
    index('messages_streaming_idx').on(t.streamedAt).where(sql`${t.status} = 'streaming'`),
  ],
);

export const agentApiKeys = pgTable(
  'agent_api_keys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    agentId: uuid('agent_id')
      .notNull()
      .references(() => agents.id, { onDelete: 'cascade' }),
    spaceId: uuid('space_id').notNull(),
    name: text('name').notNull(),
    keyHash: text('key_hash').notNull(),
    prefix: text('prefix').notNull(),
    createdBy: uuid('created_by')
      .notNull()
      .references(() => users.id),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    useCount: integer('use_count').notNull().default(0),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('agent_api_keys_hash_key').on(t.keyHash), index('agent_api_keys_agent_idx').on(t.agentId)],
);
