import type { WorkflowGraph } from '@athena/contract';
import { runNode } from './execute-node.ts';
import { topFrame } from './pool.ts';
import { errorOf, RunState } from './run-state.ts';
import { runScope } from './scope.ts';
import { type EngineEvent, type Executors, type NodeError, NodeFailure, type SystemVariables } from './types.ts';

export type NodeFinishedEvent = Extract<EngineEvent, { type: 'node_finished' }>;

export interface SingleNodeOptions {
  graph: WorkflowGraph;
  nodeId: string;
  /** What the node reads, keyed `'nodeId.output'` (`'start.q'`, `'iteration1.item'`, `'sys.query'` is read from `system`). */
  values: Record<string, unknown>;
  system: SystemVariables;
  executors: Executors;
  signal?: AbortSignal;
  onEvent?: (event: EngineEvent) => void;
}

/**
 * Runs one node with hand-given values for what it reads (the editor's "run this node"), with its
 * timeout, retries and error strategy, and answers its node_finished event. An iteration or loop
 * runs its body too. A start node takes its inputs from `values` under its own id.
 */
export async function runSingleNode(options: SingleNodeOptions): Promise<NodeFinishedEvent> {
  const { graph, nodeId, values } = options;
  const prefix = `${nodeId}.`;
  const inputs: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values))
    if (key.startsWith(prefix)) inputs[key.slice(prefix.length)] = value;

  let finished: NodeFinishedEvent | null = null;
  const run = new RunState(graph, options.executors, inputs, options.system, (event) => {
    if (event.type === 'node_finished' && event.execution_id === nodeId) finished = event;
    options.onEvent?.(event);
  });
  const node = run.plan.nodes.get(nodeId);
  const failed = (error: NodeError): NodeFinishedEvent => ({
    type: 'node_finished',
    execution_id: nodeId,
    node_id: nodeId,
    status: 'failed',
    inputs: {},
    outputs: {},
    error,
    elapsed_ms: 0,
    tokens: 0,
    attempts: 0,
    at: Date.now(),
  });
  if (!node)
    return failed({ code: 'WORKFLOW_NODE_FAILED', params: { detail: 'no such node' }, detail: 'no such node' });

  const frame = topFrame();
  for (const [key, value] of Object.entries(values)) {
    const dot = key.indexOf('.');
    if (dot <= 0) continue;
    const id = key.slice(0, dot);
    const outputs = frame.outputs.get(id) ?? {};
    outputs[key.slice(dot + 1)] = value;
    frame.outputs.set(id, outputs);
  }
  const limitMs = graph.settings.max_run_ms;
  const timer = setTimeout(
    () => run.stop('timeout', { code: 'WORKFLOW_RUN_TIMEOUT', params: { ms: limitMs }, detail: '' }, null),
    limitMs,
  );
  const cancel = () => run.stop('cancelled', { code: 'WORKFLOW_RUN_CANCELLED', params: {}, detail: '' }, null);
  if (options.signal?.aborted) cancel();
  else options.signal?.addEventListener('abort', cancel, { once: true });
  try {
    await Promise.race([
      runNode(run, node, frame, run.signal, (bodyId, bodyFrame, bodySignal) =>
        runScope(run, bodyId, bodyFrame, bodySignal),
      ),
      run.stopped,
    ]);
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', cancel);
  }
  run.finalize();
  run.close();
  // A run cancelled before the node began has nothing to report but why.
  return finished ?? failed(run.failure?.error ?? errorOf(new NodeFailure('WORKFLOW_RUN_CANCELLED')));
}
