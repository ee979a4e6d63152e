import type { RunFailureReason, WorkflowGraph, WorkflowNode } from '@athena/contract';
import { type Plan, planOf } from './plan.ts';
import type { Frame, Globals } from './pool.ts';
import { addSecret, maskSecrets, secretsOf } from './secrets.ts';
import {
  type EngineEvent,
  type Executors,
  type NodeError,
  NodeFailure,
  type RunSummary,
  type SystemVariables,
} from './types.ts';

// The state of one run: counters, what the result needs, the in-flight executions, the event
// stream and the one way a run stops early. Every event leaves through `emit`, masked, and
// nothing is emitted after `close`.

export interface Execution {
  id: string;
  node: WorkflowNode;
  frame: Frame;
  started: number;
  attempts: number;
  done: boolean;
}

type FinishedStatus = 'succeeded' | 'failed' | 'handled';

export function errorOf(thrown: unknown): NodeError {
  if (thrown instanceof NodeFailure) {
    return { code: thrown.code, params: thrown.params, detail: thrown.message === thrown.code ? '' : thrown.message };
  }
  const detail = thrown instanceof Error ? thrown.message : String(thrown);
  return { code: 'WORKFLOW_NODE_FAILED', params: { detail }, detail };
}

export class RunState {
  readonly plan: Plan;
  readonly globals: Globals;
  readonly secrets: string[];
  readonly maxSteps: number;
  readonly controller = new AbortController();
  readonly signal = this.controller.signal;
  steps = 0;
  tokens = 0;
  handled = false;
  readonly endOutputs: Array<Record<string, unknown>> = [];
  readonly answers: string[] = [];
  failure: RunSummary['failure'] = null;
  readonly started = performance.now();
  readonly stopped: Promise<void>;
  private markStopped!: () => void;
  private closed = false;
  private readonly inflight = new Set<Execution>();

  constructor(
    readonly graph: WorkflowGraph,
    readonly executors: Executors,
    readonly inputs: Record<string, unknown>,
    system: SystemVariables,
    private readonly onEvent: ((event: EngineEvent) => void) | undefined,
  ) {
    this.plan = planOf(graph);
    const env: Record<string, unknown> = {};
    for (const variable of graph.environment) {
      env[variable.name] = variable.type === 'number' ? Number(variable.value) : variable.value;
    }
    this.globals = { system, env };
    this.secrets = secretsOf(graph.environment);
    this.maxSteps = graph.settings.max_steps;
    this.stopped = new Promise((resolve) => {
      this.markStopped = resolve;
    });
  }

  mask<T>(value: T): T {
    return maskSecrets(value, this.secrets);
  }

  /** Masks `derived` too, from now on, when `source` holds a secret. */
  maskDerived(source: string, derived: string): void {
    if (this.secrets.length > 0 && this.mask(source) !== source) addSecret(this.secrets, derived);
  }

  /** Hands an event to the caller; a listener that throws does not break the run. */
  emit(event: EngineEvent): void {
    if (this.closed || !this.onEvent) return;
    try {
      this.onEvent(event);
    } catch {
      // the caller's own failure; the run goes on and reports through its summary
    }
  }

  close(): void {
    this.closed = true;
  }

  /**
   * Ends the run early, once: the first reason wins. Every in-flight execution's signal fires; a
   * node error cancels the other nodes (their own error says cancelled), a limit tells them why.
   */
  stop(reason: RunFailureReason, error: NodeError, nodeId: string | null): void {
    if (this.failure) return;
    this.failure = { reason, error, node_id: nodeId };
    const why =
      reason === 'node_error' ? new NodeFailure('WORKFLOW_RUN_CANCELLED') : new NodeFailure(error.code, error.params);
    this.controller.abort(why);
    this.markStopped();
  }

  begin(node: WorkflowNode, frame: Frame, id: string): Execution {
    const execution: Execution = { id, node, frame, started: performance.now(), attempts: 1, done: false };
    this.inflight.add(execution);
    this.emit({
      type: 'node_started',
      execution_id: id,
      node_id: node.id,
      node_type: node.type,
      title: node.title,
      scope: { path: frame.path },
      at: Date.now(),
    });
    return execution;
  }

  /** Reports an execution's end, once; false when it was already reported (the run stopped first). */
  finish(
    execution: Execution,
    status: FinishedStatus,
    fields: {
      inputs?: Record<string, unknown>;
      outputs?: Record<string, unknown>;
      error?: NodeError | null;
      tokens?: number;
    },
  ): boolean {
    if (execution.done) return false;
    execution.done = true;
    this.inflight.delete(execution);
    this.emit({
      type: 'node_finished',
      execution_id: execution.id,
      node_id: execution.node.id,
      status,
      inputs: this.mask(fields.inputs ?? {}),
      outputs: this.mask(fields.outputs ?? {}),
      error: fields.error ? this.mask(fields.error) : null,
      elapsed_ms: Math.round(performance.now() - execution.started),
      tokens: fields.tokens ?? 0,
      attempts: execution.attempts,
      at: Date.now(),
    });
    return true;
  }

  /** Reports every execution still running as failed with the reason the run stopped. */
  finalize(): void {
    const reason: unknown = this.signal.reason;
    const error = reason instanceof NodeFailure ? errorOf(reason) : errorOf(new NodeFailure('WORKFLOW_RUN_CANCELLED'));
    for (const execution of [...this.inflight]) this.finish(execution, 'failed', { error });
  }
}
