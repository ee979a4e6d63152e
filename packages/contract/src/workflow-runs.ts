import { z } from 'zod';
import { defineRoute } from './envelope.ts';
import { defineStream, streamErrorSchema } from './stream.ts';
import { text } from './text.ts';
import { NODE_RUN_STATUSES, RUN_FAILURE_REASONS, RUN_RESULTS } from './workflow-graph.ts';

// Runs of a workflow: the test run streamed to the editor, reconnecting to a run's events, the run
// history and one run's node executions, cancelling, and running one node with hand-given values.
// docs/workflow-runs.md describes the life of a run.

const tag = 'workflow';
const id = text().min(1).max(64);

/** What started a run; every run records it. */
export const RUN_TRIGGERS = ['editor', 'single_node', 'api', 'webhook', 'schedule', 'sub_workflow'] as const;
export type RunTrigger = (typeof RUN_TRIGGERS)[number];
export const RUN_STATUSES = ['queued', 'running', 'finished'] as const;

/** A value a node or run holds: any JSON. Payloads past the stored limit are cut (docs/workflow-runs.md). */
const payload = z.record(z.string(), z.unknown());

/**
 * A failure as a reader sees it: the catalogue's code and key, the message in the reader's
 * language, and the technical detail (an exception's message) as it came.
 */
export const runErrorSchema = z.object({ code: z.number().int(), key: text(), msg: text(), detail: text() });
export type RunError = z.infer<typeof runErrorSchema>;

const scopeSchema = z.object({ path: z.array(z.object({ node_id: text(), index: z.number().int() })) });

export const runSummarySchema = z.object({
  run_id: text(),
  result: z.enum(RUN_RESULTS),
  outputs: payload,
  answer: text(),
  failure: z
    .object({ reason: z.enum(RUN_FAILURE_REASONS), error: runErrorSchema, node_id: text().nullable() })
    .nullable(),
  steps: z.number().int(),
  tokens: z.number().int(),
  elapsed_ms: z.number().int(),
});

/**
 * The events of a run, in order: `run_started`, then per node `node_started`, maybe
 * `node_retried`, `text_chunk`s (a model's or an answer node's text as it comes), `node_finished`;
 * `run_finished` last, always. `error` comes before `run_finished` when something outside the
 * workflow went wrong (the run could not be stored; the server is stopping). Each event carries
 * its sequence number as the SSE `id:`, which a reconnect sends back as `Last-Event-ID`.
 */
export const runStreamEvents = {
  run_started: z.object({
    run_id: text(),
    workflow_id: text(),
    version_id: text().nullable(),
    trigger: z.enum(RUN_TRIGGERS),
  }),
  node_started: z.object({
    execution_id: text(),
    node_id: text(),
    node_type: text(),
    title: text(),
    scope: scopeSchema,
  }),
  node_retried: z.object({ execution_id: text(), node_id: text(), attempt: z.number().int(), error: runErrorSchema }),
  text_chunk: z.object({ node_id: text(), text: text() }),
  node_finished: z.object({
    execution_id: text(),
    node_id: text(),
    status: z.enum(NODE_RUN_STATUSES),
    inputs: payload,
    outputs: payload,
    error: runErrorSchema.nullable(),
    elapsed_ms: z.number().int(),
    tokens: z.number().int(),
    attempts: z.number().int(),
  }),
  run_finished: runSummarySchema,
  /**
   * SERVER_RESTARTING (kind `shutdown`): the server stopped during the run, which is then failed
   * (server_stopped); SYSTEM_ERROR (kind `storage`): the run could not be stored;
   * WORKFLOW_RUN_NOT_FOUND (kind `gone`): a reconnect's run was deleted meanwhile.
   */
  error: streamErrorSchema(['SYSTEM_ERROR', 'SERVER_RESTARTING', 'WORKFLOW_RUN_NOT_FOUND'], { kind: text() }),
};

export const runRequest = z.object({
  workflow_id: id,
  /** A published version to run; absent or null: the saved draft. */
  version_id: id.nullish(),
  /** The start node's inputs by name. */
  inputs: payload.default({}),
  /** `sys.query`: the question a chat-like workflow answers. */
  query: text().max(20_000).default(''),
});

export const workflowRunStreams = {
  run: defineStream({
    path: '/api/athena/v1/workflow/run',
    body: runRequest,
    events: runStreamEvents,
    framing: 'event',
    end: 'run_finished',
    auth: true,
    summary: 'Test-run the saved draft (or a published version) with inputs; events stream as server-sent events',
    tag,
  }),
  events: defineStream({
    path: '/api/athena/v1/workflow/run/events',
    body: z.object({
      run_id: id,
      /** Events after this sequence number; the `Last-Event-ID` header says the same and wins. */
      after_seq: z.number().int().min(0).max(1_000_000_000).default(0),
    }),
    events: runStreamEvents,
    framing: 'event',
    end: 'run_finished',
    auth: true,
    summary: 'Reconnect to a run: the events after a sequence number, then live ones until it finishes',
    tag,
  }),
} as const;

export const workflowRunSchema = z.object({
  id: text(),
  workflow_id: text(),
  version_id: text().nullable(),
  trigger: z.enum(RUN_TRIGGERS),
  status: z.enum(RUN_STATUSES),
  /** null until the run has finished. */
  result: z.enum(RUN_RESULTS).nullable(),
  failure_reason: z.enum(RUN_FAILURE_REASONS).nullable(),
  error: runErrorSchema.nullable(),
  inputs: payload,
  outputs: payload,
  answer: text(),
  steps: z.number().int(),
  tokens: z.number().int(),
  elapsed_ms: z.number().int(),
  created_by: text().nullable(),
  created_at: text(),
  finished_at: text().nullable(),
});
export type WorkflowRun = z.infer<typeof workflowRunSchema>;

/** One execution of one node (a node in an iteration runs once per item). */
export const nodeRunSchema = z.object({
  execution_id: text(),
  node_id: text(),
  node_type: text(),
  title: text(),
  scope: scopeSchema,
  status: z.enum(NODE_RUN_STATUSES),
  inputs: payload,
  outputs: payload,
  error: runErrorSchema.nullable(),
  tokens: z.number().int(),
  attempts: z.number().int(),
  elapsed_ms: z.number().int(),
  started_at: text(),
  finished_at: text().nullable(),
});
export type NodeRun = z.infer<typeof nodeRunSchema>;

export const workflowRunRoutes = {
  runBlocking: defineRoute({
    path: '/api/athena/v1/workflow/run/blocking',
    body: runRequest,
    data: runSummarySchema,
    auth: true,
    summary: 'Run the saved draft (or a published version) and answer when it has finished',
    tag,
  }),
  cancel: defineRoute({
    path: '/api/athena/v1/workflow/run/cancel',
    body: z.object({ run_id: id }),
    data: z.null(),
    auth: true,
    summary: 'Cancel a running run (who started it, or an admin); the run ends failed (cancelled)',
    tag,
  }),
  list: defineRoute({
    path: '/api/athena/v1/workflow/run/list',
    body: z.object({
      workflow_id: id,
      result: z.enum(RUN_RESULTS).optional(),
      page: z.number().int().min(1).max(10_000).default(1),
      page_size: z.number().int().min(1).max(100).default(20),
    }),
    data: z.object({ items: z.array(workflowRunSchema), total: z.number().int() }),
    auth: true,
    summary: 'Runs of a workflow, newest first',
    tag,
  }),
  detail: defineRoute({
    path: '/api/athena/v1/workflow/run/detail',
    body: z.object({ run_id: id }),
    data: z.object({ run: workflowRunSchema, nodes: z.array(nodeRunSchema) }),
    auth: true,
    summary: 'One run with every node execution (inputs, outputs, errors, timings)',
    tag,
  }),
  nodeRun: defineRoute({
    path: '/api/athena/v1/workflow/node/run',
    body: z.object({
      workflow_id: id,
      node_id: text().min(1).max(64),
      /** The values the node reads, by selector written `nodeId.output` (`sys.query`, `start.name`). */
      values: payload.default({}),
    }),
    data: z.object({
      run_id: text(),
      status: z.enum(NODE_RUN_STATUSES),
      inputs: payload,
      outputs: payload,
      error: runErrorSchema.nullable(),
      branch: text().nullable(),
      tokens: z.number().int(),
      elapsed_ms: z.number().int(),
    }),
    auth: true,
    summary: "Run one node of the draft with hand-given values for what it reads (the editor's single-step run)",
    tag,
  }),
} as const;
