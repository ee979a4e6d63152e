import { z } from 'zod';
import { defineRoute } from './envelope.ts';
import { citationSchema } from './knowledge.ts';
import { defineStream, type StreamDescriptor, streamErrorSchema } from './stream.ts';
import { OPENAI_STREAM_DONE, openAIChatRequest, openAIChunkSchema, openAIErrorSchema } from './stream-openai.ts';
import { text } from './text.ts';

const tag = 'agent';
const id = text().min(1).max(64);

export const agentParamsSchema = z.object({
  temperature: z.number().min(0).max(2).default(0.7),
  max_tokens: z.number().int().min(1).max(32_000).nullable().default(null),
});

/** Tools of the team's external MCP servers an agent may call while it answers. */
export const AGENT_MCP_TOOLS_MAX = 20;

/** An agent's MCP tool as its attachments name it: `<external server id>:<tool name>`. */
export const agentMcpToolRef = (serverId: string, tool: string) => `${serverId}:${tool}`;

/** The server id and tool name of an attachment (null when it is not of that form). */
export function parseAgentMcpToolRef(ref: string): { serverId: string; tool: string } | null {
  const at = ref.indexOf(':');
  if (at <= 0 || at === ref.length - 1) return null;
  return { serverId: ref.slice(0, at), tool: ref.slice(at + 1) };
}

/** What an agent can draw on: knowledge bases (cited answers) and external MCP tools (docs/mcp.md). */
export const agentAttachmentsSchema = z.object({
  knowledge_ids: z.array(text()).default([]),
  workflow_ids: z.array(text()).default([]),
  /** `<external server id>:<tool name>` (agentMcpToolRef), at most AGENT_MCP_TOOLS_MAX. */
  mcp_tools: z.array(text().min(3).max(300)).max(AGENT_MCP_TOOLS_MAX).default([]),
});

/**
 * A tool the agent called while answering: `running` while it runs, then `ok` or `error` with what
 * it answered (cut at 4 000 characters). The model then answers with what the tool said.
 */
export const agentToolStepSchema = z.object({
  /** The model's id of the call (the same in the `running` and the finished event). */
  id: text(),
  server_id: text(),
  server_name: text(),
  tool: text(),
  /** The arguments as the model wrote them (JSON text, cut at 4 000 characters). */
  arguments: text(),
  status: z.enum(['running', 'ok', 'error']),
  output: text(),
  duration_ms: z.number().int().nullable(),
});
export type AgentToolStep = z.infer<typeof agentToolStepSchema>;

export const agentNameField = text({ error: 'AGENT_NAME_REQUIRED' })
  .trim()
  .min(1, { error: 'AGENT_NAME_REQUIRED' })
  .max(50, { error: 'AGENT_NAME_TOO_LONG' });

const agentFields = {
  name: agentNameField,
  avatar_url: text().max(500).nullable().default(null),
  description: text().trim().max(500).default(''),
  system_prompt: text().max(20_000).default(''),
  opening_message: text().max(2_000).default(''),
  suggested_questions: z.array(text().trim().min(1).max(200)).max(5).default([]),
  /** null: the space's default chat key. */
  model_key_id: text().max(64).nullable().default(null),
  params: agentParamsSchema.default({ temperature: 0.7, max_tokens: null }),
  attachments: agentAttachmentsSchema.default({ knowledge_ids: [], workflow_ids: [], mcp_tools: [] }),
};

export const agentSchema = z.object({
  id: text(),
  /** The `model` name for the OpenAI-compatible API. */
  public_id: text(),
  name: text(),
  avatar_url: text().nullable(),
  description: text(),
  system_prompt: text(),
  opening_message: text(),
  suggested_questions: z.array(text()),
  model_key_id: text().nullable(),
  params: agentParamsSchema,
  attachments: agentAttachmentsSchema,
  share: z.object({ enabled: z.boolean(), url: text().nullable() }),
  created_by: z.object({ id: text(), nickname: text(), former_member: z.boolean() }),
  created_at: text(),
  updated_at: text(),
});
export type Agent = z.infer<typeof agentSchema>;

/**
 * `interrupted`: the server stopped (a restart or a crash) while the answer was streaming; what had
 * arrived is kept.
 */
export const MESSAGE_STATUSES = ['complete', 'streaming', 'stopped', 'error', 'interrupted'] as const;
export const messageSchema = z.object({
  id: text(),
  role: z.enum(['user', 'assistant']),
  content: text(),
  status: z.enum(MESSAGE_STATUSES),
  /** A catalogue key when the model failed (e.g. MODEL_CALL_FAILED), for the chat to explain. */
  error: text().nullable(),
  /** Knowledge-base sources the answer cites as [n]; empty without attached knowledge bases. */
  citations: z.array(citationSchema),
  /** The MCP tools the answer called, in order (empty without attached MCP tools). */
  steps: z.array(agentToolStepSchema),
  created_at: text(),
});
export type ChatMessage = z.infer<typeof messageSchema>;

export const conversationSchema = z.object({ id: text(), title: text(), updated_at: text() });

export const apiKeySchema = z.object({
  id: text(),
  name: text(),
  /** The first characters, to recognise a key; the key itself is shown once at creation. */
  prefix: text(),
  created_at: text(),
  last_used_at: text().nullable(),
  use_count: z.number().int(),
  revoked: z.boolean(),
});

export const chatRequest = z.object({
  agent_id: id,
  conversation_id: id.optional(),
  message: text().trim().min(1, { error: 'MESSAGE_REQUIRED' }).max(20_000).optional(),
  /** Answer the last question again instead of sending a new one. */
  regenerate: z.boolean().default(false),
});
export const shareChatRequest = z.object({
  code: text().min(1).max(64),
  /** A random id the share page keeps in the visitor's browser. */
  visitor_id: text().min(8).max(64),
  conversation_id: id.optional(),
  message: text().trim().min(1, { error: 'MESSAGE_REQUIRED' }).max(4_000),
});

/**
 * The events of a chat turn, in the order they come: `start`, `citations` (only when attached
 * knowledge bases found something, always before the first `delta`), `tool` (twice per MCP tool
 * call the model makes: running, then finished), `delta` (many), then
 * `usage`, or `error` when the turn failed; `end` last. A stopped turn (the reader went away)
 * gets no more events.
 */
export const chatStreamEvents = {
  start: z.object({ conversation_id: text(), message_id: text() }),
  citations: z.object({ items: z.array(citationSchema) }),
  /** The next piece of the answer. */
  delta: z.object({ text: text() }),
  /** A tool call starting (`running`) or finished (same `id`); before the text that uses it. */
  tool: agentToolStepSchema,
  usage: z.object({ input_tokens: z.number().int(), output_tokens: z.number().int() }),
  /**
   * MODEL_CALL_FAILED with `kind`, the gateway's failure class (one of TEST_FAILURE_KINDS); or
   * SYSTEM_ERROR with kind `storage` when the answer could not be saved; or SERVER_RESTARTING
   * with kind `shutdown` when the server stopped before the answer did (the answer is then
   * `interrupted`). `msg` says it in words.
   */
  error: streamErrorSchema(['MODEL_CALL_FAILED', 'SYSTEM_ERROR', 'SERVER_RESTARTING'], { kind: text() }),
  /** `error` when the turn failed; what streamed before the failure is kept. */
  end: z.object({ status: z.enum(['complete', 'error']) }),
};
type ChatStreamEvents = typeof chatStreamEvents;
/** Any stream that speaks the chat events (the playground's and the share page's). */
export type ChatStreamDescriptor = StreamDescriptor<z.ZodType, ChatStreamEvents>;

/** Every stream the server has; the server writes them and the web client reads them from these. */
export const agentStreams = {
  chat: defineStream({
    path: '/api/athena/v1/agent/chat',
    body: chatRequest,
    events: chatStreamEvents,
    framing: 'event',
    end: 'end',
    auth: true,
    summary: 'Chat with an agent; answers stream as server-sent events (see the contract)',
    tag,
  }),
  shareChat: defineStream({
    path: '/api/athena/v1/share/chat',
    body: shareChatRequest,
    events: chatStreamEvents,
    framing: 'event',
    end: 'end',
    auth: false,
    summary: 'Chat on a public share page (no sign-in, rate-limited per visitor)',
    tag,
  }),
  /** OpenAI's own format, which its client libraries parse: only `data:` lines, then `[DONE]`. */
  completions: defineStream({
    path: '/v1/chat/completions',
    body: openAIChatRequest,
    events: { chunk: openAIChunkSchema, error: openAIErrorSchema },
    framing: 'data',
    done: OPENAI_STREAM_DONE,
    auth: 'api_key',
    summary: 'OpenAI-compatible chat completions with a published agent (`model`: its public id)',
    tag,
  }),
} as const;

export const agentRoutes = {
  list: defineRoute({
    path: '/api/athena/v1/agent/list',
    body: z.object({ keyword: text().trim().max(50).optional() }).nullish(),
    data: z.object({ items: z.array(agentSchema) }),
    auth: true,
    summary: 'Agents of the current space',
    tag,
  }),
  get: defineRoute({
    path: '/api/athena/v1/agent/get',
    body: z.object({ id }),
    data: agentSchema,
    auth: true,
    summary: 'One agent',
    tag,
  }),
  create: defineRoute({
    path: '/api/athena/v1/agent/create',
    body: z.object(agentFields),
    data: agentSchema,
    auth: true,
    summary: 'Create an agent',
    tag,
  }),
  update: defineRoute({
    path: '/api/athena/v1/agent/update',
    body: z.object({ id, ...agentFields }),
    data: agentSchema,
    auth: true,
    summary: 'Change an agent (all fields)',
    tag,
  }),
  duplicate: defineRoute({
    path: '/api/athena/v1/agent/duplicate',
    body: z.object({ id }),
    data: agentSchema,
    auth: true,
    summary: 'Copy an agent (not its publishing)',
    tag,
  }),
  delete: defineRoute({
    path: '/api/athena/v1/agent/delete',
    body: z.object({ id }),
    data: z.null(),
    auth: true,
    summary: 'Delete an agent, its conversations, share link and API keys',
    tag,
  }),
  conversations: defineRoute({
    path: '/api/athena/v1/agent/conversation/list',
    body: z.object({ agent_id: id }),
    data: z.object({ items: z.array(conversationSchema) }),
    auth: true,
    summary: 'My conversations with an agent, newest first',
    tag,
  }),
  messages: defineRoute({
    path: '/api/athena/v1/agent/conversation/messages',
    body: z.object({ conversation_id: id }),
    data: z.object({ items: z.array(messageSchema) }),
    auth: true,
    summary: 'Messages of one of my conversations',
    tag,
  }),
  renameConversation: defineRoute({
    path: '/api/athena/v1/agent/conversation/rename',
    body: z.object({ id, title: text().trim().min(1).max(100) }),
    data: z.null(),
    auth: true,
    summary: 'Rename a conversation',
    tag,
  }),
  deleteConversation: defineRoute({
    path: '/api/athena/v1/agent/conversation/delete',
    body: z.object({ id }),
    data: z.null(),
    auth: true,
    summary: 'Delete a conversation',
    tag,
  }),
  share: defineRoute({
    path: '/api/athena/v1/agent/share',
    body: z.object({ id, enabled: z.boolean() }),
    data: z.object({ enabled: z.boolean(), url: text().nullable() }),
    auth: true,
    summary: 'Turn the public share link on (a new random link) or off',
    tag,
  }),
  apiKeyCreate: defineRoute({
    path: '/api/athena/v1/agent/api_key/create',
    body: z.object({ agent_id: id, name: text().trim().min(1).max(50) }),
    data: apiKeySchema.extend({ key: text() }),
    auth: true,
    summary: 'Create an API key for /v1/chat/completions; the key is shown only now',
    tag,
  }),
  apiKeyList: defineRoute({
    path: '/api/athena/v1/agent/api_key/list',
    body: z.object({ agent_id: id }),
    data: z.object({ items: z.array(apiKeySchema) }),
    auth: true,
    summary: 'API keys of an agent',
    tag,
  }),
  apiKeyRevoke: defineRoute({
    path: '/api/athena/v1/agent/api_key/revoke',
    body: z.object({ id }),
    data: z.null(),
    auth: true,
    summary: 'Revoke an API key at once',
    tag,
  }),
  apps: defineRoute({
    path: '/api/athena/v1/agent/app/list',
    body: z.object({}).nullish(),
    data: z.object({
      items: z.array(
        z.object({
          agent: agentSchema,
          api_keys: z.number().int(),
          conversations: z.number().int(),
          messages: z.number().int(),
          tokens: z.number().int(),
        }),
      ),
    }),
    auth: true,
    summary: 'Published agents (share link or API key) with their usage',
    tag,
  }),
} as const;

export const shareRoutes = {
  info: defineRoute({
    path: '/api/athena/v1/share/info',
    body: z.object({ code: text().min(1).max(64) }),
    data: z.object({
      name: text(),
      avatar_url: text().nullable(),
      description: text(),
      opening_message: text(),
      suggested_questions: z.array(text()),
    }),
    auth: false,
    summary: 'What a share page shows (no sign-in)',
    tag,
  }),
  messages: defineRoute({
    path: '/api/athena/v1/share/messages',
    body: z.object({ code: text().min(1).max(64), visitor_id: text().min(8).max(64), conversation_id: id }),
    data: z.object({ items: z.array(messageSchema) }),
    auth: false,
    summary: 'A visitor’s own conversation on a share page',
    tag,
  }),
} as const;
