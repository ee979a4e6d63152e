import { z } from 'zod';
import {
  CHAT_LIMITS,
  chatConversationSchema,
  chatCustomerSchema,
  chatHistoryMessageSchema,
  conversationFilterSchema,
  sceneSettingsSchema,
  wecomAccountSchema,
  wecomConnectBody,
} from './chat-history.ts';
import { replySettingsSchema } from './chat-reply-settings.ts';
import { defineRoute } from './envelope.ts';
import { defineStream } from './stream.ts';
import { text } from './text.ts';

/**
 * The chat-history routes and live stream (docs/chat-history.md); the shapes they carry are in
 * chat-history.ts. Every call is scoped to the caller's space and to the scene of its `scene-id`
 * header.
 */

const tag = 'chat-history';
const id = text().min(1).max(64);
const sceneBody = z.object({}).nullish();

export const chatHistoryRoutes = {
  settingsGet: defineRoute({
    path: '/api/athena/v1/chat/settings/get',
    body: sceneBody,
    data: sceneSettingsSchema,
    auth: true,
    summary: "The scene's channels and how many conversations it has (scene from the scene-id header)",
    tag,
  }),
  ingestRotate: defineRoute({
    path: '/api/athena/v1/chat/ingest/rotate',
    body: sceneBody,
    data: z.object({ url: text(), secret: text(), secret_prefix: text() }),
    auth: true,
    summary: "Turns the scene's ingest endpoint on with a new signing secret, shown this once (creator and admins)",
    tag,
  }),
  ingestDisable: defineRoute({
    path: '/api/athena/v1/chat/ingest/disable',
    body: sceneBody,
    data: z.null(),
    auth: true,
    summary: "Turns the scene's ingest endpoint off; its URL and secret stop working (creator and admins)",
    tag,
  }),
  wecomGet: defineRoute({
    path: '/api/athena/v1/chat/wecom/get',
    body: sceneBody,
    data: wecomAccountSchema,
    auth: true,
    summary: "The scene's WeCom customer-service connection (never its credentials)",
    tag,
  }),
  wecomConnect: defineRoute({
    path: '/api/athena/v1/chat/wecom/connect',
    body: wecomConnectBody,
    data: wecomAccountSchema,
    auth: true,
    summary:
      'Connects a WeCom customer-service account to the scene after checking its corp id and secret (creator and admins)',
    tag,
  }),
  wecomDisconnect: defineRoute({
    path: '/api/athena/v1/chat/wecom/disconnect',
    body: sceneBody,
    data: z.null(),
    auth: true,
    summary: "Removes the scene's WeCom connection; stored conversations stay (creator and admins)",
    tag,
  }),
  replyUpdate: defineRoute({
    path: '/api/athena/v1/chat/reply/update',
    body: replySettingsSchema,
    data: sceneSettingsSchema,
    auth: true,
    summary: "How the scene's conversations are answered: mode, agent, hours, fixed scripts (creator and admins)",
    tag,
  }),
  messageSend: defineRoute({
    path: '/api/athena/v1/chat/message/send',
    body: z.object({
      conversation_id: id,
      content: text()
        .trim()
        .min(1, { error: 'CHAT_MESSAGE_EMPTY' })
        .max(CHAT_LIMITS.replyChars, { error: 'CHAT_MESSAGE_TOO_LONG' }),
      /** `ai_assisted` when the text started as the agent's draft. */
      send_type: z.enum(['human', 'ai_assisted']).default('human'),
      /** Made by the client once per message, so a retried send is the same message. */
      client_msg_id: text().regex(/^[A-Za-z0-9_-]{8,64}$/),
    }),
    data: chatHistoryMessageSchema,
    auth: true,
    summary: 'Sends a reply to the customer through the channel; a failure is kept on the message',
    tag,
  }),
  messageDraft: defineRoute({
    path: '/api/athena/v1/chat/message/draft',
    body: z.object({ conversation_id: id }),
    data: z.object({ text: text(), handover: z.boolean() }),
    auth: true,
    summary: "The scene's agent drafts an answer to the conversation, for a person to edit and send",
    tag,
  }),
  messageAiReply: defineRoute({
    path: '/api/athena/v1/chat/message/ai_reply',
    body: z.object({ conversation_id: id }),
    data: chatHistoryMessageSchema,
    auth: true,
    summary: "The scene's agent answers the conversation now and the answer is sent (AI manual)",
    tag,
  }),
  conversationList: defineRoute({
    path: '/api/athena/v1/chat/conversation/list',
    body: conversationFilterSchema.extend({
      cursor: text().max(200).nullable().default(null),
      limit: z.number().int().min(1).max(CHAT_LIMITS.pageSize).default(30),
    }),
    data: z.object({ items: z.array(chatConversationSchema), next_cursor: text().nullable() }),
    auth: true,
    summary: 'Conversations of the scene, newest first, with the chat-history filters',
    tag,
  }),
  conversationGet: defineRoute({
    path: '/api/athena/v1/chat/conversation/get',
    body: z.object({ id }),
    data: chatConversationSchema,
    auth: true,
    summary: 'One conversation',
    tag,
  }),
  conversationRead: defineRoute({
    path: '/api/athena/v1/chat/conversation/read',
    body: z.object({ id }),
    data: z.null(),
    auth: true,
    summary: 'Marks a conversation read (its unread count goes to 0)',
    tag,
  }),
  messageList: defineRoute({
    path: '/api/athena/v1/chat/message/list',
    body: z.object({
      conversation_id: id,
      /** Older than this message; none: the newest page. */
      before_id: id.nullable().default(null),
      /** Newer than this message (catching up after live events were missed); ignored with before_id. */
      after_id: id.nullable().default(null),
      limit: z.number().int().min(1).max(CHAT_LIMITS.pageSize).default(50),
    }),
    data: z.object({ items: z.array(chatHistoryMessageSchema), has_more: z.boolean() }),
    auth: true,
    summary: "A page of a conversation's messages in time order",
    tag,
  }),
  customerSearch: defineRoute({
    path: '/api/athena/v1/chat/customer/search',
    body: z.object({ keyword: text().trim().max(CHAT_LIMITS.keyword).default('') }),
    data: z.object({ items: z.array(chatCustomerSchema) }),
    auth: true,
    summary: 'Customers of the scene by name, for the customer filter (20 at most)',
    tag,
  }),
};

/**
 * Live updates of a scene's chat history: `changed` names conversations that got messages (or a
 * recall, a failed send; none named: many did), and a reader refetches those. After a while
 * (CHAT_LIVE_SECONDS) the server says `bye` and ends it; the reader reconnects and refetches.
 */
export const chatLiveStream = defineStream({
  path: '/api/athena/v1/chat/live',
  body: sceneBody,
  events: {
    changed: z.object({ conversation_ids: z.array(text()) }),
    bye: z.object({}),
  },
  framing: 'event',
  end: 'bye',
  auth: true,
  summary: "Live changes to the scene's conversations (server-sent events)",
  tag,
});

/** The ingest endpoint of a scene: `POST <prefix><ingest id>`, signed like workflow webhooks. */
export const CHAT_INGEST_PATH_PREFIX = '/hooks/chat/';

/** WeCom's callback URL of a connection: `GET` for the URL check, `POST` for pushes. */
export const WECOM_CALLBACK_PATH_PREFIX = '/hooks/wecom/';
