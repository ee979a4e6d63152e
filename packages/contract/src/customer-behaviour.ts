import { z } from 'zod';
import { TIME_FILTERS } from './chat-history.ts';
import { MESSAGE_DISPLAY_TYPES } from './chat-messages.ts';
import { defineRoute } from './envelope.ts';
import type { Language } from './languages.ts';
import { isStorableJson, text } from './text.ts';

/**
 * What customers did besides writing (docs/user-profiles.md, Behaviour data) and what they said of
 * the service (Satisfaction). Behaviour events are derived from what chat history stores (menu
 * taps, WeCom shop orders, WeCom sessions starting and ending) or pushed by a channel, signed like
 * the chat ingest API (docs/chat-ingest.md, Behaviour events). Scoped like every profile call: the
 * caller's space and the scene of the `scene-id` header.
 */

const tag = 'user-profile';
const base = (action: string) => `/api/athena/v1/profile/${action}`;

export const BEHAVIOUR_KINDS = [
  'session_start',
  'session_end',
  'menu_click',
  'link_open',
  'order',
  'purchase',
  'custom',
] as const;
export type BehaviourKind = (typeof BEHAVIOUR_KINDS)[number];

/** Where an event came from: derived from stored messages and events, or pushed by the channel. */
export const BEHAVIOUR_ORIGINS = ['chat', 'push'] as const;

export const BEHAVIOUR_LIMITS = {
  /** Events in one push (a bigger batch is refused whole, like a chat ingest batch). */
  pushBatch: 500,
  eventId: 128,
  name: 200,
  /** Bytes of an event's `detail` as JSON. */
  detailBytes: 4_000,
  pageSize: 100,
} as const;

export const SATISFACTION_LIMITS = {
  head: 200,
  label: 20,
  /** A menu reply counts within this many days of the question. */
  replyDays: 7,
  pageSize: 100,
} as const;

export const SATISFACTION_STATES = ['sent', 'failed', 'rated'] as const;
export type SatisfactionState = (typeof SATISFACTION_STATES)[number];

/** The menu item id a survey's choice carries (WeCom click ids are at most 128 bytes). */
export const satisfactionMenuId = (surveyId: number | string, score: number) => `sat:${surveyId}:${score}`;
export const SATISFACTION_MENU_ID = /^sat:(\d{1,18}):([1-5])$/;

/** The question when a scene has not written its own, in the language of whoever turns it on. */
export const SATISFACTION_DEFAULTS: Record<Language, { head: string; labels: string[] }> = {
  'zh-CN': { head: '请对本次服务进行评价', labels: ['非常满意', '满意', '一般', '不满意', '非常不满意'] },
  'zh-TW': { head: '請對本次服務進行評價', labels: ['非常滿意', '滿意', '一般', '不滿意', '非常不滿意'] },
  en: {
    head: 'How satisfied are you with our service?',
    labels: ['Very satisfied', 'Satisfied', 'Neutral', 'Dissatisfied', 'Very dissatisfied'],
  },
};

const MAX_TIME_MS = 253_402_300_799_999;
const timeMs = z.number().int().min(0).max(MAX_TIME_MS);
const customerId = text().regex(/^\d{1,18}$/, { error: 'NOT_FOUND' });

export const behaviourEventSchema = z.object({
  id: text(),
  kind: z.enum(BEHAVIOUR_KINDS),
  origin: z.enum(BEHAVIOUR_ORIGINS),
  name: text(),
  /** What the channel or the message said besides (a link's url, an order's state, …). */
  detail: z.record(z.string(), z.unknown()),
  /** An order's or purchase's amount in fen (cents); null when none. */
  amount_fen: z.number().int().nullable(),
  conversation_id: text().nullable(),
  message_id: text().nullable(),
  occurred_at: text(),
});
export type BehaviourEvent = z.infer<typeof behaviourEventSchema>;

/** One event of a channel's push (docs/chat-ingest.md, Behaviour events). */
export const behaviourPushEventSchema = z.object({
  /** The channel's id of the event: the same id again is the same event (stored once). */
  event_id: text().min(1).max(BEHAVIOUR_LIMITS.eventId),
  /** The channel's id of the customer, as in chat ingest's `customer.id`. */
  customer_id: text().min(1).max(64),
  kind: z.enum(BEHAVIOUR_KINDS),
  name: text().max(BEHAVIOUR_LIMITS.name).default(''),
  occurred_at: timeMs,
  url: text()
    .max(2_000)
    .refine((value) => /^https?:\/\/[^\s]+$/i.test(value), { error: 'CHAT_URL_INVALID' })
    .optional(),
  /** Fen (cents), a whole number: 12.50 yuan is 1250. */
  amount_fen: z.number().int().min(0).max(1e13).optional(),
  detail: z
    .record(z.string(), z.unknown())
    .refine((value) => JSON.stringify(value).length <= BEHAVIOUR_LIMITS.detailBytes, {
      error: `detail: at most ${BEHAVIOUR_LIMITS.detailBytes} characters as JSON`,
    })
    .refine((value) => isStorableJson(value), { error: 'TEXT_UNSTORABLE' })
    .optional(),
});
export type BehaviourPushEvent = z.infer<typeof behaviourPushEventSchema>;
export const behaviourPushSchema = z.object({ events: z.array(behaviourPushEventSchema).min(1) });
export const BEHAVIOUR_PUSH_SUFFIX = '/behaviour';

const satisfactionOptionSchema = z.object({
  score: z.number().int().min(1).max(5),
  label: text()
    .trim()
    .min(1, { error: 'SATISFACTION_SETTINGS_INVALID' })
    .max(SATISFACTION_LIMITS.label, { error: 'SATISFACTION_SETTINGS_INVALID' }),
});

export const satisfactionSettingsSchema = z.object({
  enabled: z.boolean(),
  head: text(),
  /** Best first, as the menu shows them. */
  options: z.array(z.object({ score: z.number().int(), label: text() })),
  updated_at: text().nullable(),
});
export type SatisfactionSettings = z.infer<typeof satisfactionSettingsSchema>;

export const satisfactionSurveySchema = z.object({
  id: text(),
  conversation_id: text(),
  conversation_title: text(),
  customer_id: text().nullable(),
  customer_name: text(),
  servicer: text().nullable(),
  agent_id: text().nullable(),
  agent_name: text(),
  state: z.enum(SATISFACTION_STATES),
  fail_reason: text().nullable(),
  score: z.number().int().nullable(),
  /** The option's label the customer chose, as the scene's settings name it now. */
  label: text().nullable(),
  requested_at: text(),
  rated_at: text().nullable(),
});
export type SatisfactionSurvey = z.infer<typeof satisfactionSurveySchema>;

const satisfactionFilter = {
  customer_id: customerId.optional(),
  /** Requested within: chat history's time filters; `custom` needs start_time and end_time. */
  time: z.enum(TIME_FILTERS).optional(),
  start_time: timeMs.optional(),
  end_time: timeMs.optional(),
  servicer: text().max(100).optional(),
  agent_id: text().max(64).optional(),
  score: z.number().int().min(1).max(5).optional(),
};

export const SATISFACTION_GROUPS = ['conversation', 'agent', 'servicer'] as const;

const summaryFigures = {
  /** Surveys asked (sent, failed or rated). */
  asked: z.number().int(),
  rated: z.number().int(),
  /** The mean score of the rated ones, two decimals; null when none is rated. */
  average: z.number().nullable(),
  /** Rated surveys by score: index 0 is score 1. */
  distribution: z.array(z.number().int()).length(5),
};

export const behaviourRoutes = {
  behaviourList: defineRoute({
    path: base('behaviour/list'),
    body: z.object({
      customer_id: customerId,
      kind: z.enum(BEHAVIOUR_KINDS).optional(),
      page: z.number().int().min(1).default(1),
      page_size: z.number().int().min(1).max(BEHAVIOUR_LIMITS.pageSize).default(20),
    }),
    data: z.object({
      items: z.array(behaviourEventSchema),
      total: z.number().int(),
      /** The customer's messages by display type, in all their conversations (recalled ones too). */
      message_counts: z.array(z.object({ display_type: z.enum(MESSAGE_DISPLAY_TYPES), count: z.number().int() })),
    }),
    auth: true,
    summary: "A customer's behaviour events, newest first, and their messages counted by type",
    tag,
  }),
  satisfactionSettingsGet: defineRoute({
    path: base('satisfaction/settings/get'),
    body: z.object({}).nullish(),
    data: satisfactionSettingsSchema,
    auth: true,
    summary: "The scene's satisfaction question: on or off, its text and its options",
    tag,
  }),
  satisfactionSettingsUpdate: defineRoute({
    path: base('satisfaction/settings/update'),
    body: z.object({
      enabled: z.boolean(),
      head: text()
        .trim()
        .min(1, { error: 'SATISFACTION_SETTINGS_INVALID' })
        .max(SATISFACTION_LIMITS.head, { error: 'SATISFACTION_SETTINGS_INVALID' }),
      options: z
        .array(satisfactionOptionSchema)
        .min(2, { error: 'SATISFACTION_SETTINGS_INVALID' })
        .max(5, { error: 'SATISFACTION_SETTINGS_INVALID' }),
    }),
    data: satisfactionSettingsSchema,
    auth: true,
    summary: 'Turn the satisfaction question on or off and word it (creator and admins)',
    tag,
  }),
  satisfactionList: defineRoute({
    path: base('satisfaction/list'),
    body: z.object({
      ...satisfactionFilter,
      page: z.number().int().min(1).default(1),
      page_size: z.number().int().min(1).max(SATISFACTION_LIMITS.pageSize).default(20),
    }),
    data: z.object({ items: z.array(satisfactionSurveySchema), total: z.number().int() }),
    auth: true,
    summary: "The scene's satisfaction surveys (or one customer's), newest first",
    tag,
  }),
  satisfactionSummary: defineRoute({
    path: base('satisfaction/summary'),
    body: z.object({ ...satisfactionFilter, group_by: z.enum(SATISFACTION_GROUPS).optional() }),
    data: z.object({
      ...summaryFigures,
      /** With `group_by`: the figures per conversation, agent or servicer, most asked first (at most 100). */
      groups: z.array(z.object({ key: text(), label: text(), ...summaryFigures })),
    }),
    auth: true,
    summary:
      'Satisfaction figures: asked, rated, average and distribution, optionally per conversation, agent or servicer',
    tag,
  }),
};
