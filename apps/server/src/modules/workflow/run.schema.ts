import { bigint, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from '../../platform/db/columns.ts';
import { users } from '../auth/auth.schema.ts';
import { spaces } from '../space/space.schema.ts';
import { workflows, workflowVersions } from './workflow.schema.ts';

// The runs of workflows: one row per run, one per node execution, and the run's numbered events
// (what a reconnecting client replays). docs/workflow-runs.md.

/** A failure as stored: the catalogue key, its placeholders and the technical detail. */
export interface StoredError {
  code: string;
  params: Record<string, string | number>;
  detail: string;
}

export const workflowRuns = pgTable(
  'workflow_runs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    spaceId: uuid('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    workflowId: uuid('workflow_id')
      .notNull()
      .references(() => workflows.id, { onDelete: 'cascade' }),
    /** null: the draft was run. */
    versionId: uuid('version_id').references(() => workflowVersions.id, { onDelete: 'set null' }),
    /** editor | single_node | api | webhook | schedule | sub_workflow */
    trigger: text('trigger').notNull(),
    /** queued | running | finished */
    status: text('status').notNull(),
    /** succeeded | failed | empty_output | has_error, once finished. */
    result: text('result'),
    failureReason: text('failure_reason'),
    error: jsonb('error').$type<StoredError>(),
    inputs: jsonb('inputs').$type<Record<string, unknown>>().notNull().default({}),
    outputs: jsonb('outputs').$type<Record<string, unknown>>().notNull().default({}),
    answer: text('answer').notNull().default(''),
    steps: integer('steps').notNull().default(0),
    tokens: integer('tokens').notNull().default(0),
    elapsedMs: integer('elapsed_ms').notNull().default(0),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    /**
     * The running process writes this every few seconds; a run still "running" whose time has gone
     * stale lost its process and is marked failed (server_stopped).
     */
    progressAt: timestamp('progress_at', { withTimezone: true }),
    createdAt: createdAt(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    index('workflow_runs_workflow_idx').on(t.workflowId, t.createdAt),
    index('workflow_runs_status_idx').on(t.status, t.progressAt),
  ],
);

export const workflowNodeRuns = pgTable(
  'workflow_node_runs',
  {
    runId: uuid('run_id')
      .notNull()
      .references(() => workflowRuns.id, { onDelete: 'cascade' }),
    /** The engine's id of one execution (a node in an iteration runs once per item). */
    executionId: text('execution_id').notNull(),
    nodeId: text('node_id').notNull(),
    nodeType: text('node_type').notNull(),
    title: text('title').notNull().default(''),
    scope: jsonb('scope').$type<{ path: Array<{ node_id: string; index: number }> }>().notNull(),
    /** running | succeeded | failed | handled | skipped */
    status: text('status').notNull(),
    inputs: jsonb('inputs').$type<Record<string, unknown>>().notNull().default({}),
    outputs: jsonb('outputs').$type<Record<string, unknown>>().notNull().default({}),
    error: jsonb('error').$type<StoredError>(),
    tokens: integer('tokens').notNull().default(0),
    attempts: integer('attempts').notNull().default(1),
    elapsedMs: integer('elapsed_ms').notNull().default(0),
    /** The seq of the execution's node_started event: the order executions began in. */
    startedSeq: bigint('started_seq', { mode: 'number' }).notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.runId, t.executionId] }),
    index('workflow_node_runs_run_idx').on(t.runId, t.startedSeq),
  ],
);

export const workflowRunEvents = pgTable(
  'workflow_run_events',
  {
    runId: uuid('run_id')
      .notNull()
      .references(() => workflowRuns.id, { onDelete: 'cascade' }),
    /** 1, 2, 3… in the order the run emitted them; the SSE `id:` of the event. */
    seq: bigint('seq', { mode: 'number' }).notNull(),
    /** The event as the engine emitted it (errors as catalogue keys, localised when sent). */
    event: jsonb('event').$type<{ event: string; data: unknown }>().notNull(),
  },
  (t) => [primaryKey({ columns: [t.runId, t.seq] })],
);
