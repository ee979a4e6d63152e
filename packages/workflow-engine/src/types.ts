import type {
  NodeRunStatus,
  RunFailureReason,
  RunResult,
  Selector,
  WorkflowGraph,
  WorkflowNodeOf,
  WorkflowNodeType,
} from '@athena/contract';

// The engine's public shapes. The engine knows no HTTP, database or model: whoever runs a workflow
// passes executors for the node kinds that reach the outside world, and receives ordered events.

/** Values a run starts with besides the start node's inputs (selector `['sys', name]`). */
export interface SystemVariables {
  query: string;
  files: unknown[];
  user_id: string;
  run_id: string;
  workflow_id: string;
  conversation_id: string | null;
}

/**
 * Why a node or run failed. `code` is an error-catalogue key the UI shows in the reader's language
 * (WORKFLOW_NODE_TIMEOUT, MODEL_CALL_FAILED, WORKFLOW_NODE_FAILED…), `params` fills its
 * placeholders, and `detail` is the technical text (an exception's message), shown as it is.
 */
export interface NodeError {
  code: string;
  params: Record<string, string | number>;
  detail: string;
}

/**
 * An executor throws this to fail with a catalogue code; anything else it throws becomes
 * WORKFLOW_NODE_FAILED with the thrown message as detail.
 */
export class NodeFailure extends Error {
  constructor(
    readonly code: string,
    readonly params: Record<string, string | number> = {},
    detail = '',
  ) {
    super(detail || code);
  }
}

/** What an executor gets for one execution of one node. */
export interface NodeContext<T extends WorkflowNodeType = WorkflowNodeType> {
  node: WorkflowNodeOf<T>;
  /** The value at a selector as this node sees it (upstream outputs, sys, env, iteration item). */
  read(selector: Selector): unknown;
  /** Fills the `{{#nodeId.output#}}` references of a text. */
  render(template: string): string;
  /** Aborted on cancellation, on the node's timeout and on the run's time limit. */
  signal: AbortSignal;
  /** Streams text to the caller as it is produced (an LLM's tokens). */
  emitText(chunk: string): void;
  /** The run's masking of secrets, for an executor that records what it sent in a shape of its own. */
  mask<V>(value: V): V;
  /**
   * Masks `derived` too, for the rest of the run, when `source` holds a secret: a form of a secret
   * no exact match finds, such as the base64 of a basic auth `user:pass` a server may echo back.
   */
  maskDerived(source: string, derived: string): void;
  system: SystemVariables;
  /** 1 on the first attempt, 2 on the first retry… */
  attempt: number;
}

export interface NodeResult {
  outputs: Record<string, unknown>;
  /** What the node actually read or sent (a rendered prompt, a request), kept in the run's record. */
  inputs?: Record<string, unknown>;
  /** Tokens the node spent (model calls). */
  tokens?: number;
  /** The outgoing handle taken (a classifier's class id); `out` when absent. */
  branch?: string;
}

export type NodeExecutor<T extends WorkflowNodeType = WorkflowNodeType> = (
  context: NodeContext<T>,
) => Promise<NodeResult>;

/** The node kinds whose work lies outside the engine; the control-flow kinds are built in. */
export type ExternalNodeType = Exclude<
  WorkflowNodeType,
  'start' | 'end' | 'answer' | 'if_else' | 'aggregator' | 'assigner' | 'list_operator' | 'iteration' | 'loop'
>;
export type Executors = { [T in ExternalNodeType]?: NodeExecutor<T> };

/** Identifies one execution of a node: the same node runs once per iteration item or loop round. */
export interface ExecutionScope {
  /** `[iterationOrLoopId, index]` pairs from the outermost in; empty at the top level. */
  path: Array<{ node_id: string; index: number }>;
}

export type EngineEvent =
  | { type: 'run_started'; at: number }
  | {
      type: 'node_started';
      execution_id: string;
      node_id: string;
      node_type: WorkflowNodeType;
      title: string;
      scope: ExecutionScope;
      at: number;
    }
  | { type: 'node_retried'; execution_id: string; node_id: string; attempt: number; error: NodeError; at: number }
  | { type: 'text_chunk'; node_id: string; text: string }
  | {
      type: 'node_finished';
      execution_id: string;
      node_id: string;
      status: Exclude<NodeRunStatus, 'running' | 'skipped'>;
      inputs: Record<string, unknown>;
      outputs: Record<string, unknown>;
      error: NodeError | null;
      elapsed_ms: number;
      tokens: number;
      attempts: number;
      at: number;
    }
  | { type: 'run_finished'; summary: RunSummary; at: number };

export interface RunSummary {
  result: RunResult;
  /** The end nodes' outputs (merged, in the order the end nodes finished). */
  outputs: Record<string, unknown>;
  /** The answer nodes' texts, joined in the order they ran. */
  answer: string;
  failure: { reason: RunFailureReason; error: NodeError; node_id: string | null } | null;
  steps: number;
  tokens: number;
  elapsed_ms: number;
}

export interface RunOptions {
  graph: WorkflowGraph;
  /** The start node's inputs by name. */
  inputs: Record<string, unknown>;
  system: SystemVariables;
  executors: Executors;
  signal?: AbortSignal;
  /** Called synchronously, in order, for every event. */
  onEvent?: (event: EngineEvent) => void;
}

/** A problem that keeps a graph from being published or run; `code` is an error-catalogue key. */
export interface GraphProblem {
  code: string;
  node_id: string | null;
  params: Record<string, string | number>;
}

/** A value a node offers to the nodes after it, for the editor's variable picker. */
export interface OfferedVariable {
  node_id: string;
  node_title: string;
  node_type: WorkflowNodeType | 'sys' | 'env';
  name: string;
  type: string;
}
