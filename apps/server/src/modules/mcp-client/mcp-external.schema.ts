import { boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from '../../platform/db/columns.ts';
import { users } from '../auth/auth.schema.ts';
import { spaces } from '../space/space.schema.ts';

// External MCP servers a team adds (docs/mcp.md, "External MCP servers"): where they are, their
// headers sealed with the master key, the tool list last read from them, and each call's outcome.

/** A cached tool, as `tools/list` answered it (trimmed to MCP_EXTERNAL_LIMITS). */
export interface CachedExternalTool {
  name: string;
  title: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

export const mcpExternalServers = pgTable(
  'mcp_external_servers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    spaceId: uuid('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    url: text('url').notNull(),
    transport: text('transport').$type<'streamable_http' | 'sse'>().notNull(),
    /** The header names, to show without unsealing. */
    headerNames: jsonb('header_names').$type<string[]>().notNull().default([]),
    /** `[{name, value}]` as JSON, sealed (encryptSecret); '' when there are no headers. */
    headersSealed: text('headers_sealed').notNull().default(''),
    enabled: boolean('enabled').notNull().default(true),
    tools: jsonb('tools').$type<CachedExternalTool[]>().notNull().default([]),
    toolsReadAt: timestamp('tools_read_at', { withTimezone: true }),
    lastError: text('last_error').notNull().default(''),
    lastErrorAt: timestamp('last_error_at', { withTimezone: true }),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('mcp_external_servers_name_key').on(t.spaceId, t.name)],
);

/** Every call to an external server (connect + list, or a tool call): how long, and how it ended. */
export const mcpExternalCalls = pgTable(
  'mcp_external_calls',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    spaceId: uuid('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    serverId: uuid('server_id')
      .notNull()
      .references(() => mcpExternalServers.id, { onDelete: 'cascade' }),
    /** The tool called; '' for a refresh (connect and `tools/list`). */
    toolName: text('tool_name').notNull().default(''),
    /** Who asked: 'refresh', 'try', or the caller named by `callExternalTool` (agent, workflow). */
    source: text('source').notNull(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    ok: boolean('ok').notNull(),
    /** The error key when it failed (MCP_EXTERNAL_TIMEOUT…), or 'tool_error' for an `isError` answer. */
    errorKey: text('error_key').notNull().default(''),
    error: text('error').notNull().default(''),
    durationMs: integer('duration_ms').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('mcp_external_calls_server_idx').on(t.serverId, t.createdAt)],
);
