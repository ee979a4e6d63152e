import type { WorkflowGraph } from '@athena/contract';
import {
  type AnyPgColumn,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt } from '../../platform/db/columns.ts';
import { users } from '../auth/auth.schema.ts';
import { spaces } from '../space/space.schema.ts';

// Tables of the workflow module (runs have theirs in run.schema.ts). Other modules may join them
// in queries (docs/code-style.md).

export const workflowGroups = pgTable(
  'workflow_groups',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    spaceId: uuid('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    createdBy: uuid('created_by')
      .notNull()
      .references(() => users.id),
    createdAt: createdAt(),
  },
  (t) => [index('workflow_groups_space_idx').on(t.spaceId, t.createdAt)],
);

/**
 * A workflow: its draft (what the editor saves) and which published version runs. The draft's
 * revision grows by one with every save, so two tabs saving from the same revision conflict.
 */
export const workflows = pgTable(
  'workflows',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    spaceId: uuid('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    /** null: ungrouped (deleting a group leaves its workflows here). */
    groupId: uuid('group_id').references(() => workflowGroups.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    draft: jsonb('draft').$type<WorkflowGraph>().notNull(),
    draftRevision: integer('draft_revision').notNull().default(0),
    draftSavedAt: timestamp('draft_saved_at', { withTimezone: true }).notNull().defaultNow(),
    /** A locked workflow refuses every change, from anyone, until it is unlocked. */
    locked: boolean('locked').notNull().default(false),
    lockedBy: uuid('locked_by').references(() => users.id),
    lockedAt: timestamp('locked_at', { withTimezone: true }),
    /** Whether the published version runs (API, triggers, sub-workflow nodes). */
    effective: boolean('effective').notNull().default(false),
    /** The most recent published version; null: never published. */
    publishedVersionId: uuid('published_version_id').references((): AnyPgColumn => workflowVersions.id, {
      onDelete: 'set null',
    }),
    /** succeeded | failed | empty_output | has_error of the latest finished run; null: never ran. */
    lastRunResult: text('last_run_result'),
    lastRunAt: timestamp('last_run_at', { withTimezone: true }),
    createdBy: uuid('created_by')
      .notNull()
      .references(() => users.id),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('workflows_space_idx').on(t.spaceId, t.updatedAt),
    index('workflows_group_idx').on(t.spaceId, t.groupId, t.updatedAt),
    index('workflows_effective_idx').on(t.spaceId, t.effective, t.updatedAt),
    index('workflows_locked_idx').on(t.spaceId, t.locked, t.updatedAt),
    index('workflows_last_result_idx').on(t.spaceId, t.lastRunResult, t.updatedAt),
  ],
);

/** A published version: the draft frozen at publish time. Never changed afterwards. */
export const workflowVersions = pgTable(
  'workflow_versions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workflowId: uuid('workflow_id')
      .notNull()
      .references((): AnyPgColumn => workflows.id, { onDelete: 'cascade' }),
    spaceId: uuid('space_id').notNull(),
    /** 1, 2, 3 … per workflow. */
    number: integer('number').notNull(),
    graph: jsonb('graph').$type<WorkflowGraph>().notNull(),
    note: text('note').notNull().default(''),
    publishedBy: uuid('published_by')
      .notNull()
      .references(() => users.id),
    publishedAt: timestamp('published_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('workflow_versions_number_key').on(t.workflowId, t.number)],
);

/** A team's own template, saved from one of its workflows (built-in ones live in code). */
export const workflowTemplates = pgTable(
  'workflow_templates',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    spaceId: uuid('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    category: text('category').notNull().default('team'),
    graph: jsonb('graph').$type<WorkflowGraph>().notNull(),
    createdBy: uuid('created_by')
      .notNull()
      .references(() => users.id),
    createdAt: createdAt(),
  },
  (t) => [index('workflow_templates_space_idx').on(t.spaceId, t.createdAt)],
);
