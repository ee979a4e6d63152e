import { z } from 'zod';
import { defineRoute, emptyBody } from './envelope.ts';
import { text } from './text.ts';

// The team's MCP server (docs/mcp.md): whether it is on, its access tokens, which knowledge bases,
// effective workflows and agents it exposes as tools, and the log of tool calls. The MCP endpoint
// itself (`/mcp/<team id>`) speaks JSON-RPC over Streamable HTTP and is not an envelope route.

const tag = 'mcp';
const id = text().min(1).max(64);

/** The MCP endpoint; the page shows `${MCP_PATH}/${teamId}` (a bare `/mcp` works too: the token names the team). */
export const MCP_PATH = '/mcp';

export const MCP_LIMITS = {
  /** A JSON-RPC request to the endpoint, in bytes (larger: HTTP 413 with a JSON-RPC error). */
  bodyBytes: 1024 * 1024,
  /** Active (not revoked, not expired) tokens per team. */
  tokensPerTeam: 50,
  /** Exposed tools per team. */
  toolsPerTeam: 200,
  /** A token's expiry may be at most this far away. */
  maxTokenDays: 366,
  descriptionChars: 1000,
} as const;

/** MCP's own rule for tool names (the specification's "Tool names"). */
export const MCP_TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

export const MCP_TOOL_KINDS = ['knowledge', 'workflow', 'agent'] as const;
export type McpToolKind = (typeof MCP_TOOL_KINDS)[number];

/**
 * JSON-RPC error codes the endpoint answers with besides the standard ones (-32700 parse error,
 * -32600 invalid request, -32601 method not found, -32602 invalid params): the server-defined range.
 */
export const MCP_RPC_ERRORS = {
  unauthorized: -32001,
  serverOff: -32002,
  rateLimited: -32003,
  tooLarge: -32004,
} as const;

export const mcpSettingsSchema = z.object({
  enabled: z.boolean(),
  /** The endpoint's path on this server; the web client puts its origin in front. */
  endpoint_path: text(),
  /** Whether the caller may change settings, tokens and tools (`mcp.manage`). */
  can_manage: z.boolean(),
});
export type McpSettings = z.infer<typeof mcpSettingsSchema>;

export const mcpTokenSchema = z.object({
  id: text(),
  name: text(),
  /** The first characters, to recognise a token; the token itself is shown once, when created. */
  prefix: text(),
  created_at: text(),
  created_by: z.object({ id: text(), name: text() }).nullable(),
  expires_at: text().nullable(),
  last_used_at: text().nullable(),
  revoked: z.boolean(),
  /** Neither revoked nor past its expiry. */
  active: z.boolean(),
});
export type McpToken = z.infer<typeof mcpTokenSchema>;

/** A JSON Schema object, as MCP's `inputSchema` carries it. */
const jsonSchema = z.record(z.string(), z.unknown());

export const mcpToolSchema = z.object({
  id: text(),
  kind: z.enum(MCP_TOOL_KINDS),
  target_id: text(),
  /** The knowledge base's, workflow's or agent's current name; empty when it was deleted. */
  target_name: text(),
  name: text(),
  description: text(),
  input_schema: jsonSchema,
  /** Whether a client sees it now: false when its target was deleted, a workflow is not effective or locked. */
  available: z.boolean(),
  /** Why not, in the caller's language; empty when available. */
  unavailable_reason: text(),
  calls: z.number().int(),
  errors: z.number().int(),
  last_called_at: text().nullable(),
  created_at: text(),
});
export type McpTool = z.infer<typeof mcpToolSchema>;

/** Something the team could expose: a base, an effective workflow or an agent, with the schema its tool would have. */
export const mcpCandidateSchema = z.object({
  kind: z.enum(MCP_TOOL_KINDS),
  target_id: text(),
  target_name: text(),
  /** The name a new tool gets unless another is given. */
  suggested_name: text(),
  input_schema: jsonSchema,
  /** The tool's id when it is already exposed. */
  tool_id: text().nullable(),
});
export type McpCandidate = z.infer<typeof mcpCandidateSchema>;

export const mcpCallSchema = z.object({
  id: text(),
  tool_id: text().nullable(),
  tool_name: text(),
  token_id: text().nullable(),
  /** The token's name and prefix when the call was made ("" if it was deleted). */
  token_name: text(),
  token_prefix: text(),
  ok: z.boolean(),
  /** The error a failed call answered with; empty when it succeeded. */
  error: text(),
  duration_ms: z.number().int(),
  created_at: text(),
});
export type McpCall = z.infer<typeof mcpCallSchema>;

const toolName = text().trim().regex(MCP_TOOL_NAME, { error: 'MCP_TOOL_NAME_INVALID' });
const description = text().trim().max(MCP_LIMITS.descriptionChars);

export const mcpRoutes = {
  settingsGet: defineRoute({
    path: '/api/athena/v1/mcp/settings/get',
    body: emptyBody,
    data: mcpSettingsSchema,
    auth: true,
    summary: "The team's MCP server: on or off, and its endpoint",
    tag,
  }),
  settingsSet: defineRoute({
    path: '/api/athena/v1/mcp/settings/set',
    body: z.object({ enabled: z.boolean() }),
    data: mcpSettingsSchema,
    auth: true,
    summary: "Turn the team's MCP server on or off (creator and admins)",
    tag,
  }),
  tokenCreate: defineRoute({
    path: '/api/athena/v1/mcp/token/create',
    body: z.object({
      name: text().trim().min(1).max(50),
      /** ISO 8601; null or absent: never expires. */
      expires_at: z.iso.datetime({ offset: true }).nullable().optional(),
    }),
    data: mcpTokenSchema.extend({ token: text() }),
    auth: true,
    summary: 'Create an access token for the MCP endpoint; the token is shown only now',
    tag,
  }),
  tokenList: defineRoute({
    path: '/api/athena/v1/mcp/token/list',
    body: emptyBody,
    data: z.object({ items: z.array(mcpTokenSchema) }),
    auth: true,
    summary: "The team's MCP access tokens, newest first",
    tag,
  }),
  tokenRevoke: defineRoute({
    path: '/api/athena/v1/mcp/token/revoke',
    body: z.object({ id }),
    data: z.null(),
    auth: true,
    summary: 'Revoke an MCP access token at once',
    tag,
  }),
  toolCandidates: defineRoute({
    path: '/api/athena/v1/mcp/tool/candidates',
    body: emptyBody,
    data: z.object({ items: z.array(mcpCandidateSchema) }),
    auth: true,
    summary: 'Knowledge bases, effective workflows and agents the team could expose, with their input schema',
    tag,
  }),
  toolAdd: defineRoute({
    path: '/api/athena/v1/mcp/tool/add',
    body: z.object({
      kind: z.enum(MCP_TOOL_KINDS),
      target_id: id,
      name: toolName.optional(),
      description: description.optional(),
    }),
    data: mcpToolSchema,
    auth: true,
    summary: 'Expose a knowledge base, an effective workflow or an agent as a tool',
    tag,
  }),
  toolUpdate: defineRoute({
    path: '/api/athena/v1/mcp/tool/update',
    body: z.object({ id, name: toolName, description }),
    data: mcpToolSchema,
    auth: true,
    summary: "Change a tool's name and description",
    tag,
  }),
  toolRemove: defineRoute({
    path: '/api/athena/v1/mcp/tool/remove',
    body: z.object({ id }),
    data: z.null(),
    auth: true,
    summary: 'Stop exposing a tool (its call log stays)',
    tag,
  }),
  toolList: defineRoute({
    path: '/api/athena/v1/mcp/tool/list',
    body: emptyBody,
    data: z.object({ items: z.array(mcpToolSchema) }),
    auth: true,
    summary: 'The exposed tools with their input schema, availability and usage',
    tag,
  }),
  callList: defineRoute({
    path: '/api/athena/v1/mcp/call/list',
    body: z.object({
      tool_id: id.optional(),
      page: z.number().int().min(1).max(10_000).default(1),
      page_size: z.number().int().min(1).max(100).default(20),
    }),
    data: z.object({ items: z.array(mcpCallSchema), total: z.number().int() }),
    auth: true,
    summary: 'Recent tool calls, newest first',
    tag,
  }),
} as const;
