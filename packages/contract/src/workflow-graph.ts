import { z } from 'zod';
import { text } from './text.ts';

// The workflow document: a graph of typed nodes and the edges between them. It is what the editor
// saves as a draft, what a published version freezes, what export writes and import reads, and
// what the engine (packages/workflow-engine) runs. docs/workflows.md explains each node kind.

/** Ceilings that keep one document, run or loop bounded; refused with a catalogue code beyond them. */
export const WORKFLOW_LIMITS = {
  maxNodes: 2_000,
  maxEdges: 6_000,
  /** A whole document as JSON, in bytes (drafts, imports, published versions). */
  maxDocumentBytes: 2_000_000,
  maxStepsDefault: 500,
  maxStepsCeiling: 10_000,
  maxRunMsDefault: 600_000,
  maxRunMsCeiling: 3_600_000,
  nodeTimeoutMsDefault: 120_000,
  nodeTimeoutMsCeiling: 600_000,
  maxRetries: 10,
  maxRetryIntervalMs: 60_000,
  iterationMaxItems: 1_000,
  iterationParallelCeiling: 10,
  loopMaxCountCeiling: 1_000,
  /** Inputs and outputs kept per node execution; larger values are cut with a note. */
  storedPayloadBytes: 64_000,
} as const;

/** A node id: short, and safe inside a `{{#node.output#}}` reference. */
export const nodeIdSchema = text()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/, { error: 'WORKFLOW_NODE_ID_INVALID' });

/**
 * Where a value lives: `[nodeId, output, ...path]`. Two node ids are reserved: `sys` (query, files,
 * user_id, run_id, conversation_id, workflow_id) and `env` (the workflow's environment variables).
 * Inside an iteration, `[iterationId, 'item']` and `[iterationId, 'index']`; inside a loop,
 * `[loopId, variableName]`.
 */
export const selectorSchema = z.array(text().min(1).max(128)).min(2).max(8);
export type Selector = z.infer<typeof selectorSchema>;

/** Text with `{{#nodeId.output#}}` references, filled in when the node runs. */
const template = (max = 100_000) => text().max(max);

export const VALUE_TYPES = ['string', 'number', 'boolean', 'object', 'file', 'array', 'any'] as const;
export type ValueType = (typeof VALUE_TYPES)[number];

export const START_INPUT_TYPES = ['text', 'paragraph', 'number', 'select', 'file', 'json'] as const;
export const startInputSchema = z.object({
  name: text()
    .min(1)
    .max(64)
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, { error: 'WORKFLOW_VARIABLE_NAME_INVALID' }),
  label: text().max(100).default(''),
  type: z.enum(START_INPUT_TYPES),
  required: z.boolean().default(true),
  options: z.array(text().max(200)).max(100).default([]),
  max_length: z.number().int().min(1).max(100_000).nullable().default(null),
});
export type StartInput = z.infer<typeof startInputSchema>;

/** A named value taken from elsewhere in the graph (code, template, end and sub-workflow nodes). */
const boundVariable = z.object({ name: text().min(1).max(64), selector: selectorSchema });

const modelChoice = {
  /** null: the space's default chat key. An imported model whose name matched no key stays null. */
  model_key_id: text().max(64).nullable().default(null),
  /** The model name as the key's provider knows it; empty for the key's default model. */
  model: text().max(200).default(''),
  temperature: z.number().min(0).max(2).default(0.7),
  max_tokens: z.number().int().min(1).max(32_000).nullable().default(null),
};

export const CONDITION_OPERATORS = [
  'contains',
  'not_contains',
  'starts_with',
  'ends_with',
  'is',
  'is_not',
  'empty',
  'not_empty',
  'eq',
  'ne',
  'gt',
  'lt',
  'ge',
  'le',
  'in',
  'not_in',
] as const;
export const conditionSchema = z.object({
  selector: selectorSchema,
  operator: z.enum(CONDITION_OPERATORS),
  /** A constant, or text with references; ignored by empty/not_empty. */
  value: text().max(10_000).default(''),
});
const conditionGroup = {
  logical_operator: z.enum(['and', 'or']).default('and'),
  conditions: z.array(conditionSchema).max(50).default([]),
};

const dataSchemas = {
  start: z.object({ inputs: z.array(startInputSchema).max(50).default([]) }),
  end: z.object({ outputs: z.array(boundVariable).max(50).default([]) }),
  /** Streams its text to the caller; several answer nodes are concatenated in the order they run. */
  answer: z.object({ text: template() }),
  llm: z.object({
    ...modelChoice,
    system_prompt: template().default(''),
    user_prompt: template().default(''),
    /** A JSON schema: the model is asked for JSON and the node outputs `structured` too. */
    json_schema: z.record(z.string(), z.unknown()).nullable().default(null),
  }),
  knowledge: z.object({
    query: selectorSchema,
    knowledge_ids: z.array(text().max(64)).max(20).default([]),
    top_k: z.number().int().min(1).max(20).default(5),
  }),
  classifier: z.object({
    ...modelChoice,
    query: selectorSchema,
    classes: z
      .array(z.object({ id: text().min(1).max(64), name: text().max(500) }))
      .min(1)
      .max(20),
    instruction: template(10_000).default(''),
  }),
  extractor: z.object({
    ...modelChoice,
    query: selectorSchema,
    parameters: z
      .array(
        z.object({
          name: text().min(1).max(64),
          type: z.enum(['string', 'number', 'boolean', 'array[string]', 'array[number]', 'array[object]']),
          description: text().max(1_000).default(''),
          required: z.boolean().default(false),
        }),
      )
      .max(50),
    instruction: template(10_000).default(''),
  }),
  if_else: z.object({
    /** Checked in order; the first case that holds chooses the edge from the handle of its id, else `else`. */
    cases: z
      .array(z.object({ id: text().min(1).max(64), ...conditionGroup }))
      .min(1)
      .max(20),
  }),
  /** Jinja2 (nunjucks) template, run in the sandbox with a time limit. */
  template: z.object({ variables: z.array(boundVariable).max(50).default([]), template: text().max(100_000) }),
  code: z.object({
    language: z.enum(['javascript', 'python3']),
    variables: z.array(boundVariable).max(50).default([]),
    code: text().max(100_000),
    outputs: z.array(z.object({ name: text().min(1).max(64), type: z.enum(VALUE_TYPES) })).max(50),
  }),
  http: z.object({
    method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD']),
    url: template(4_000),
    headers: z
      .array(z.object({ key: text().max(200), value: template(4_000) }))
      .max(50)
      .default([]),
    params: z
      .array(z.object({ key: text().max(200), value: template(4_000) }))
      .max(50)
      .default([]),
    body: z
      .object({
        type: z.enum(['none', 'json', 'form-urlencoded', 'raw']),
        data: template(1_000_000).default(''),
      })
      .default({ type: 'none', data: '' }),
    auth: z
      .discriminatedUnion('type', [
        z.object({ type: z.literal('none') }),
        z.object({ type: z.literal('bearer'), token: template(4_000) }),
        z.object({ type: z.literal('basic'), username: template(1_000), password: template(1_000) }),
        z.object({ type: z.literal('header'), header: text().max(200), value: template(4_000) }),
      ])
      .default({ type: 'none' }),
    timeout_ms: z.number().int().min(100).max(300_000).default(30_000),
  }),
  /** Outputs the first of its selectors that holds a value (joins the ends of exclusive branches). */
  aggregator: z.object({ selectors: z.array(selectorSchema).min(1).max(50), output_type: z.enum(VALUE_TYPES) }),
  /** Writes loop variables (or, in a loop body, the loop's own variables). */
  assigner: z.object({
    items: z
      .array(
        z.object({
          target: selectorSchema,
          operation: z.enum(['set', 'append', 'extend', 'clear', 'add', 'subtract']),
          /** A selector to read from, or null to use `constant`. */
          source: selectorSchema.nullable().default(null),
          constant: text().max(10_000).default(''),
        }),
      )
      .min(1)
      .max(50),
  }),
  list_operator: z.object({
    list: selectorSchema,
    /** Conditions on each item (the item is selector `[listOperatorId, 'item']`, or a key of it). */
    filter: z.object(conditionGroup).nullable().default(null),
    sort: z
      .object({ key: text().max(128).default(''), order: z.enum(['asc', 'desc']) })
      .nullable()
      .default(null),
    limit: z.number().int().min(1).max(10_000).nullable().default(null),
  }),
  iteration: z.object({
    list: selectorSchema,
    /** Which value of the body's last node becomes each item's result. */
    output: selectorSchema,
    parallel: z.boolean().default(false),
    parallel_limit: z.number().int().min(1).max(WORKFLOW_LIMITS.iterationParallelCeiling).default(4),
    /** terminate: one failed item fails the node; continue: its result is null; remove: it is dropped. */
    error_mode: z.enum(['terminate', 'continue', 'remove']).default('terminate'),
  }),
  loop: z.object({
    variables: z
      .array(z.object({ name: text().min(1).max(64), type: z.enum(VALUE_TYPES), initial: text().max(10_000) }))
      .max(20)
      .default([]),
    /** Checked after each round; the loop stops when they hold or after max_count rounds. */
    break_when: z.object(conditionGroup).default({ logical_operator: 'and', conditions: [] }),
    max_count: z.number().int().min(1).max(WORKFLOW_LIMITS.loopMaxCountCeiling).default(10),
  }),
  agent: z.object({ agent_id: text().max(64), query: template(20_000) }),
  sub_workflow: z.object({ workflow_id: text().max(64), inputs: z.array(boundVariable).max(50).default([]) }),
  /**
   * Calls a tool of one of the team's external MCP servers (docs/mcp.md). Each argument is a template;
   * where the tool's input schema wants a number, boolean, object or array, the rendered text is read
   * as JSON.
   */
  mcp_tool: z.object({
    server_id: text().max(64),
    tool: text().max(200),
    arguments: z
      .array(z.object({ name: text().min(1).max(200), value: template(100_000) }))
      .max(50)
      .default([]),
    timeout_ms: z.number().int().min(1_000).max(300_000).default(60_000),
  }),
  /** A node another product has and we do not (a Dify tool or plugin); always fails validation. */
  unsupported: z.object({
    original_type: text().max(200),
    summary: text().max(2_000).default(''),
    original: z.record(z.string(), z.unknown()).default({}),
  }),
} as const;

export type WorkflowNodeType = keyof typeof dataSchemas;
export const WORKFLOW_NODE_TYPES = Object.keys(dataSchemas) as WorkflowNodeType[];

/** What any node may do when it fails, after its retries. */
export const errorHandlingSchema = z.object({
  timeout_ms: z.number().int().min(100).max(WORKFLOW_LIMITS.nodeTimeoutMsCeiling).nullable().default(null),
  retry: z
    .object({
      max: z.number().int().min(0).max(WORKFLOW_LIMITS.maxRetries),
      interval_ms: z.number().int().min(0).max(WORKFLOW_LIMITS.maxRetryIntervalMs),
    })
    .default({ max: 0, interval_ms: 1_000 }),
  /**
   * abort: the run fails. default: the node's outputs become `default_outputs` and the run goes on
   * (the run's result is then has_error). fail_branch: the run continues along the `fail` handle.
   */
  on_error: z.enum(['abort', 'default', 'fail_branch']).default('abort'),
  default_outputs: z.record(z.string(), z.unknown()).default({}),
});
export type ErrorHandling = z.infer<typeof errorHandlingSchema>;

const nodeBase = {
  id: nodeIdSchema,
  title: text().max(100).default(''),
  description: text().max(1_000).default(''),
  position: z.object({ x: z.number().finite(), y: z.number().finite() }).default({ x: 0, y: 0 }),
  /** The iteration or loop this node is the body of; null at the top level. */
  parent_id: nodeIdSchema.nullable().default(null),
  errors: errorHandlingSchema.default({
    timeout_ms: null,
    retry: { max: 0, interval_ms: 1_000 },
    on_error: 'abort',
    default_outputs: {},
  }),
};

const nodeOf = <T extends WorkflowNodeType>(type: T) =>
  z.object({ ...nodeBase, type: z.literal(type), data: dataSchemas[type] });

export const workflowNodeSchema = z.discriminatedUnion('type', [
  nodeOf('start'),
  nodeOf('end'),
  nodeOf('answer'),
  nodeOf('llm'),
  nodeOf('knowledge'),
  nodeOf('classifier'),
  nodeOf('extractor'),
  nodeOf('if_else'),
  nodeOf('template'),
  nodeOf('code'),
  nodeOf('http'),
  nodeOf('aggregator'),
  nodeOf('assigner'),
  nodeOf('list_operator'),
  nodeOf('iteration'),
  nodeOf('loop'),
  nodeOf('agent'),
  nodeOf('sub_workflow'),
  nodeOf('mcp_tool'),
  nodeOf('unsupported'),
]);
export type WorkflowNode = z.infer<typeof workflowNodeSchema>;
export type WorkflowNodeOf<T extends WorkflowNodeType> = Extract<WorkflowNode, { type: T }>;
export type WorkflowNodeData<T extends WorkflowNodeType> = z.infer<(typeof dataSchemas)[T]>;

/**
 * `source_handle`: `out` for the ordinary path; an if/else case id or `else`; a classifier class
 * id; `fail` for a node's fail branch. Inside an iteration or loop, the body starts at the edge
 * whose source is the iteration/loop node with handle `body`.
 */
export const workflowEdgeSchema = z.object({
  id: text().min(1).max(140),
  source: nodeIdSchema,
  source_handle: text().min(1).max(64).default('out'),
  target: nodeIdSchema,
});
export type WorkflowEdge = z.infer<typeof workflowEdgeSchema>;

/**
 * What the server shows in place of a saved secret's value. Saving a draft with this value keeps
 * the value already saved under that name, so a secret never travels back to a browser.
 */
export const KEPT_SECRET = '__kept_secret__';

export const environmentVariableSchema = z.object({
  name: text()
    .min(1)
    .max(64)
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, { error: 'WORKFLOW_VARIABLE_NAME_INVALID' }),
  /** A secret's value is never shown again, logged, or exported. */
  type: z.enum(['string', 'number', 'secret']),
  value: text().max(10_000),
});
export type EnvironmentVariable = z.infer<typeof environmentVariableSchema>;

export const workflowSettingsSchema = z.object({
  max_steps: z.number().int().min(1).max(WORKFLOW_LIMITS.maxStepsCeiling).default(WORKFLOW_LIMITS.maxStepsDefault),
  max_run_ms: z.number().int().min(1_000).max(WORKFLOW_LIMITS.maxRunMsCeiling).default(WORKFLOW_LIMITS.maxRunMsDefault),
});

export const workflowGraphSchema = z.object({
  nodes: z.array(workflowNodeSchema).max(WORKFLOW_LIMITS.maxNodes, { error: 'WORKFLOW_TOO_LARGE' }),
  edges: z.array(workflowEdgeSchema).max(WORKFLOW_LIMITS.maxEdges, { error: 'WORKFLOW_TOO_LARGE' }),
  environment: z.array(environmentVariableSchema).max(50).default([]),
  settings: workflowSettingsSchema.default({
    max_steps: WORKFLOW_LIMITS.maxStepsDefault,
    max_run_ms: WORKFLOW_LIMITS.maxRunMsDefault,
  }),
});
export type WorkflowGraph = z.infer<typeof workflowGraphSchema>;
export type WorkflowGraphInput = z.input<typeof workflowGraphSchema>;

/** The file export writes and import reads (besides Dify DSL). */
export const WORKFLOW_FILE_FORMAT = 'athena-workflow';
export const WORKFLOW_FILE_VERSION = 1;
export const workflowFileSchema = z.object({
  format: z.literal(WORKFLOW_FILE_FORMAT),
  version: z.literal(WORKFLOW_FILE_VERSION),
  name: text().max(50),
  description: text().max(500).default(''),
  graph: workflowGraphSchema,
});
export type WorkflowFile = z.infer<typeof workflowFileSchema>;

/** The four results of a finished run; docs/workflows.md gives the rule and its order. */
export const RUN_RESULTS = ['succeeded', 'failed', 'empty_output', 'has_error'] as const;
export type RunResult = (typeof RUN_RESULTS)[number];
export const NODE_RUN_STATUSES = ['running', 'succeeded', 'failed', 'handled', 'skipped'] as const;
export type NodeRunStatus = (typeof NODE_RUN_STATUSES)[number];

/** Why a run failed, when it did (the run's `error` holds the message). */
export const RUN_FAILURE_REASONS = [
  'node_error',
  'timeout',
  'step_limit',
  'cancelled',
  'server_stopped',
  'invalid_graph',
] as const;
export type RunFailureReason = (typeof RUN_FAILURE_REASONS)[number];
