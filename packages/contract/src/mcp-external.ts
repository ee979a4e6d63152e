import { z } from 'zod';
import { defineRoute, emptyBody } from './envelope.ts';
import { text } from './text.ts';

// External MCP servers a team adds (docs/mcp.md, "External MCP servers"): their URL, transport and
// headers (values sealed, never answered), the tool list read from them, and a "try it" call.

const tag = 'mcp';
const id = text().min(1).max(64);

export const MCP_EXTERNAL_TRANSPORTS = ['streamable_http', 'sse'] as const;
export type McpExternalTransport = (typeof MCP_EXTERNAL_TRANSPORTS)[number];

export const MCP_EXTERNAL_LIMITS = {
  /** External servers per team. */
  serversPerTeam: 20,
  /** Headers per server. */
  headersPerServer: 20,
  headerValueChars: 4000,
  urlChars: 2000,
  /** The most of one HTTP answer read from an external server, in bytes (an SSE stream counts whole). */
  responseBytes: 4 * 1024 * 1024,
  /** Tools kept from one server's list; the rest are dropped. */
  toolsPerServer: 200,
  /** A cached tool description is cut here. */
  toolDescriptionChars: 2000,
  /** A cached input schema larger than this (as JSON) is kept as a bare object schema. */
  toolSchemaChars: 64_000,
  /** The whole cached list (as JSON); tools past it are dropped. */
  toolListChars: 2_000_000,
  /** Connecting and `initialize`, in milliseconds. */
  connectTimeoutMs: 10_000,
  /** One tool call, in milliseconds, unless the caller asks for another time. */
  callTimeoutMs: 60_000,
  /** The longest time a caller (a workflow node) may give one tool call. */
  maxCallTimeoutMs: 300_000,
  /** The try route's text output is cut here. */
  tryOutputChars: 20_000,
  /** The try route's arguments as JSON. */
  argumentsBytes: 100_000,
} as const;

/** An HTTP header name (RFC 9110 token). */
export const MCP_HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,100}$/;

/** Headers the transport sets itself: a server's configuration may not name them. */
export const MCP_RESERVED_HEADERS = [
  'host',
  'content-length',
  'content-type',
  'accept',
  'connection',
  'transfer-encoding',
  'mcp-session-id',
  'mcp-protocol-version',
  'last-event-id',
] as const;

/** A JSON Schema object, as MCP's `inputSchema` carries it. */
const jsonSchema = z.record(z.string(), z.unknown());

export const mcpExternalToolSchema = z.object({
  name: text(),
  /** The tool's `title` (or annotations' title); empty when it has none. */
  title: text(),
  description: text(),
  input_schema: jsonSchema,
});
export type McpExternalTool = z.infer<typeof mcpExternalToolSchema>;

export const mcpExternalServerSchema = z.object({
  id: text(),
  name: text(),
  url: text(),
  transport: z.enum(MCP_EXTERNAL_TRANSPORTS),
  enabled: z.boolean(),
  /** Header names only: a value is never answered, `set` says whether it has one. */
  headers: z.array(z.object({ name: text(), set: z.boolean() })),
  /** Tools in the cached list (0 until it was read). */
  tools_count: z.number().int(),
  /** When the tool list was last read successfully. */
  tools_read_at: text().nullable(),
  /** What went wrong the last time the server was reached; empty when it answered. */
  last_error: text(),
  last_error_at: text().nullable(),
  calls: z.number().int(),
  errors: z.number().int(),
  last_called_at: text().nullable(),
  created_by: z.object({ id: text(), name: text() }).nullable(),
  created_at: text(),
  updated_at: text(),
});
export type McpExternalServer = z.infer<typeof mcpExternalServerSchema>;

export const mcpExternalTryResultSchema = z.object({
  /** The tool answered with `isError: true` (its own failure, not ours). */
  is_error: z.boolean(),
  /** The text parts of the answer (other parts described in brackets), cut at `tryOutputChars`. */
  content: text(),
  /** `structuredContent` as JSON text, cut like `content`; empty when there is none. */
  structured: text(),
  truncated: z.boolean(),
  duration_ms: z.number().int(),
});
export type McpExternalTryResult = z.infer<typeof mcpExternalTryResultSchema>;

const serverName = text().trim().min(1).max(50);
const url = text().trim().min(1).max(MCP_EXTERNAL_LIMITS.urlChars);
// The name's rule (MCP_HEADER_NAME, MCP_RESERVED_HEADERS) is checked by the service, which names the header.
const headerName = text().trim().min(1).max(100);
// A value with a line break would split the header; the check in the service names it.
const headerValue = text().max(MCP_EXTERNAL_LIMITS.headerValueChars);

export const mcpExternalRoutes = {
  list: defineRoute({
    path: '/api/athena/v1/mcp/external/list',
    body: emptyBody,
    data: z.object({
      items: z.array(mcpExternalServerSchema),
      /** Whether the caller may add, change, refresh, try and remove servers (`mcp.manage`). */
      can_manage: z.boolean(),
      max: z.number().int(),
    }),
    auth: true,
    summary: "The team's external MCP servers with their status, newest first",
    tag,
  }),
  add: defineRoute({
    path: '/api/athena/v1/mcp/external/add',
    body: z.object({
      name: serverName,
      url,
      transport: z.enum(MCP_EXTERNAL_TRANSPORTS),
      headers: z
        .array(z.object({ name: headerName, value: headerValue }))
        .max(MCP_EXTERNAL_LIMITS.headersPerServer)
        .default([]),
      enabled: z.boolean().default(true),
    }),
    data: mcpExternalServerSchema,
    auth: true,
    summary: 'Add an external MCP server (its tools are read by refresh)',
    tag,
  }),
  update: defineRoute({
    path: '/api/athena/v1/mcp/external/update',
    body: z.object({
      id,
      name: serverName,
      url,
      transport: z.enum(MCP_EXTERNAL_TRANSPORTS),
      /**
       * The server's headers after the change: a header without `value` (or null) keeps its stored
       * value; a stored header not listed is removed.
       */
      headers: z
        .array(z.object({ name: headerName, value: headerValue.nullable().optional() }))
        .max(MCP_EXTERNAL_LIMITS.headersPerServer),
      enabled: z.boolean(),
    }),
    data: mcpExternalServerSchema,
    auth: true,
    summary: "Change an external MCP server's name, URL, transport, headers or switch",
    tag,
  }),
  remove: defineRoute({
    path: '/api/athena/v1/mcp/external/remove',
    body: z.object({ id }),
    data: z.null(),
    auth: true,
    summary: 'Remove an external MCP server (its call counts go with it)',
    tag,
  }),
  refresh: defineRoute({
    path: '/api/athena/v1/mcp/external/refresh',
    body: z.object({ id }),
    data: z.object({ server: mcpExternalServerSchema, tools: z.array(mcpExternalToolSchema) }),
    auth: true,
    summary: 'Connect to an external MCP server and read its tool list again (creator and admins)',
    tag,
  }),
  tools: defineRoute({
    path: '/api/athena/v1/mcp/external/tools',
    body: z.object({ id }),
    data: z.object({ items: z.array(mcpExternalToolSchema), read_at: text().nullable() }),
    auth: true,
    summary: "An external MCP server's cached tool list, as last read",
    tag,
  }),
  try: defineRoute({
    path: '/api/athena/v1/mcp/external/try',
    body: z.object({
      id,
      tool_name: text().min(1).max(128),
      arguments: z.record(z.string(), z.unknown()).default({}),
    }),
    data: mcpExternalTryResultSchema,
    auth: true,
    summary: "Call one of an external MCP server's tools with JSON arguments (creator and admins)",
    tag,
  }),
} as const;
