import { z } from 'zod';
import { MESSAGE_DISPLAY_TYPES, PARSE_FAILED } from './chat-messages.ts';
import { REPLY_CHARS, replySettingsSchema } from './chat-reply-settings.ts';
import { SCENE_SOURCE } from './scene.ts';
import { text } from './text.ts';

/**
 * Chat history of the customer-service scenes (docs/chat-history.md): conversations and messages
 * that arrive from WeCom customer service or through the signed ingest API, read with the spec's
 * filters. Every call is scoped to the caller's space and to the scene of its `scene-id` header.
 */

/** Who sent a message (requirements.md, Entities): the customer, or one of the ways we reply. */
export const CHAT_SEND_TYPES = ['user', 'ai_full', 'ai_assisted', 'human', 'ai_manual', 'fixed'] as const;
export type ChatSendType = (typeof CHAT_SEND_TYPES)[number];

export const CHAT_TYPES = ['private', 'group'] as const;
export type ChatType = (typeof CHAT_TYPES)[number];

/**
 * The send-type filter's options by scene (requirements.md, Limits): the WeCom customer-service
 * scene has all seven; scenes 19 and 10 have all, customer and AI full. Scenes the spec does not
 * name get the short list, since their channels report only customers' and AI messages.
 * `''` is "all".
 */
export const SEND_TYPE_OPTIONS_FULL = ['', 'user', 'human', 'ai_full', 'ai_assisted', 'ai_manual', 'fixed'] as const;
export const SEND_TYPE_OPTIONS_SHORT = ['', 'user', 'ai_full'] as const;
export const sendTypeOptionsOf = (sceneId: number): readonly ('' | ChatSendType)[] =>
  sceneId === SCENE_SOURCE.quntool || sceneId === SCENE_SOURCE.wxkf ? SEND_TYPE_OPTIONS_FULL : SEND_TYPE_OPTIONS_SHORT;

/** The time filters (requirements.md, Limits): the last hour, 24 hours, 7, 14, 30, 90 days, or a range. */
export const TIME_FILTERS = ['1h', '24h', '7d', '14d', '30d', '90d', 'custom'] as const;
export type TimeFilter = (typeof TIME_FILTERS)[number];
export const TIME_FILTER_MS: Record<Exclude<TimeFilter, 'custom'>, number> = {
  '1h': 3_600_000,
  '24h': 86_400_000,
  '7d': 7 * 86_400_000,
  '14d': 14 * 86_400_000,
  '30d': 30 * 86_400_000,
  '90d': 90 * 86_400_000,
};

/** Scenes whose messages come in through the ingest API: every source but the agent and "undefined". */
export const INGEST_SCENES: readonly number[] = Object.values(SCENE_SOURCE).filter(
  (value) => value !== SCENE_SOURCE.agent && value !== SCENE_SOURCE.undefined,
);

export const CHAT_LIMITS = {
  /** Messages in one ingest call; a larger batch is refused whole. */
  ingestBatch: 1_000,
  /** Bytes of one ingest call's body. */
  ingestBodyBytes: 4 * 1024 * 1024,
  /** Characters of a message's text. */
  content: 20_000,
  keyword: 100,
  pageSize: 100,
  replyChars: REPLY_CHARS,
  /** Ingest calls one address (IPv6: its /64) may make per minute, counted before the signature is checked. */
  ingestCallsPerAddressPerMinute: 3_000,
} as const;

const id = text().min(1).max(64);
const shortText = (max: number) => text().max(max);
const httpUrl = text()
  .max(2_000)
  .refine((value) => /^https?:\/\/[^\s]+$/i.test(value), { error: 'CHAT_URL_INVALID' });

/**
 * What a message carries besides its text, by display type: a picture's or a file's address and
 * size, a card's title and link, a place, a mini program, a menu's choices, the records of a
 * merged chat. Every field is optional; what is missing is shown as missing.
 */
export const chatPayloadSchema = z
  .object({
    url: httpUrl,
    thumb_url: httpUrl,
    title: shortText(500),
    description: shortText(2_000),
    file_name: shortText(500),
    file_size: z.number().int().min(0).max(1e13),
    duration_s: z.number().min(0).max(1e7),
    width: z.number().int().min(0).max(1e5),
    height: z.number().int().min(0).max(1e5),
    latitude: z.number().min(-90).max(90),
    longitude: z.number().min(-180).max(180),
    address: shortText(500),
    app_name: shortText(200),
    page_path: shortText(1_000),
    /** On a customer's text: the id of the menu item they tapped (WeCom text `menu_id`). */
    menu_id: shortText(128),
    /** A menu the customer can tap (WeCom msgmenu). */
    menu: z.object({
      head: shortText(1_000).default(''),
      items: z.array(z.object({ id: shortText(128), content: shortText(500) })).max(20),
      tail: shortText(1_000).default(''),
    }),
    /** A merged chat record: its messages in order. */
    records: z
      .array(
        z.object({
          sender: shortText(200),
          content: shortText(5_000),
          display_type: z.enum(MESSAGE_DISPLAY_TYPES),
          at: z.number().int().nullable().default(null),
        }),
      )
      .max(200),
  })
  .partial();
export type ChatPayload = z.infer<typeof chatPayloadSchema>;

/** The last millisecond of the year 9999: later times are not dates the database stores. */
const MAX_TIME_MS = 253_402_300_799_999;

/** A time range: one of the presets, or `custom` with `from` and `to` (unix milliseconds). */
export const timeRangeSchema = z
  .object({
    preset: z.enum(TIME_FILTERS),
    from: z.number().int().min(0).max(MAX_TIME_MS).nullable().default(null),
    to: z.number().int().min(0).max(MAX_TIME_MS).nullable().default(null),
  })
  .refine(
    (range) => range.preset !== 'custom' || (range.from !== null && range.to !== null && range.from <= range.to),
    {
      error: 'CHAT_TIME_RANGE_INVALID',
    },
  );

export type TimeRange = z.infer<typeof timeRangeSchema>;

/** The window a time range means at `nowMs`, in unix milliseconds; `to` null is open-ended. */
export function timeWindowOf(range: TimeRange, nowMs: number): { from: number; to: number | null } {
  if (range.preset === 'custom') return { from: range.from ?? 0, to: range.to ?? nowMs };
  return { from: nowMs - TIME_FILTER_MS[range.preset], to: null };
}

export const conversationFilterSchema = z.object({
  chat_type: z.enum(['', ...CHAT_TYPES]).default(''),
  send_type: z.enum(['', ...CHAT_SEND_TYPES]).default(''),
  time: timeRangeSchema.nullable().default(null),
  keyword: text().trim().max(CHAT_LIMITS.keyword, { error: 'CHAT_KEYWORD_TOO_LONG' }).default(''),
  customer_id: id.nullable().default(null),
});
export type ConversationFilter = z.infer<typeof conversationFilterSchema>;

export const HANDLER_STATES = ['none', 'ai', 'waiting', 'human', 'ended'] as const;

export const chatCustomerSchema = z.object({
  id: text(),
  name: text(),
  avatar_url: text().nullable(),
  /** The channel's own id of the customer (WeCom's external_userid): tells two customers of one name apart. */
  source_id: text(),
});
export type ChatCustomer = z.infer<typeof chatCustomerSchema>;

const messagePreviewSchema = z.object({
  id: text(),
  display_type: z.enum(MESSAGE_DISPLAY_TYPES),
  send_type: z.enum(CHAT_SEND_TYPES),
  preview: text(),
  at: text(),
});

export const chatConversationSchema = z.object({
  id: text(),
  scene_id: z.number().int(),
  chat_type: z.enum(CHAT_TYPES),
  title: text(),
  channel: z.object({ id: text(), name: text() }),
  customer: chatCustomerSchema.nullable(),
  last_message: messagePreviewSchema.nullable(),
  /** With a keyword or send-type filter: the newest message that matched, to open the thread at. */
  matched: messagePreviewSchema.nullable(),
  unread: z.number().int(),
  message_count: z.number().int(),
  /** Who handles it now: nobody yet, the AI, waiting for a person, a person (servicer), or ended. */
  handler: z.object({ state: z.enum(HANDLER_STATES), servicer: text().nullable() }),
  last_message_at: text(),
});
export type ChatConversation = z.infer<typeof chatConversationSchema>;

export const CHAT_MESSAGE_STATUSES = ['received', 'sending', 'sent', 'failed'] as const;

export const chatHistoryMessageSchema = z.object({
  id: text(),
  conversation_id: text(),
  send_type: z.enum(CHAT_SEND_TYPES),
  sender_name: text(),
  display_type: z.enum(MESSAGE_DISPLAY_TYPES),
  /** What the source called it: a kind code (`11041`, `ParseFailed`) or a WeCom msgtype (`wecom:text`). */
  source_kind: text(),
  content: text(),
  payload: chatPayloadSchema,
  status: z.enum(CHAT_MESSAGE_STATUSES),
  fail_reason: text().nullable(),
  /**
   * A channel's media (WeCom's images, voice, video, files): `pending` while it is copied to our
   * storage, `stored` once `media_url` serves it, or `failed` with `media_error`. `none` when the
   * message carries no media of the channel's (an ingest message's media is at `payload.url`).
   */
  media_state: z.enum(['none', 'pending', 'stored', 'failed']),
  media_error: text().nullable(),
  /** Our copy of the media: a signed URL on this server, good for an hour or more. */
  media_url: text().nullable(),
  recalled: z.boolean(),
  sent_at: text(),
});
export type ChatHistoryMessage = z.infer<typeof chatHistoryMessageSchema>;

/** One message of an ingest batch (docs/chat-ingest.md). */
export const ingestMessageSchema = z.object({
  msg_id: text().min(1).max(128),
  conversation: z.object({
    id: text().min(1).max(128),
    chat_type: z.enum(CHAT_TYPES).default('private'),
    /** A group's name; a private chat is named after its customer. */
    name: shortText(200).default(''),
  }),
  customer: z
    .object({
      id: text().min(1).max(128),
      name: shortText(100).default(''),
      avatar_url: httpUrl.nullable().default(null),
    })
    .nullable()
    .default(null),
  /** The account of ours the conversation is with (a robot, a shop, a mailbox). */
  channel: z
    .object({ id: text().min(1).max(128), name: shortText(100).default('') })
    .nullable()
    .default(null),
  send_type: z.enum(CHAT_SEND_TYPES),
  sender_name: shortText(100).default(''),
  kind: z.union([z.number().int().min(0).max(1e9), z.literal(PARSE_FAILED)]),
  content: shortText(CHAT_LIMITS.content).default(''),
  payload: chatPayloadSchema.default({}),
  /** Unix milliseconds. */
  sent_at: z.number().int().min(0).max(1e14),
  recalled: z.boolean().default(false),
});
export type IngestMessage = z.infer<typeof ingestMessageSchema>;

export const ingestBatchSchema = z.object({ messages: z.array(ingestMessageSchema).min(1) });

export const sceneSettingsSchema = z.object({
  scene_id: z.number().int(),
  send_type_options: z.array(z.enum(['', ...CHAT_SEND_TYPES])),
  conversation_count: z.number().int(),
  ingest: z.object({
    enabled: z.boolean(),
    url: text().nullable(),
    /** The secret's first characters, to tell which one a sender has; the secret is shown once. */
    secret_prefix: text().nullable(),
    last_received_at: text().nullable(),
  }),
  reply: replySettingsSchema,
  /** Whether people and the AI can send in this scene (a connected WeCom account). */
  can_send: z.boolean(),
});
export type SceneSettings = z.infer<typeof sceneSettingsSchema>;

/** The scenes a WeCom customer-service account can feed: the WeCom default (5) and wxkf (1). */
export const WECOM_SCENES: readonly number[] = [SCENE_SOURCE.quntool, SCENE_SOURCE.wxkf];

/** A WeCom customer-service connection as its team sees it; credentials are never sent back. */
export const wecomAccountSchema = z.object({
  connected: z.boolean(),
  corp_id: text().nullable(),
  /** Paste into WeCom: 微信客服 → API → 回调 URL. */
  callback_url: text().nullable(),
  /** When WeCom last checked the callback URL and got the right answer. */
  verified_at: text().nullable(),
  last_pull_at: text().nullable(),
  /** The last pull's failure, in words a person can act on (wrong secret, …); null when it worked. */
  last_error: text().nullable(),
});
export type WecomAccount = z.infer<typeof wecomAccountSchema>;

/** Field names as WeCom's admin console labels them (corpid, Secret, Token, EncodingAESKey). */
export const wecomConnectBody = z.object({
  corpid: text()
    .trim()
    .regex(/^[A-Za-z0-9]{6,64}$/, { error: 'CHAT_WECOM_CORP_ID_INVALID' }),
  secret: text()
    .trim()
    .regex(/^[\x21-\x7e]{8,128}$/, { error: 'CHAT_WECOM_SECRET_INVALID' }),
  /** The callback Token: WeCom allows English letters and digits, at most 32. */
  callback_token: text()
    .trim()
    .regex(/^[A-Za-z0-9]{1,32}$/, { error: 'CHAT_WECOM_TOKEN_INVALID' }),
  encoding_aes_key: text()
    .trim()
    .regex(/^[A-Za-z0-9+/]{43}$/, { error: 'CHAT_WECOM_AES_KEY_INVALID' }),
});
