import type { NodeRunStatus, WorkflowGraph } from '@athena/contract';
import type { Executors, NodeError, SystemVariables } from '@athena/workflow-engine';
import type { AuthContext } from '../../../platform/auth-guard.ts';
import { authorize } from '../../../platform/auth-guard.ts';
import { AppError } from '../../../platform/http/app-error.ts';
import { isShutdown } from '../../../platform/http/open-streams.ts';
import type { RunEnding, RunRepo } from './run.repo.ts';
import { presentError, storedError, summaryOfEnding } from './run-events.ts';
import { forStorage } from './stored-payload.ts';
import { type SupervisionDeps, superviseRun } from './supervised-run.ts';
import type { WorkflowSource } from './workflow-source.repo.ts';

/** One node's execution with hand-given values, as the engine reports it. */
export interface SingleNodeResult {
  status: Exclude<NodeRunStatus, 'running' | 'skipped'>;
  inputs: Record<string, unknown>;
  outputs: Record<string, unknown>;
  error: NodeError | null;
  branch?: string | null;
  tokens: number;
  elapsed_ms: number;
}

/** The engine's single-node entry point, injected like runWorkflow. */
export type RunSingleNode = (options: {
  graph: WorkflowGraph;
  nodeId: string;
  /** Values by selector written `nodeId.output`. */
  values: Record<string, unknown>;
  system: SystemVariables;
  executors: Executors;
  signal?: AbortSignal;
}) => Promise<SingleNodeResult>;

/** How the live run ends when the node's run could not be stored (the error reaches the route). */
const FAULT = {
  result: 'failed',
  failureReason: 'node_error',
  error: { code: 'SYSTEM_ERROR', params: {}, detail: '' },
  outputs: {},
  answer: '',
  steps: 1,
  tokens: 0,
} as const satisfies Omit<RunEnding, 'elapsedMs'>;

export type SingleNodeService = ReturnType<typeof createSingleNodeService>;

/**
 * The editor's single-step run: one node of the draft, reading hand-given values instead of
 * upstream outputs. It is kept as a run (trigger `single_node`) with its one execution, so it shows
 * in the history like any other. Like a whole run it can be cancelled, is interrupted by a shutdown
 * and proves its process alive while it runs, so a slow model call is not swept as orphaned.
 */
export function createSingleNodeService(
  deps: SupervisionDeps & {
    repo: RunRepo;
    source: WorkflowSource;
    runSingleNode: RunSingleNode;
    executors: (spaceId: string, userId: string) => Executors;
  },
) {
  return {
    async run(ctx: AuthContext, body: { workflow_id: string; node_id: string; values: Record<string, unknown> }) {
      const space = authorize(ctx, 'workflow.run');
      const target = await deps.source.forTestRun(space.id, body.workflow_id, null);
      const node = target.graph.nodes.find((candidate) => candidate.id === body.node_id);
      if (!node) throw new AppError('NOT_FOUND');
      const row = await deps.repo.create({
        spaceId: space.id,
        workflowId: target.workflowId,
        versionId: null,
        trigger: 'single_node',
        inputs: forStorage(body.values),
        createdBy: ctx.userId,
      });
      const supervised = superviseRun(deps, { id: row.id, spaceId: space.id, createdBy: ctx.userId });
      const { signal } = supervised.controller;
      // Whatever happens below, the live run ends, so a shutdown's drain never waits for it.
      let ending: RunEnding = { ...FAULT, elapsedMs: 0 };
      try {
        const startedAt = new Date();
        const result = await deps
          .runSingleNode({
            graph: target.graph,
            nodeId: node.id,
            values: body.values,
            system: {
              query: typeof body.values['sys.query'] === 'string' ? body.values['sys.query'] : '',
              files: [],
              user_id: ctx.userId,
              run_id: row.id,
              workflow_id: target.workflowId,
              conversation_id: null,
            },
            executors: deps.executors(space.id, ctx.userId),
            signal,
          })
          .finally(supervised.stopProgress);
        const inputs = forStorage(result.inputs);
        const outputs = forStorage(result.outputs);
        const error = result.error && storedError(result.error);
        const elapsed = Math.round(result.elapsed_ms);
        await deps.repo.append(
          row.id,
          [],
          [
            {
              runId: row.id,
              executionId: `${node.id}#single`,
              nodeId: node.id,
              nodeType: node.type,
              title: node.title,
              scope: { path: [] },
              status: result.status,
              inputs,
              outputs,
              error,
              tokens: result.tokens,
              attempts: 1,
              elapsedMs: elapsed,
              startedAt,
              startedSeq: 1,
              finishedAt: new Date(),
            },
          ],
        );
        ending = {
          result: result.status === 'succeeded' ? 'succeeded' : result.status === 'handled' ? 'has_error' : 'failed',
          failureReason: result.status !== 'failed' ? null : failureReason(signal),
          error,
          outputs,
          answer: '',
          steps: 1,
          tokens: result.tokens,
          elapsedMs: elapsed,
        };
        await deps.repo.finish(row.id, ending);
        return {
          run_id: row.id,
          status: result.status,
          inputs,
          outputs,
          error: error && presentError(error, ctx.language),
          branch: result.branch ?? null,
          tokens: result.tokens,
          elapsed_ms: elapsed,
        };
      } finally {
        supervised.end(summaryOfEnding(row.id, ending));
      }
    },
  };
}

/** Why a failed single node stopped: someone cancelled it, the server stopped, or the node failed. */
function failureReason(signal: AbortSignal) {
  if (!signal.aborted) return 'node_error' as const;
  return isShutdown(signal) ? ('server_stopped' as const) : ('cancelled' as const);
}
