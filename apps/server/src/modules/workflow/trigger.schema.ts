import { boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from '../../platform/db/columns.ts';
import { users } from '../auth/auth.schema.ts';
import { spaces } from '../space/space.schema.ts';
import { workflows } from './workflow.schema.ts';

// What runs a workflow from outside: API keys, its webhook and its schedule, each going with the
// workflow when it is deleted. docs/workflow-triggers.md. (Here rather than under triggers/ because
// drizzle-kit reads the schemas one folder deep.)

/** Keys for `POST /v1/workflows/run`, stored hashed like agents' keys. */
export const workflowApiKeys = pgTable(
  'workflow_api_keys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workflowId: uuid('workflow_id')
      .notNull()
      .references(() => workflows.id, { onDelete: 'cascade' }),
    spaceId: uuid('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    keyHash: text('key_hash').notNull(),
    prefix: text('prefix').notNull(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    useCount: integer('use_count').notNull().default(0),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('workflow_api_keys_hash_key').on(t.keyHash),
    index('workflow_api_keys_workflow_idx').on(t.workflowId),
  ],
);

/** One webhook per workflow: its public id (in the URL) and its signing secret, sealed with the master key. */
export const workflowWebhooks = pgTable(
  'workflow_webhooks',
  {
    workflowId: uuid('workflow_id')
      .primaryKey()
      .references(() => workflows.id, { onDelete: 'cascade' }),
    spaceId: uuid('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    hookId: text('hook_id').notNull(),
    secretSealed: text('secret_sealed').notNull(),
    secretPrefix: text('secret_prefix').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    lastCalledAt: timestamp('last_called_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('workflow_webhooks_hook_key').on(t.hookId)],
);

/**
 * Signatures already accepted, kept until they could no longer pass the timestamp check: the
 * primary key refuses a replay, in every process at once.
 */
export const workflowWebhookSignatures = pgTable(
  'workflow_webhook_signatures',
  {
    signature: text('signature').primaryKey(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('workflow_webhook_signatures_expires_idx').on(t.expiresAt)],
);

/** One schedule per workflow; `next_fire_at` is what the minute tick looks for. */
export const workflowSchedules = pgTable(
  'workflow_schedules',
  {
    workflowId: uuid('workflow_id')
      .primaryKey()
      .references(() => workflows.id, { onDelete: 'cascade' }),
    spaceId: uuid('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    cron: text('cron').notNull(),
    timezone: text('timezone').notNull(),
    inputs: jsonb('inputs').$type<Record<string, unknown>>().notNull().default({}),
    enabled: boolean('enabled').notNull().default(true),
    /** null while disabled. */
    nextFireAt: timestamp('next_fire_at', { withTimezone: true }),
    lastFiredAt: timestamp('last_fired_at', { withTimezone: true }),
    lastRunId: uuid('last_run_id'),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('workflow_schedules_due_idx').on(t.enabled, t.nextFireAt)],
);
