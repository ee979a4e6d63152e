import { z } from 'zod';
import { defineRoute } from './envelope.ts';
import { text } from './text.ts';
import { profileCustomerFilterSchema } from './user-profile.ts';

/**
 * Activation events (docs/user-profiles.md, Activation events): proactive messages that bring a
 * scene's customers back, written from a template (with `{{field}}` variables from their profile)
 * or by the scene's agent, sent through the scene's channel to an audience, each customer's send
 * going pending → sent or failed with a reason, retried by rule, exactly once per event.
 */

const tag = 'user-profile';
const base = (action: string) => `/api/athena/v1/profile/activation/${action}`;

/** `template`: the body rendered with the customer's values; `agent`: the scene's agent writes it from the body as instruction. */
export const ACTIVATION_MODES = ['template', 'agent'] as const;
export type ActivationMode = (typeof ACTIVATION_MODES)[number];
export const ACTIVATION_EVENT_STATUSES = ['scheduled', 'sending', 'done', 'cancelled'] as const;
export type ActivationEventStatus = (typeof ACTIVATION_EVENT_STATUSES)[number];
export const ACTIVATION_SEND_STATES = ['pending', 'sent', 'failed'] as const;
export type ActivationSendState = (typeof ACTIVATION_SEND_STATES)[number];

/**
 * Why a send failed (or, while pending, why its last attempt did): the code before the first `:`;
 * after it, details (the empty variables, WeCom's errcode and message).
 */
export const ACTIVATION_REASONS = [
  'channel_cannot_send',
  'window_closed',
  'reply_limit_reached',
  'no_conversation',
  'variable_empty',
  'model_failed',
  'wecom_rejected',
  'wecom_unreachable',
  'send_unconfirmed',
  'cancelled',
] as const;
export type ActivationReason = (typeof ACTIVATION_REASONS)[number];

/** The built-in variable; the others are the scene's field names. */
export const ACTIVATION_BUILTIN_VARIABLES = ['customer_name'] as const;

export const ACTIVATION_LIMITS = {
  templateName: 30,
  /** A WeCom text message holds 2 048 bytes; 600 characters of CJK stay within it. */
  body: 600,
  eventName: 50,
  /** Customers of one event: above it, the event is refused (ACTIVATION_AUDIENCE_TOO_LARGE). */
  audience: 20_000,
  /** Customers chosen one by one. */
  customerIds: 1_000,
  /** How far ahead an event may be scheduled. */
  scheduleDays: 90,
  pageSize: 100,
} as const;

const MAX_TIME_MS = 253_402_300_799_999;
const timeMs = z.number().int().min(0).max(MAX_TIME_MS);
const id = text().min(1).max(64);
const customerId = text().regex(/^\d{1,18}$/, { error: 'NOT_FOUND' });
const templateName = text({ error: 'ACTIVATION_NAME_REQUIRED' })
  .trim()
  .min(1, { error: 'ACTIVATION_NAME_REQUIRED' })
  .max(ACTIVATION_LIMITS.templateName, { error: 'ACTIVATION_NAME_TOO_LONG' });
const body = text({ error: 'ACTIVATION_BODY_REQUIRED' })
  .trim()
  .min(1, { error: 'ACTIVATION_BODY_REQUIRED' })
  .max(ACTIVATION_LIMITS.body, { error: 'ACTIVATION_BODY_TOO_LONG' });
const page = {
  page: z.number().int().min(1).default(1),
  page_size: z.number().int().min(1).max(ACTIVATION_LIMITS.pageSize).default(20),
};

export const activationTemplateSchema = z.object({
  id: text(),
  name: text(),
  mode: z.enum(ACTIVATION_MODES),
  /** The text with `{{variables}}` (template), or the instruction to the agent (agent). */
  body: text(),
  /** The variables the body uses, as written. */
  variables: z.array(text()),
  created_at: text(),
  updated_at: text(),
});
export type ActivationTemplate = z.infer<typeof activationTemplateSchema>;

/** Who receives an event: the customers chosen by id, or else those the customer-list filter finds. */
export const activationAudienceSchema = profileCustomerFilterSchema.extend({
  customer_ids: z.array(customerId).max(ACTIVATION_LIMITS.customerIds).optional(),
});
export type ActivationAudience = z.input<typeof activationAudienceSchema>;

const counts = z.object({
  total: z.number().int(),
  pending: z.number().int(),
  sent: z.number().int(),
  failed: z.number().int(),
});

export const activationEventSchema = z.object({
  id: text(),
  name: text(),
  /** The template it was made from; null once that template was deleted (the body is kept). */
  template_id: text().nullable(),
  template_name: text(),
  mode: z.enum(ACTIVATION_MODES),
  /** The template's body as it was when the event was created. */
  body: text(),
  status: z.enum(ACTIVATION_EVENT_STATUSES),
  send_at: text(),
  counts,
  created_by_name: text(),
  created_at: text(),
  finished_at: text().nullable(),
});
export type ActivationEvent = z.infer<typeof activationEventSchema>;

export const activationSendSchema = z.object({
  event_id: text(),
  event_name: text(),
  customer_id: text(),
  customer_name: text(),
  state: z.enum(ACTIVATION_SEND_STATES),
  /** `code` or `code: details` (ACTIVATION_REASONS); for a pending send, why its last attempt failed. */
  reason: text().nullable(),
  attempts: z.number().int(),
  /** When it is (next) due. */
  scheduled_at: text(),
  finished_at: text().nullable(),
  /**
   * The message this customer got (or that WeCom refused), as it stands in the chat; null when
   * none was written (an empty variable, the model failed, cancelled before sending).
   */
  text: text().nullable(),
});
export type ActivationSend = z.infer<typeof activationSendSchema>;

const templateBody = { name: templateName, mode: z.enum(ACTIVATION_MODES), body };

export const activationRoutes = {
  templateList: defineRoute({
    path: base('template/list'),
    body: z.object({}).nullish(),
    data: z.object({ items: z.array(activationTemplateSchema) }),
    auth: true,
    summary: "The scene's activation templates, by name",
    tag,
  }),
  templateCreate: defineRoute({
    path: base('template/create'),
    body: z.object(templateBody),
    data: activationTemplateSchema,
    auth: true,
    summary: 'Add an activation template; its variables must be fields of the scene (creator and admins)',
    tag,
  }),
  templateUpdate: defineRoute({
    path: base('template/update'),
    body: z.object({ id, ...templateBody }),
    data: activationTemplateSchema,
    auth: true,
    summary: 'Change an activation template; events made from it keep their copy (creator and admins)',
    tag,
  }),
  templateDelete: defineRoute({
    path: base('template/delete'),
    body: z.object({ id }),
    data: z.object({ ok: z.literal(true) }),
    auth: true,
    summary: 'Delete an activation template; its events keep their copy (creator and admins)',
    tag,
  }),
  preview: defineRoute({
    path: base('template/preview'),
    body: z.object({ mode: z.enum(ACTIVATION_MODES), body, customer_id: customerId }),
    data: z.object({ text: text() }),
    auth: true,
    summary: 'The message one customer would get (an agent template asks the model) (creator and admins)',
    tag,
  }),
  audienceCount: defineRoute({
    path: base('audience/count'),
    body: z.object({ audience: activationAudienceSchema }),
    /** `estimated`: beyond the customer list's exact count, the planner's estimate. */
    data: z.object({ count: z.number().int(), estimated: z.boolean(), max: z.number().int() }),
    auth: true,
    summary: 'How many customers an audience holds, before an event is created',
    tag,
  }),
  eventList: defineRoute({
    path: base('event/list'),
    body: z.object(page),
    data: z.object({ items: z.array(activationEventSchema), total: z.number().int() }),
    auth: true,
    summary: "The scene's activation events, newest first, with their counts",
    tag,
  }),
  eventGet: defineRoute({
    path: base('event/get'),
    body: z.object({ id }),
    data: activationEventSchema,
    auth: true,
    summary: 'One activation event with its counts',
    tag,
  }),
  eventCreate: defineRoute({
    path: base('event/create'),
    body: z.object({
      name: text({ error: 'ACTIVATION_NAME_REQUIRED' })
        .trim()
        .min(1, { error: 'ACTIVATION_NAME_REQUIRED' })
        .max(ACTIVATION_LIMITS.eventName, { error: 'ACTIVATION_NAME_TOO_LONG' }),
      template_id: id,
      audience: activationAudienceSchema,
      /** Unix milliseconds; absent: now. */
      send_at: timeMs.optional(),
    }),
    data: activationEventSchema,
    auth: true,
    summary:
      'Schedule an activation event: its audience is fixed now, one pending send per customer (creator and admins)',
    tag,
  }),
  eventCancel: defineRoute({
    path: base('event/cancel'),
    body: z.object({ id }),
    data: activationEventSchema,
    auth: true,
    summary: 'Cancel an event: its sends not yet made fail as cancelled (creator and admins)',
    tag,
  }),
  sendList: defineRoute({
    path: base('send/list'),
    body: z.object({
      event_id: id.optional(),
      customer_id: customerId.optional(),
      state: z.enum(ACTIVATION_SEND_STATES).optional(),
      ...page,
    }),
    data: z.object({ items: z.array(activationSendSchema), total: z.number().int() }),
    auth: true,
    summary: "An event's sends, or a customer's, with their states and reasons",
    tag,
  }),
} as const;
