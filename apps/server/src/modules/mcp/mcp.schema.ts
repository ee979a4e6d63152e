import { boolean, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from '../../platform/db/columns.ts';
import { users } from '../auth/auth.schema.ts';
import { spaces } from '../space/space.schema.ts';

// The team's MCP server (docs/mcp.md): on or off, access tokens (stored hashed), exposed tools and
// the log of their calls. Everything goes with the team.

/** One row per team that ever touched the switch; no row means off. */
export const mcpSettings = pgTable('mcp_settings', {
  spaceId: uuid('space_id')
    .primaryKey()
    .references(() => spaces.id, { onDelete: 'cascade' }),
  enabled: boolean('enabled').notNull().default(false),
  updatedBy: uuid('updated_by').references(() => users.id, { onDelete: 'set null' }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Bearer tokens for the endpoint: only the SHA-256 of the token is kept, like API keys. */
export const mcpTokens = pgTable(
  'mcp_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    spaceId: uuid('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    tokenHash: text('token_hash').notNull(),
    prefix: text('prefix').notNull(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('mcp_tokens_hash_key').on(t.tokenHash), index('mcp_tokens_space_idx').on(t.spaceId)],
);

/**
 * An exposed knowledge base, workflow or agent. `target_id` has no foreign key (it points into one
 * of three tables): a deleted target leaves the tool unavailable, listed so it can be removed.
 */
export const mcpTools = pgTable(
  'mcp_tools',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    spaceId: uuid('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<'knowledge' | 'workflow' | 'agent'>().notNull(),
    targetId: uuid('target_id').notNull(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('mcp_tools_name_key').on(t.spaceId, t.name),
    uniqueIndex('mcp_tools_target_key').on(t.spaceId, t.kind, t.targetId),
  ],
);

/** Every tools/call: which tool, which token, how long, and the error when it failed. */
export const mcpCalls = pgTable(
  'mcp_calls',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    spaceId: uuid('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    toolId: uuid('tool_id').references(() => mcpTools.id, { onDelete: 'set null' }),
    toolName: text('tool_name').notNull(),
    tokenId: uuid('token_id').references(() => mcpTokens.id, { onDelete: 'set null' }),
    ok: boolean('ok').notNull(),
    error: text('error').notNull().default(''),
    durationMs: integer('duration_ms').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('mcp_calls_space_idx').on(t.spaceId, t.createdAt),
    index('mcp_calls_tool_idx').on(t.toolId, t.createdAt),
  ],
);
