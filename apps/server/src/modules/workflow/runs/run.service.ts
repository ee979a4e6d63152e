import type { RunFailureReason, RunResult, RunTrigger } from '@athena/contract';
import { validateGraph } from '@athena/workflow-engine';
import type { AuthContext } from '../../../platform/auth-guard.ts';
import { authorize } from '../../../platform/auth-guard.ts';
import type { Events } from '../../../platform/events.ts';
import { AppError } from '../../../platform/http/app-error.ts';
import { workflowRunCancel } from '../events.ts';
import { createExecutors, type ExecutorServices } from '../executors/executors.ts';
import { invalidGraph } from '../graph-check.ts';
import type { LiveRun } from './live-runs.ts';
import { presentNodeRun, presentRun, presentSummary } from './run.presenters.ts';
import type { RunRepo } from './run.repo.ts';
import { type ExecutionDeps, type RunRequest, startRun } from './run-execution.ts';
import { checkStartInputs } from './start-inputs.ts';
import type { RunnableGraph, WorkflowSource } from './workflow-source.repo.ts';

/** Why a run's signal aborted when someone cancelled it (the engine reports it as cancelled). */
export class RunCancelled extends Error {
  constructor() {
    super('the run was cancelled');
    this.name = 'RunCancelled';
  }
}

export interface RunServiceDeps extends ExecutionDeps {
  repo: RunRepo;
  source: WorkflowSource;
  events: Events;
  executorServices: ExecutorServices;
}

export type RunService = ReturnType<typeof createRunService>;

interface RunBody {
  workflow_id: string;
  version_id?: string | null;
  inputs: Record<string, unknown>;
  query: string;
}

/**
 * Runs of the space's workflows. Any member may run a workflow and read its runs; cancelling is for
 * whoever started the run or an admin. Interactive runs execute in the process that received the
 * request (docs/workflow-runs.md says why).
 */
export function createRunService(deps: RunServiceDeps) {
  const { repo, live, source } = deps;
  // Cancelling reaches the process that runs the run, wherever the request landed.
  const cancels = deps.events.channel('workflow.run-cancel', workflowRunCancel);
  cancels.receive(({ runId }) => live.get(runId)?.controller.abort(new RunCancelled()));

  /** A run's executors; a sub-workflow node runs its workflow's effective version one level deeper. */
  function executorsFor(spaceId: string, userId: string | null, depth: number, workflowId: string) {
    return (runId: string) =>
      createExecutors(deps.executorServices, {
        spaceId,
        userId,
        workflowId,
        runId,
        depth,
        runEffective: async ({ workflowId, inputs, depth: childDepth, signal }) => {
          const target = await source.effective(spaceId, workflowId);
          const child = await begin({
            spaceId,
            userId,
            target,
            inputs: checkStartInputs(target.graph, inputs),
            query: '',
            trigger: 'sub_workflow',
            depth: childDepth,
            parentSignal: signal,
          });
          const summary = await child.done;
          return {
            ...summary,
            failure: summary.failure && {
              ...summary.failure,
              reason: summary.failure.reason as RunFailureReason,
            },
          };
        },
      });
  }

  function begin(params: {
    spaceId: string;
    userId: string | null;
    target: RunnableGraph;
    inputs: Record<string, unknown>;
    query: string;
    trigger: RunTrigger;
    depth: number;
    parentSignal?: AbortSignal;
    runId?: string;
    endUser?: string;
    announceFirst?: boolean;
  }): Promise<LiveRun> {
    const problems = validateGraph(params.target.graph);
    if (problems.length > 0) throw invalidGraph(problems);
    const request: RunRequest = {
      spaceId: params.spaceId,
      userId: params.userId,
      workflowId: params.target.workflowId,
      versionId: params.target.versionId,
      graph: params.target.graph,
      inputs: params.inputs,
      query: params.query,
      trigger: params.trigger,
      runId: params.runId,
      endUser: params.endUser,
      parentSignal: params.parentSignal,
      announceFirst: params.announceFirst,
      executors: executorsFor(params.spaceId, params.userId, params.depth, params.target.workflowId),
    };
    return startRun(deps, request);
  }

  /**
   * A run of the caller's space executing in this process, found without a query (its row may still
   * be being written: run_started goes out first).
   */
  function liveOf(ctx: AuthContext, runId: string) {
    const space = authorize(ctx, 'workflow.run');
    const run = live.get(runId);
    return run?.spaceId === space.id ? run : undefined;
  }

  async function findRun(ctx: AuthContext, runId: string) {
    const space = authorize(ctx, 'workflow.run');
    return repo.find(space.id, runId);
  }

  return {
    /**
     * A test run of the draft (or a version) from the editor: checked, started, and followed by the
     * caller. `announceFirst`: the stream may send run_started while the run's row is being written.
     */
    async start(ctx: AuthContext, body: RunBody, options: { announceFirst?: boolean } = {}) {
      const space = authorize(ctx, 'workflow.run');
      const target = await source.forTestRun(space.id, body.workflow_id, body.version_id ?? null);
      const inputs = checkStartInputs(target.graph, body.inputs);
      return begin({
        spaceId: space.id,
        userId: ctx.userId,
        target,
        inputs,
        query: body.query,
        trigger: 'editor',
        depth: 0,
        announceFirst: options.announceFirst,
      });
    },

    /**
     * The effective version for a trigger (API key, webhook, schedule), which has no session: the
     * trigger's own credential chose the workflow. Checked like any run before it starts.
     */
    async startTriggered(params: {
      spaceId: string;
      workflowId: string;
      /** Who the run is recorded for (the key's or trigger's creator; null when they left). */
      userId: string | null;
      inputs: Record<string, unknown>;
      /** `sys.query`, for a chat-like workflow called over the API. */
      query?: string;
      trigger: Extract<RunTrigger, 'api' | 'webhook' | 'schedule'>;
      runId?: string;
      endUser?: string;
      /** A caller that streams the run: run_started may go out while the run's row is being written. */
      announceFirst?: boolean;
    }) {
      const target = await source.effective(params.spaceId, params.workflowId);
      return begin({
        spaceId: params.spaceId,
        userId: params.userId,
        target,
        inputs: checkStartInputs(target.graph, params.inputs),
        query: params.query ?? '',
        trigger: params.trigger,
        depth: 0,
        runId: params.runId,
        endUser: params.endUser,
        announceFirst: params.announceFirst,
      });
    },

    /** Refuses now what startTriggered would refuse later (a webhook answers before its run starts). */
    async checkTriggered(spaceId: string, workflowId: string, inputs: Record<string, unknown>) {
      const target = await source.effective(spaceId, workflowId);
      const problems = validateGraph(target.graph);
      if (problems.length > 0) throw invalidGraph(problems);
      return checkStartInputs(target.graph, inputs);
    },

    async runBlocking(ctx: AuthContext, body: RunBody) {
      const run = await this.start(ctx, body);
      return presentSummary(await run.done, ctx.language);
    },

    /** The run to reconnect to, checked to be of the caller's space. */
    async toFollow(ctx: AuthContext, runId: string) {
      return (liveOf(ctx, runId) ?? (await findRun(ctx, runId))).id;
    },

    async cancel(ctx: AuthContext, runId: string) {
      const here = liveOf(ctx, runId);
      const run = here ? { id: here.id, createdBy: here.createdBy, status: 'running' } : await findRun(ctx, runId);
      const role = ctx.space?.role ?? 3;
      if (run.createdBy !== ctx.userId && role > 2) throw new AppError('FORBIDDEN');
      if (run.status === 'finished') throw new AppError('WORKFLOW_RUN_FINISHED');
      if (here) here.controller.abort(new RunCancelled());
      else await cancels.send({ runId: run.id });
      return null;
    },

    async list(ctx: AuthContext, body: { workflow_id: string; result?: RunResult; page: number; page_size: number }) {
      const space = authorize(ctx, 'workflow.run');
      await source.check(space.id, body.workflow_id);
      const { items, total } = await repo.list(body.workflow_id, {
        result: body.result,
        page: body.page,
        pageSize: body.page_size,
      });
      return { items: items.map((row) => presentRun(row, ctx.language)), total };
    },

    async detail(ctx: AuthContext, runId: string) {
      const run = await findRun(ctx, runId);
      const nodes = await repo.nodeRuns(run.id);
      return {
        run: presentRun(run, ctx.language),
        nodes: nodes.map((row) => presentNodeRun(row, ctx.language)),
      };
    },
  };
}
