import { z } from 'zod';
import { defineRoute } from './envelope.ts';
import { text } from './text.ts';

// Running a workflow's effective version from outside: API keys for `POST /v1/workflows/run`, a
// signed webhook, and a schedule. docs/workflow-triggers.md describes them; the two public routes
// (`/v1/workflows/run`, `/hooks/workflows/<hookId>`) answer in their own format and are not
// envelope routes.

const tag = 'workflow';
const id = text().min(1).max(64);

/** The public route an API key calls, and where webhooks arrive (followed by the hook's id). */
export const WORKFLOW_API_RUN_PATH = '/v1/workflows/run';
export const WORKFLOW_HOOK_PATH_PREFIX = '/hooks/workflows/';
/** The header a webhook's signature travels in: `t=<unix seconds>,v1=<hex HMAC-SHA256>`. */
export const WORKFLOW_SIGNATURE_HEADER = 'x-athena-signature';

export const WORKFLOW_TRIGGER_LIMITS = {
  /** A signed webhook's timestamp may differ from the server's clock by this much. */
  signatureToleranceSeconds: 300,
  /** A webhook's body, in bytes. */
  webhookBodyBytes: 256 * 1024,
  /** A schedule's fixed inputs, as JSON. */
  scheduleInputsBytes: 64 * 1024,
  /** How many upcoming fire times an answer shows. */
  nextFires: 3,
} as const;

/** The body of `POST /v1/workflows/run` (Dify's shape): the start node's inputs and how to answer. */
export const workflowApiRunRequest = z.object({
  inputs: z.record(z.string(), z.unknown()).default({}),
  response_mode: z.enum(['blocking', 'streaming']).default('blocking'),
  /** The caller's own name for its end user; the run sees it as `sys.user_id`. */
  user: text().max(200).optional(),
  /** `sys.query`, for chat-like workflows. */
  query: text().max(20_000).optional(),
});
export type WorkflowApiRunRequest = z.infer<typeof workflowApiRunRequest>;

export const workflowApiKeySchema = z.object({
  id: text(),
  name: text(),
  /** The first characters, to recognise a key; the key itself is shown once at creation. */
  prefix: text(),
  created_at: text(),
  last_used_at: text().nullable(),
  use_count: z.number().int(),
  revoked: z.boolean(),
});
export type WorkflowApiKey = z.infer<typeof workflowApiKeySchema>;

export const workflowWebhookSchema = z.object({
  enabled: z.boolean(),
  /** The path to POST to on this server (the web client puts its origin in front). */
  path: text(),
  /** The first characters of the signing secret; the secret itself is shown when made. */
  secret_prefix: text(),
  created_at: text(),
  last_called_at: text().nullable(),
});
export type WorkflowWebhook = z.infer<typeof workflowWebhookSchema>;

export const workflowScheduleSchema = z.object({
  enabled: z.boolean(),
  cron: text(),
  timezone: text(),
  inputs: z.record(z.string(), z.unknown()),
  /** The next fire times (ISO 8601), computed in the schedule's time zone; empty when disabled. */
  next_fires: z.array(text()),
  last_fired_at: text().nullable(),
  last_run_id: text().nullable(),
});
export type WorkflowSchedule = z.infer<typeof workflowScheduleSchema>;

const scheduleFields = {
  cron: text().trim().min(1).max(120),
  timezone: text().trim().min(1).max(64),
};

export const workflowTriggerRoutes = {
  apiKeyCreate: defineRoute({
    path: '/api/athena/v1/workflow/api_key/create',
    body: z.object({ workflow_id: id, name: text().trim().min(1).max(50) }),
    data: workflowApiKeySchema.extend({ key: text() }),
    auth: true,
    summary: 'Create an API key for POST /v1/workflows/run; the key is shown only now',
    tag,
  }),
  apiKeyList: defineRoute({
    path: '/api/athena/v1/workflow/api_key/list',
    body: z.object({ workflow_id: id }),
    data: z.object({ items: z.array(workflowApiKeySchema) }),
    auth: true,
    summary: 'API keys of a workflow, newest first',
    tag,
  }),
  apiKeyRevoke: defineRoute({
    path: '/api/athena/v1/workflow/api_key/revoke',
    body: z.object({ id }),
    data: z.null(),
    auth: true,
    summary: 'Revoke a workflow API key at once',
    tag,
  }),
  webhookGet: defineRoute({
    path: '/api/athena/v1/workflow/webhook/get',
    body: z.object({ workflow_id: id }),
    data: workflowWebhookSchema.nullable(),
    auth: true,
    summary: "A workflow's webhook, or null when it has none",
    tag,
  }),
  webhookSet: defineRoute({
    path: '/api/athena/v1/workflow/webhook/set',
    body: z.object({ workflow_id: id, enabled: z.boolean() }),
    /** `secret` only when this call made the webhook (its first enabling). */
    data: workflowWebhookSchema.extend({ secret: text().nullable() }),
    auth: true,
    summary: 'Turn the webhook on or off; turned on the first time, it gets its URL and signing secret',
    tag,
  }),
  webhookRotate: defineRoute({
    path: '/api/athena/v1/workflow/webhook/rotate',
    body: z.object({ workflow_id: id }),
    data: workflowWebhookSchema.extend({ secret: text() }),
    auth: true,
    summary: 'A new signing secret (shown only now); the old one stops working at once',
    tag,
  }),
  scheduleGet: defineRoute({
    path: '/api/athena/v1/workflow/schedule/get',
    body: z.object({ workflow_id: id }),
    data: workflowScheduleSchema.nullable(),
    auth: true,
    summary: "A workflow's schedule with its next fire times, or null when it has none",
    tag,
  }),
  scheduleSet: defineRoute({
    path: '/api/athena/v1/workflow/schedule/set',
    body: z.object({
      workflow_id: id,
      ...scheduleFields,
      inputs: z.record(z.string(), z.unknown()).default({}),
      enabled: z.boolean(),
    }),
    data: workflowScheduleSchema,
    auth: true,
    summary: 'Set the schedule: a 5-field cron expression in an IANA time zone, fixed inputs, on or off',
    tag,
  }),
  schedulePreview: defineRoute({
    path: '/api/athena/v1/workflow/schedule/preview',
    body: z.object(scheduleFields),
    data: z.object({ next_fires: z.array(text()) }),
    auth: true,
    summary: 'The next fire times of a cron expression in a time zone (checked as a schedule would be)',
    tag,
  }),
} as const;
