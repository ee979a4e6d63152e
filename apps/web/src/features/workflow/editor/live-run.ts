import type { NodeRunStatus, RunError, StreamEvent, workflowRunStreams } from '@athena/contract';
import type { NodeBadge } from './editor-store.ts';

export type RunEvent = StreamEvent<typeof workflowRunStreams.run>;
export type RunSummary = Extract<RunEvent, { event: 'run_finished' }>['data'];

/** One node execution as the run panel lists it (a node in an iteration has one per item). */
export interface LiveNode {
  execution_id: string;
  node_id: string;
  node_type: string;
  title: string;
  /** How many iterations or loops it runs inside. */
  depth: number;
  status: NodeRunStatus;
  inputs: Record<string, unknown>;
  outputs: Record<string, unknown>;
  error: RunError | null;
  elapsed_ms: number | null;
  tokens: number;
  attempts: number;
}

/** A test run as its events have told it so far. */
export interface LiveRun {
  runId: string | null;
  /**
   * The sequence number of the last event applied. The server numbers a run's events 1, 2, 3… and
   * a stream sends them in order from its start (or from a reconnect's number), so counting them
   * gives the number a reconnect sends back.
   */
  seq: number;
  nodes: LiveNode[];
  /** Streamed text per node, and which node streamed last. */
  texts: Record<string, string>;
  lastTextNode: string | null;
  summary: RunSummary | null;
  /** Something outside the workflow went wrong (storage, a server stopping, a run deleted). */
  problem: { code: number; msg: string } | null;
}

export const emptyRun = (): LiveRun => ({
  runId: null,
  seq: 0,
  nodes: [],
  texts: {},
  lastTextNode: null,
  summary: null,
  problem: null,
});

function updateExecution(run: LiveRun, executionId: string, patch: Partial<LiveNode>): LiveNode[] {
  return run.nodes.map((node) => (node.execution_id === executionId ? { ...node, ...patch } : node));
}

/** The run after one more event; never mutates the one given (React state). */
export function applyRunEvent(run: LiveRun, event: RunEvent): LiveRun {
  const next = { ...run, seq: run.seq + 1 };
  switch (event.event) {
    case 'run_started':
      return { ...next, runId: event.data.run_id };
    case 'node_started': {
      const { data } = event;
      const node: LiveNode = {
        execution_id: data.execution_id,
        node_id: data.node_id,
        node_type: data.node_type,
        title: data.title,
        depth: data.scope.path.length,
        status: 'running',
        inputs: {},
        outputs: {},
        error: null,
        elapsed_ms: null,
        tokens: 0,
        attempts: 1,
      };
      return { ...next, nodes: [...run.nodes.filter((item) => item.execution_id !== data.execution_id), node] };
    }
    case 'node_retried':
      // `attempt` numbers the attempt about to begin.
      return { ...next, nodes: updateExecution(run, event.data.execution_id, { attempts: event.data.attempt }) };
    case 'text_chunk': {
      const { node_id, text } = event.data;
      return { ...next, texts: { ...run.texts, [node_id]: (run.texts[node_id] ?? '') + text }, lastTextNode: node_id };
    }
    case 'node_finished': {
      const { execution_id, status, inputs, outputs, error, elapsed_ms, tokens, attempts } = event.data;
      const known = run.nodes.some((node) => node.execution_id === execution_id);
      const nodes = known
        ? updateExecution(run, execution_id, { status, inputs, outputs, error, elapsed_ms, tokens, attempts })
        : [
            ...run.nodes,
            {
              execution_id,
              node_id: event.data.node_id,
              node_type: '',
              title: '',
              depth: 0,
              status,
              inputs,
              outputs,
              error,
              elapsed_ms,
              tokens,
              attempts,
            },
          ];
      return { ...next, nodes };
    }
    case 'run_finished':
      return { ...next, runId: run.runId ?? event.data.run_id, summary: event.data };
    case 'error':
      return { ...next, problem: { code: event.data.code, msg: event.data.msg } };
  }
}

/**
 * What each node's badge shows: its latest execution's status and time, and the tokens of all its
 * executions (a node in an iteration runs once per item). A node still running says so.
 */
export function badgesOf(run: LiveRun): Record<string, NodeBadge> {
  const badges: Record<string, NodeBadge> = {};
  for (const node of run.nodes) {
    const before = badges[node.node_id];
    badges[node.node_id] = {
      status: node.status,
      elapsed_ms: node.elapsed_ms,
      tokens: (before?.tokens ?? 0) + node.tokens,
    };
  }
  return badges;
}

/** The text to show as the run's answer: the answer nodes' once finished, else what streamed last. */
export function answerOf(run: LiveRun): string {
  if (run.summary?.answer) return run.summary.answer;
  return run.lastTextNode ? (run.texts[run.lastTextNode] ?? '') : '';
}
