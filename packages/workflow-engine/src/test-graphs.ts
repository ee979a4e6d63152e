import {
  type WorkflowEdge,
  type WorkflowGraph,
  type WorkflowGraphInput,
  type WorkflowNode,
  workflowGraphSchema,
} from '@athena/contract';
import { runWorkflow } from './scheduler.ts';
import type { EngineEvent, RunOptions, RunSummary, SystemVariables } from './types.ts';

// Builders for the package's tests and bench: a graph written as briefly as possible, then parsed by
// the contract so that every default is filled in exactly as a saved document would have it.

type NodeInput = WorkflowGraphInput['nodes'][number];

export function graphOf(
  nodes: NodeInput[],
  edges: Array<[string, string] | [string, string, string]>,
  rest: Omit<WorkflowGraphInput, 'nodes' | 'edges'> = {},
): WorkflowGraph {
  return workflowGraphSchema.parse({
    nodes,
    edges: edges.map(([source, target, handle = 'out'], i) => ({
      id: `e${i}`,
      source,
      target,
      source_handle: handle,
    })),
    ...rest,
  });
}

export const start = (id = 'start', inputs: Array<Record<string, unknown>> = []): NodeInput =>
  ({ id, type: 'start', data: { inputs } }) as NodeInput;

export const end = (id: string, outputs: Array<{ name: string; selector: string[] }> = []): NodeInput => ({
  id,
  type: 'end',
  data: { outputs },
});

export const answer = (id: string, text: string): NodeInput => ({ id, type: 'answer', data: { text } });

export const llm = (id: string, prompt = 'hello', extra: Partial<NodeInput> = {}): NodeInput =>
  ({ id, type: 'llm', data: { user_prompt: prompt }, ...extra }) as NodeInput;

export type { WorkflowEdge, WorkflowNode };

export const SYSTEM: SystemVariables = {
  query: 'hello',
  files: [],
  user_id: 'u1',
  run_id: 'r1',
  workflow_id: 'w1',
  conversation_id: null,
};

/** Runs a graph and keeps every event it emitted. */
export async function runCollecting(
  graph: WorkflowGraph,
  options: Partial<Omit<RunOptions, 'graph' | 'onEvent'>> = {},
): Promise<{ summary: RunSummary; events: EngineEvent[] }> {
  const events: EngineEvent[] = [];
  const summary = await runWorkflow({
    graph,
    inputs: {},
    system: SYSTEM,
    executors: {},
    ...options,
    onEvent: (event) => events.push(event),
  });
  return { summary, events };
}

/** The node_finished events, as `nodeId:status`. */
export const finishedOf = (events: EngineEvent[]) =>
  events.flatMap((event) => (event.type === 'node_finished' ? [`${event.execution_id}:${event.status}`] : []));

/** A code node whose executor (by id in tests) decides what it does. */
export const code = (id: string, extra: Record<string, unknown> = {}): NodeInput =>
  ({
    id,
    type: 'code',
    data: { language: 'javascript', code: 'x', outputs: [{ name: 'result', type: 'any' }] },
    ...extra,
  }) as NodeInput;

export const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
