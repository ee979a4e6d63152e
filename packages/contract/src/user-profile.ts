import { z } from 'zod';
import { TIME_FILTERS } from './chat-history.ts';
import { defineRoute } from './envelope.ts';
import type { Language } from './languages.ts';
import { text } from './text.ts';

/**
 * User profiles of the customer-service scenes (docs/user-profiles.md): the team's profile fields
 * (defined once per scene), each customer's values, and every change to a value (by a person, by
 * AI extraction from a conversation, or by a channel). Customers are chat history's customers.
 * Every call is scoped to the caller's space and to the scene of its `scene-id` header.
 */

const tag = 'user-profile';
const base = (action: string) => `/api/athena/v1/profile/${action}`;

export const PROFILE_FIELD_TYPES = ['text', 'number', 'date', 'select'] as const;
export type ProfileFieldType = (typeof PROFILE_FIELD_TYPES)[number];
/** Who changed a value: a member of the team, the AI reading a conversation, or a channel's push. */
export const PROFILE_CHANGE_SOURCES = ['person', 'ai', 'channel'] as const;
export type ProfileChangeSource = (typeof PROFILE_CHANGE_SOURCES)[number];

export const PROFILE_LIMITS = {
  /** Fields per scene: a profile is read by people; hundreds of fields help nobody. */
  fieldsPerScene: 100,
  fieldName: 30,
  fieldDescription: 200,
  /** Choices of a select field, and the characters of each. */
  options: 50,
  option: 50,
  /** Characters of a text value. */
  textValue: 1_000,
  keyword: 100,
  pageSize: 100,
  /** Field conditions in one customer search. */
  conditions: 10,
} as const;

/**
 * What a value of each type must look like, for PROFILE_VALUE_INVALID's `{expected}`; a select's
 * `{options}` lists its choices.
 */
export const PROFILE_EXPECTED_LABELS: Record<Exclude<ProfileFieldType, 'text'>, Record<Language, string>> = {
  number: { 'zh-CN': '应为数字', 'zh-TW': '應為數字', en: 'a number' },
  date: { 'zh-CN': '应为日期，如 2026-01-31', 'zh-TW': '應為日期，如 2026-01-31', en: 'a date like 2026-01-31' },
  select: { 'zh-CN': '应为以下选项之一：{options}', 'zh-TW': '應為以下選項之一：{options}', en: 'one of: {options}' },
};

/** The last millisecond of the year 9999: later times are not dates the database stores. */
const MAX_TIME_MS = 253_402_300_799_999;
const timeMs = z.number().int().min(0).max(MAX_TIME_MS);

const id = text().min(1).max(64);
const customerId = text().regex(/^\d{1,18}$/, { error: 'NOT_FOUND' });
const fieldName = text({ error: 'PROFILE_FIELD_NAME_REQUIRED' })
  .trim()
  .min(1, { error: 'PROFILE_FIELD_NAME_REQUIRED' })
  .max(PROFILE_LIMITS.fieldName, { error: 'PROFILE_FIELD_NAME_TOO_LONG' });
const options = z
  .array(
    text({ error: 'PROFILE_FIELD_OPTIONS_INVALID' })
      .trim()
      .min(1, { error: 'PROFILE_FIELD_OPTIONS_INVALID' })
      .max(PROFILE_LIMITS.option, { error: 'PROFILE_FIELD_OPTIONS_INVALID' }),
  )
  .max(PROFILE_LIMITS.options, { error: 'PROFILE_FIELD_OPTIONS_INVALID' });
/** A value as typed: the server checks it against the field's type (PROFILE_VALUE_INVALID). */
const value = text().max(PROFILE_LIMITS.textValue, { error: 'PROFILE_VALUE_TOO_LONG' });

export const profileFieldSchema = z.object({
  id: text(),
  name: text(),
  type: z.enum(PROFILE_FIELD_TYPES),
  /** The choices of a select field; empty for other types. */
  options: z.array(text()),
  /** A required field cannot be emptied once set (requirements.md: name and content are required). */
  required: z.boolean(),
  /** Filled from conversations by the AI (docs/user-profiles.md, AI extraction). */
  ai_extract: z.boolean(),
  /** Whether the AI may change a value a person set. */
  ai_overwrite: z.boolean(),
  /** What the field means, shown as a hint and given to the AI. */
  description: text(),
  position: z.number().int(),
  created_at: text(),
  updated_at: text(),
});
export type ProfileField = z.infer<typeof profileFieldSchema>;

export const profileValueSchema = z.object({
  field_id: text(),
  /** Canonical text: a number as digits (`12.5`), a date as `YYYY-MM-DD`, a select's option. */
  value: text(),
  source: z.enum(PROFILE_CHANGE_SOURCES),
  updated_by_name: text(),
  updated_at: text(),
});
export type ProfileValue = z.infer<typeof profileValueSchema>;

export const profileCustomerSchema = z.object({
  id: text(),
  name: text(),
  avatar_url: text().nullable(),
  /** The channel's own id of the customer (WeCom's external_userid). */
  source_id: text(),
  first_seen_at: text(),
  /** The last message in any of their conversations; null when none. */
  last_active_at: text().nullable(),
  conversation_count: z.number().int(),
  message_count: z.number().int(),
  values: z.array(profileValueSchema),
});
export type ProfileCustomer = z.infer<typeof profileCustomerSchema>;

export const profileChangeSchema = z.object({
  id: text(),
  field_id: text(),
  field_name: text(),
  old_value: text().nullable(),
  new_value: text().nullable(),
  source: z.enum(PROFILE_CHANGE_SOURCES),
  /** The member who made it; for AI and channel changes, who or what it was attributed to. */
  actor_name: text(),
  /** For an AI change: the message it was read from. */
  message_id: text().nullable(),
  /** Set when this change was undone by a later one (its id). */
  reverted_by: text().nullable(),
  created_at: text(),
});
export type ProfileChange = z.infer<typeof profileChangeSchema>;

/**
 * One AI extraction of a conversation (docs/user-profiles.md, AI extraction): `ok` when the model's
 * answer was read (some values may still have been skipped), `failed` when it could not be read or
 * the model failed (`reason` says why), `unchanged` when there was nothing new to read.
 */
export const PROFILE_EXTRACTION_STATUSES = ['ok', 'failed', 'unchanged'] as const;
export type ProfileExtractionStatus = (typeof PROFILE_EXTRACTION_STATUSES)[number];

export const profileExtractionSchema = z.object({
  status: z.enum(PROFILE_EXTRACTION_STATUSES),
  /** The conversation read; null when the customer has no private conversation. */
  conversation_id: text().nullable(),
  /** The newest message read: the AI changes name it. */
  message_id: text().nullable(),
  /** Values written (each one a change with source `ai`). */
  changed: z.number().int(),
  /** Values the model gave that were already the current ones. */
  unchanged: z.number().int(),
  /** Values that did not fit their field (or named no field that AI fills), not stored. */
  skipped: z.number().int(),
  /** Values a person set, kept because their field does not let the AI overwrite them. */
  kept: z.number().int(),
  reason: text().nullable(),
});
export type ProfileExtraction = z.infer<typeof profileExtractionSchema>;

/**
 * A customer's last AI extraction (of any of their private conversations), as recorded: what it
 * changed and kept, or why it failed. `reason` is the server's words (English, for the records).
 */
export const profileLastExtractionSchema = z.object({
  status: z.enum(['ok', 'failed']),
  conversation_id: text(),
  /** The model version that read it; '' when none could be found. */
  model: text(),
  changed: z.number().int(),
  unchanged: z.number().int(),
  skipped: z.number().int(),
  kept: z.number().int(),
  reason: text().nullable(),
  created_at: text(),
});
export type ProfileLastExtraction = z.infer<typeof profileLastExtractionSchema>;

const fieldSettings = {
  type: z.enum(PROFILE_FIELD_TYPES),
  options: options.default([]),
  required: z.boolean().default(false),
  ai_extract: z.boolean().default(false),
  ai_overwrite: z.boolean().default(false),
  description: text()
    .trim()
    .max(PROFILE_LIMITS.fieldDescription, { error: 'PROFILE_FIELD_DESCRIPTION_TOO_LONG' })
    .default(''),
};

/** The satisfaction filter of the customer search: the customer's latest rating. */
export const PROFILE_SATISFACTION_FILTERS = ['satisfied', 'neutral', 'unsatisfied', 'unrated'] as const;
export type ProfileSatisfactionFilter = (typeof PROFILE_SATISFACTION_FILTERS)[number];

/** "Quiet for at least": customers whose last message is older than that (who to bring back). */
export const PROFILE_INACTIVE_FILTERS = ['7d', '14d', '30d', '90d'] as const;
export type ProfileInactiveFilter = (typeof PROFILE_INACTIVE_FILTERS)[number];

/** One condition of a customer search: a field's value compared with `value`. */
export const profileConditionSchema = z.object({
  field_id: id,
  op: z.enum(['eq', 'contains', 'gte', 'lte', 'empty', 'not_empty']),
  value: value.optional(),
});
export type ProfileCondition = z.infer<typeof profileConditionSchema>;

/** The customer list's filters, all combined with "and". */
export const profileCustomerFilterSchema = z.object({
  /** Matches the name, the channel's id, or any text value. */
  keyword: text().trim().max(PROFILE_LIMITS.keyword).optional(),
  conditions: z.array(profileConditionSchema).max(PROFILE_LIMITS.conditions).default([]),
  last_active: z.enum(TIME_FILTERS).optional(),
  /** Last wrote longer ago than this (never having written matches no time filter). */
  inactive: z.enum(PROFILE_INACTIVE_FILTERS).optional(),
  /** The customer's latest rating: satisfied 4–5, neutral 3, unsatisfied 1–2, or never rated. */
  satisfaction: z.enum(PROFILE_SATISFACTION_FILTERS).optional(),
  /** With `last_active: 'custom'`: the range, unix milliseconds, both required. */
  start_time: timeMs.optional(),
  end_time: timeMs.optional(),
});

export const profileRoutes = {
  fieldList: defineRoute({
    path: base('field/list'),
    body: z.object({}).nullish(),
    data: z.object({ items: z.array(profileFieldSchema) }),
    auth: true,
    summary: "The scene's profile fields, in their order",
    tag,
  }),
  fieldCreate: defineRoute({
    path: base('field/create'),
    body: z.object({ name: fieldName, ...fieldSettings }),
    data: profileFieldSchema,
    auth: true,
    summary: 'Define a profile field; its name is unique in the scene (creator and admins)',
    tag,
  }),
  fieldUpdate: defineRoute({
    path: base('field/update'),
    body: z.object({ id, name: fieldName, ...fieldSettings }),
    data: profileFieldSchema,
    auth: true,
    summary: "Change a field's name, choices, rules or hint; its type stays (creator and admins)",
    tag,
  }),
  fieldDelete: defineRoute({
    path: base('field/delete'),
    body: z.object({ id }),
    data: z.object({ ok: z.literal(true) }),
    auth: true,
    summary: 'Delete a field with its values and their history (creator and admins)',
    tag,
  }),
  fieldReorder: defineRoute({
    path: base('field/reorder'),
    body: z.object({ ids: z.array(id).max(PROFILE_LIMITS.fieldsPerScene) }),
    data: z.object({ items: z.array(profileFieldSchema) }),
    auth: true,
    summary: 'Put the fields in this order (creator and admins)',
    tag,
  }),
  customerList: defineRoute({
    path: base('customer/list'),
    body: profileCustomerFilterSchema.extend({
      page: z.number().int().min(1).default(1),
      page_size: z.number().int().min(1).max(PROFILE_LIMITS.pageSize).default(20),
    }),
    data: z.object({
      items: z.array(profileCustomerSchema),
      total: z.number().int(),
      /** More than 5 000 match: `total` is an estimate ("about"), not a count (customer/count counts). */
      total_estimated: z.boolean(),
    }),
    auth: true,
    summary: "The scene's customers, most recently active first, found by name, values and activity",
    tag,
  }),
  customerCount: defineRoute({
    path: base('customer/count'),
    body: profileCustomerFilterSchema,
    data: z.object({
      /** Every customer the filter finds; null when counting took too long (the list's estimate stands). */
      total: z.number().int().nullable(),
    }),
    auth: true,
    summary: 'Counts the customers a filter finds exactly (what the list estimates beyond 5 000)',
    tag,
  }),
  customerGet: defineRoute({
    path: base('customer/get'),
    body: z.object({ id: customerId }),
    data: profileCustomerSchema,
    auth: true,
    summary: 'One customer with their profile values',
    tag,
  }),
  valueSet: defineRoute({
    path: base('value/set'),
    body: z.object({ customer_id: customerId, field_id: id, value: value.nullable() }),
    data: profileCustomerSchema,
    auth: true,
    summary: "Set or clear (null) one of a customer's values; checked against the field's type",
    tag,
  }),
  history: defineRoute({
    path: base('value/history'),
    body: z.object({
      customer_id: customerId,
      field_id: id.optional(),
      page: z.number().int().min(1).default(1),
      page_size: z.number().int().min(1).max(PROFILE_LIMITS.pageSize).default(50),
    }),
    data: z.object({ items: z.array(profileChangeSchema), total: z.number().int() }),
    auth: true,
    summary: "Every change to a customer's values (or one field's), newest first",
    tag,
  }),
  extract: defineRoute({
    path: base('extract'),
    body: z.object({ customer_id: customerId }),
    data: z.object({ customer: profileCustomerSchema, extraction: profileExtractionSchema }),
    auth: true,
    summary:
      "Let the AI read the customer's most recent conversation now and fill the fields it extracts (as AI changes)",
    tag,
  }),
  extractStatus: defineRoute({
    path: base('extract/status'),
    body: z.object({ customer_id: customerId }),
    data: z.object({ last: profileLastExtractionSchema.nullable() }),
    auth: true,
    summary: "The customer's last AI extraction: when, what it changed and kept, or why it failed (null: never read)",
    tag,
  }),
  revert: defineRoute({
    path: base('value/revert'),
    body: z.object({ change_id: id }),
    data: profileCustomerSchema,
    auth: true,
    summary: 'Undo one change: the value goes back to what it was before it (a new change of its own)',
    tag,
  }),
} as const;
