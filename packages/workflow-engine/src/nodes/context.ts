import type { Selector, WorkflowNodeType } from '@athena/contract';
import type { Frame } from '../pool.ts';
import type { RunState } from '../run-state.ts';
import type { NodeContext, NodeError, NodeResult } from '../types.ts';

/** A body that failed: the node whose unhandled error ended it. */
export interface ScopeFailure {
  error: NodeError;
  node_id: string;
}

/** What a built-in node gets besides an executor's context: the pool, the run, and its body. */
export interface BuiltinContext<T extends WorkflowNodeType = WorkflowNodeType> extends NodeContext<T> {
  frame: Frame;
  run: RunState;
  /** Reads as a node in another frame would (an iteration reads its item's result). */
  readIn(frame: Frame, selector: Selector): unknown;
  /** Runs this node's body in a frame of its own; null when every body node finished. */
  runBody(frame: Frame, signal: AbortSignal): Promise<ScopeFailure | null>;
}

export type Builtin<T extends WorkflowNodeType> = (context: BuiltinContext<T>) => NodeResult | Promise<NodeResult>;

export const titleOf = (node: { id: string; title: string }) => node.title || node.id;
