import { z } from 'zod';
import { defineRoute } from './envelope.ts';
import { text } from './text.ts';

const tag = 'model-key';

export const MODEL_PURPOSES = ['chat', 'embedding', 'rerank'] as const;
export type ModelPurpose = (typeof MODEL_PURPOSES)[number];

/** requirements.md, Validation: model name, version, request address and key cannot be empty. */
export const modelNameField = text({ error: 'MODEL_NAME_REQUIRED' })
  .trim()
  .min(1, { error: 'MODEL_NAME_REQUIRED' })
  .max(100, { error: 'MODEL_NAME_REQUIRED' });
export const modelVersionField = text({ error: 'MODEL_VERSION_REQUIRED' })
  .trim()
  .min(1, { error: 'MODEL_VERSION_REQUIRED' })
  .max(200, { error: 'MODEL_VERSION_REQUIRED' });
/** The endpoint's base URL, e.g. https://dashscope.aliyuncs.com/compatible-mode/v1 */
export const baseUrlField = text({ error: 'BASE_URL_REQUIRED' })
  .trim()
  .min(1, { error: 'BASE_URL_REQUIRED' })
  .max(500, { error: 'BASE_URL_INVALID' })
  .refine(
    (value) => {
      try {
        const url = new URL(value);
        return (url.protocol === 'http:' || url.protocol === 'https:') && !url.username && !url.password;
      } catch {
        return false;
      }
    },
    { error: 'BASE_URL_INVALID' },
  )
  .transform((value) => value.replace(/\/+$/, ''));
export const apiKeyField = text({ error: 'API_KEY_REQUIRED' })
  .trim()
  .min(1, { error: 'API_KEY_REQUIRED' })
  .max(1000, { error: 'API_KEY_REQUIRED' })
  // It travels in an HTTP header, which carries printable ASCII only.
  .regex(/^[\x21-\x7e]+$/, { error: 'API_KEY_CHARACTERS' });

export const modelKeySchema = z.object({
  id: text(),
  model_name: text(),
  version: text(),
  base_url: text(),
  /** Never the key itself: its first 3 and last 4 characters at most. */
  api_key_masked: text(),
  purpose: z.enum(MODEL_PURPOSES),
  is_default: z.boolean(),
  created_by: z.object({ id: text(), nickname: text() }),
  created_at: text(),
  updated_at: text(),
  last_test: z
    .object({
      ok: z.boolean(),
      latency_ms: z.number().int().nullable(),
      error_kind: text().nullable(),
      at: text(),
    })
    .nullable(),
});
export type ModelKey = z.infer<typeof modelKeySchema>;

export const TEST_FAILURE_KINDS = [
  'auth',
  'model_not_found',
  'unreachable',
  'blocked_address',
  'timeout',
  'rate_limited',
  'server_error',
  'bad_response',
] as const;
export type TestFailureKind = (typeof TEST_FAILURE_KINDS)[number];

export const keyTestResult = z.object({
  ok: z.boolean(),
  latency_ms: z.number().int().nullable(),
  error_kind: z.enum(TEST_FAILURE_KINDS).nullable(),
  /** The vendor's own words, for the person to act on (never contains the key). */
  detail: text().nullable(),
});
export type KeyTestResult = z.infer<typeof keyTestResult>;

const keyFields = {
  model_name: modelNameField,
  version: modelVersionField,
  base_url: baseUrlField,
  api_key: apiKeyField,
  purpose: z.enum(MODEL_PURPOSES).default('chat'),
};
const id = text().min(1).max(64);

/** Model keys belong to the current space (`space-id` header). */
export const modelKeyRoutes = {
  list: defineRoute({
    path: '/api/athena/v1/model_key/list',
    body: z.object({ purpose: z.enum(MODEL_PURPOSES).optional() }).nullish(),
    data: z.object({
      items: z.array(modelKeySchema),
      /** Whether this server lets keys call private and local addresses (Ollama, vLLM on the network). */
      private_addresses_allowed: z.boolean(),
    }),
    auth: true,
    summary: 'Model keys of the current space (masked)',
    tag,
  }),
  create: defineRoute({
    path: '/api/athena/v1/model_key/create',
    body: z.object(keyFields),
    data: modelKeySchema,
    auth: true,
    summary: 'Add a key for an OpenAI-compatible endpoint (encrypted at rest)',
    tag,
  }),
  update: defineRoute({
    path: '/api/athena/v1/model_key/update',
    body: z.object({
      id,
      model_name: modelNameField.optional(),
      version: modelVersionField.optional(),
      base_url: baseUrlField.optional(),
      /** Omit to keep the stored key. */
      api_key: apiKeyField.optional(),
      purpose: z.enum(MODEL_PURPOSES).optional(),
    }),
    data: modelKeySchema,
    auth: true,
    summary: 'Change a key; leaving api_key out keeps the stored one',
    tag,
  }),
  delete: defineRoute({
    path: '/api/athena/v1/model_key/delete',
    body: z.object({ id }),
    data: z.null(),
    auth: true,
    summary: 'Delete a key',
    tag,
  }),
  setDefault: defineRoute({
    path: '/api/athena/v1/model_key/set_default',
    body: z.object({ id }),
    data: z.null(),
    auth: true,
    summary: 'Make a key the default for its purpose in this space',
    tag,
  }),
  test: defineRoute({
    path: '/api/athena/v1/model_key/test',
    body: z.object({ id }),
    data: keyTestResult,
    auth: true,
    summary: 'Make a real minimal call with a saved key and classify any failure',
    tag,
  }),
  testDraft: defineRoute({
    path: '/api/athena/v1/model_key/test_draft',
    body: z.object(keyFields),
    data: keyTestResult,
    auth: true,
    summary: 'The same test before saving',
    tag,
  }),
} as const;
