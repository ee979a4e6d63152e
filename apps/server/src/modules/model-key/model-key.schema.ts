import { bigint, bigserial, boolean, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from '../../platform/db/columns.ts';
import { users } from '../auth/auth.schema.ts';
import { spaces } from '../space/space.schema.ts';

// Tables of the model-key module. Other modules may join them in queries (docs/code-style.md).

/** Bring-your-own LLM keys; the key itself is encrypted with the master key. */
export const modelKeys = pgTable(
  'model_keys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    spaceId: uuid('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    modelName: text('model_name').notNull(),
    /** The model id the endpoint expects, e.g. qwen-plus. */
    version: text('version').notNull(),
    baseUrl: text('base_url').notNull(),
    apiKeyEncrypted: text('api_key_encrypted').notNull(),
    apiKeyMasked: text('api_key_masked').notNull(),
    /** chat | embedding | rerank */
    purpose: text('purpose').notNull(),
    isDefault: boolean('is_default').notNull().default(false),
    createdBy: uuid('created_by')
      .notNull()
      .references(() => users.id),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    lastTestAt: timestamp('last_test_at', { withTimezone: true }),
    lastTestOk: boolean('last_test_ok'),
    lastTestLatencyMs: integer('last_test_latency_ms'),
    lastTestErrorKind: text('last_test_error_kind'),
  },
  (t) => [index('model_keys_space_idx').on(t.spaceId, t.purpose)],
);

/** One row per model call, for the fees the billing work will price. */
export const llmUsage = pgTable(
  'llm_usage',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    spaceId: uuid('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    userId: uuid('user_id').references(() => users.id),
    /** What made the call: model_key.test, agent.chat, knowledge.embed, … */
    source: text('source').notNull(),
    modelKeyId: uuid('model_key_id'),
    model: text('model').notNull(),
    inputTokens: integer('input_tokens').notNull().default(0),
    outputTokens: integer('output_tokens').notNull().default(0),
    latencyMs: integer('latency_ms').notNull(),
    /** ok | error | cancelled */
    outcome: text('outcome').notNull(),
    errorKind: text('error_kind'),
    /** What the call was for: an agent, a workflow, a knowledge base (kind and id), when known. */
    subjectKind: text('subject_kind'),
    subjectId: text('subject_id'),
    /** A workflow's call: the run that made it (no reference: runs are purged on their own clock). */
    runId: uuid('run_id'),
    /** A platform model's call: the prices it paid (milli-fen per 1 000 tokens) and its fee. */
    platformModelId: uuid('platform_model_id'),
    inputPrice: integer('input_price'),
    outputPrice: integer('output_price'),
    feeMillifen: bigint('fee_millifen', { mode: 'number' }).notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [index('llm_usage_space_time_idx').on(t.spaceId, t.createdAt)],
);
