import { randomUUID } from 'node:crypto';
import type { RunTrigger, WorkflowGraph } from '@athena/contract';
import type { EngineEvent, Executors, RunOptions, RunSummary } from '@athena/workflow-engine';
import type { FastifyBaseLogger } from 'fastify';
import { isShutdown } from '../../../platform/http/open-streams.ts';
import type { LiveRun } from './live-runs.ts';
import type { NodeRunRow, RunRepo, StoredEvent } from './run.repo.ts';
import { storedSummary, toStoredEvent } from './run-events.ts';
import { forStorage } from './stored-payload.ts';
import { type SupervisionDeps, superviseRun } from './supervised-run.ts';

/** The engine's entry point, injected so the service can be built before the engine lands. */
export type RunWorkflow = (options: RunOptions) => Promise<RunSummary>;

/**
 * Events are written in batches: when this many wait, or this long after the first of them. Every
 * event is in memory for readers in this process, so only a reader in another process waits for a
 * batch; most runs end before the first one and are written whole in their end's transaction.
 */
const BATCH_EVENTS = 500;
export const BATCH_MS = 2_000;

export interface RunRequest {
  spaceId: string;
  userId: string | null;
  workflowId: string;
  versionId: string | null;
  graph: WorkflowGraph;
  inputs: Record<string, unknown>;
  query: string;
  trigger: RunTrigger;
  /** The id to run under, when the trigger already told it to its caller (a webhook's 202). */
  runId?: string;
  /** `sys.user_id` when the caller names its own end user (the API's `user`). */
  endUser?: string;
  /** Aborts the run with it (a sub-workflow's parent). */
  parentSignal?: AbortSignal;
  /**
   * Return before the run's row is written, so run_started can be sent at once (the stream route).
   * Otherwise the row is written first and a failed insert throws, as the caller expects.
   */
  announceFirst?: boolean;
  executors: (runId: string) => Executors;
}

export interface ExecutionDeps extends SupervisionDeps {
  repo: RunRepo;
  runWorkflow: RunWorkflow;
  log: FastifyBaseLogger;
}

/** Why a run's signal aborted when its events could not be stored, even after a second try. */
export class RunNotStored extends Error {
  constructor() {
    super('the run events could not be stored');
    this.name = 'RunNotStored';
  }
}

/**
 * Starts a run: its row is written, the engine runs in this process, and the returned LiveRun
 * follows it. Events are numbered, kept in memory for readers here and written in batches;
 * run_finished is published only once the run and its node executions are stored, so a reader who
 * sees it can read the run's record. A server shutting down fails the run as server_stopped.
 */
export async function startRun(deps: ExecutionDeps, request: RunRequest): Promise<LiveRun> {
  const row = { id: request.runId ?? randomUUID(), createdAt: deps.repo.now() };
  // The engine and every write wait for the row; its failure is kept, not thrown, until read below.
  const inserted = deps.repo
    .create({
      id: row.id,
      createdAt: row.createdAt,
      spaceId: request.spaceId,
      workflowId: request.workflowId,
      versionId: request.versionId,
      trigger: request.trigger,
      inputs: forStorage(request.inputs),
      createdBy: request.userId,
    })
    .then(
      () => null,
      (error: unknown) => error ?? new Error('the run could not be stored'),
    );
  const supervised = superviseRun(deps, {
    id: row.id,
    spaceId: request.spaceId,
    createdBy: request.userId,
    parentSignal: request.parentSignal,
  });
  const { run, controller } = supervised;

  let seq = 0;
  let pending: StoredEvent[] = [];
  let pendingNodes: NodeRunRow[] = [];
  let timer: NodeJS.Timeout | undefined;
  let writing: Promise<unknown> = inserted;
  let storageFailed = false;
  // What node_started said of each execution, for its row when it finishes.
  const started = new Map<string, Pick<NodeRunRow, 'nodeType' | 'title' | 'scope' | 'startedAt' | 'startedSeq'>>();

  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    const events = pending;
    const nodes = pendingNodes;
    pending = [];
    pendingNodes = [];
    const append = () => deps.repo.append(run.id, events, nodes);
    writing = writing
      .then(append)
      // Once more: a reader of the table skips a missing batch without noticing.
      .catch((error) => {
        deps.log.warn({ err: error, run: run.id }, 'workflow run events not stored, trying once more');
        return append();
      })
      .catch((error) => {
        // Twice refused: the batch goes back ahead of what came since, to be written with the run's
        // end, no later batch is tried, and the run stops with a storage error.
        storageFailed = true;
        pending = [...events, ...pending];
        pendingNodes = [...nodes, ...pendingNodes];
        deps.log.error({ err: error, run: run.id }, 'workflow run events could not be stored');
        controller.abort(new RunNotStored());
      });
    return writing;
  };
  const emit = (event: StoredEvent['event']) => {
    const stored = { seq: ++seq, event };
    deps.live.publish(run, stored);
    pending.push(stored);
    if (storageFailed) return;
    if (pending.length >= BATCH_EVENTS) void flush();
    else timer ??= setTimeout(flush, BATCH_MS);
  };
  const onEvent = (event: EngineEvent) => {
    const stored = toStoredEvent(event);
    if (!stored) return;
    if (event.type === 'node_started') {
      const { node_type: nodeType, title, scope } = event;
      // The seq its node_started event is about to get (emit numbers it below).
      started.set(event.execution_id, { nodeType, title, scope, startedAt: new Date(), startedSeq: seq + 1 });
    }
    if (event.type === 'node_finished') {
      const data = stored.data as Record<string, unknown>;
      const meta = started.get(event.execution_id);
      started.delete(event.execution_id);
      pendingNodes.push({
        runId: run.id,
        executionId: event.execution_id,
        nodeId: event.node_id,
        nodeType: meta?.nodeType ?? '',
        title: meta?.title ?? '',
        scope: meta?.scope ?? { path: [] },
        startedAt: meta?.startedAt ?? new Date(),
        startedSeq: meta?.startedSeq ?? seq + 1,
        status: event.status,
        inputs: data.inputs as Record<string, unknown>,
        outputs: data.outputs as Record<string, unknown>,
        error: (data.error as NodeRunRow['error']) ?? null,
        tokens: event.tokens,
        attempts: event.attempts,
        elapsedMs: Math.round(event.elapsed_ms),
        finishedAt: new Date(),
      });
    }
    emit(stored);
  };
  emit({
    event: 'run_started',
    data: { run_id: run.id, workflow_id: request.workflowId, version_id: request.versionId, trigger: request.trigger },
  });

  // The row could not be written: nothing of the run is, and its readers get the error last.
  const abandon = (error: unknown) => {
    deps.log.error({ err: error, run: run.id }, 'workflow run could not be stored');
    clearTimeout(timer);
    timer = undefined;
    pending = [];
    deps.live.publish(run, { seq: ++seq, event: { event: 'error', data: { key: 'SYSTEM_ERROR', kind: 'storage' } } });
    supervised.end(storedSummary(run.id, faultSummary(error)));
  };

  const execute = async () => {
    const failed = await inserted;
    if (failed) return abandon(failed);
    let summary: RunSummary;
    try {
      summary = await deps.runWorkflow({
        graph: request.graph,
        inputs: request.inputs,
        system: {
          query: request.query,
          files: [],
          user_id: request.endUser ?? request.userId ?? '',
          run_id: run.id,
          workflow_id: request.workflowId,
          conversation_id: null,
        },
        executors: request.executors(run.id),
        signal: controller.signal,
        onEvent,
      });
    } catch (error) {
      // The engine reports failures in its summary; a throw is a fault of ours, still a finished run.
      deps.log.error({ err: error, run: run.id }, 'workflow engine failed');
      summary = faultSummary(error);
    } finally {
      supervised.stopProgress();
    }
    const shutdown = isShutdown(controller.signal);
    const notStored = controller.signal.reason instanceof RunNotStored;
    if (notStored) {
      summary = {
        ...faultSummary(controller.signal.reason),
        steps: summary.steps,
        tokens: summary.tokens,
        elapsed_ms: summary.elapsed_ms,
      };
    }
    if (shutdown) {
      summary = {
        ...summary,
        result: 'failed',
        failure: {
          reason: 'server_stopped',
          error: { code: 'WORKFLOW_SERVER_STOPPED', params: {}, detail: '' },
          node_id: summary.failure?.node_id ?? null,
        },
      };
    }
    const final = storedSummary(run.id, summary);
    clearTimeout(timer);
    timer = undefined;
    await writing;
    // Only a run stopped for it hears of a refused batch; one refused after the engine finished
    // is written with the end like the rest.
    if (notStored) emitError('SYSTEM_ERROR', 'storage');
    if (shutdown) emitError('SERVER_RESTARTING', 'shutdown');
    clearTimeout(timer);
    timer = undefined;
    // The end in one transaction with run_finished, which readers here get only once it committed.
    const finished: StoredEvent = { seq: seq + 1, event: { event: 'run_finished', data: final } };
    const events = [...pending, finished];
    const nodes = pendingNodes;
    pending = [];
    pendingNodes = [];
    try {
      await deps.repo.finishRun(
        { id: run.id, workflowId: request.workflowId, createdAt: row.createdAt },
        events,
        nodes,
        {
          result: final.result,
          failureReason: final.failure?.reason ?? null,
          error: final.failure?.error ?? null,
          outputs: final.outputs,
          answer: final.answer,
          steps: final.steps,
          tokens: final.tokens,
          elapsedMs: final.elapsed_ms,
        },
      );
      seq = finished.seq;
      deps.live.publish(run, finished);
    } catch (error) {
      deps.log.error({ err: error, run: run.id }, 'workflow run could not be stored as finished');
      // Nothing of that transaction was written: its events go once more, after the error.
      pending = events.slice(0, -1);
      pendingNodes = nodes;
      emitError('SYSTEM_ERROR', 'storage');
      emit({ event: 'run_finished', data: final });
      await flush();
    }
    supervised.end(final);
  };
  // The error event's message is localised when sent, like every stored error.
  const emitError = (key: 'SYSTEM_ERROR' | 'SERVER_RESTARTING', kind: string) =>
    emit({ event: 'error', data: { key, kind } });
  if (!request.announceFirst) {
    const failed = await inserted;
    if (failed) {
      abandon(failed);
      throw failed;
    }
  }
  // It waits for its row first; whoever follows the run reads its events from memory, so none is
  // missed by starting before the caller has the run.
  void execute();
  return run;
}

/** A summary for a run the engine could not finish (a fault of ours, not of the workflow). */
function faultSummary(error: unknown): RunSummary {
  return {
    result: 'failed',
    outputs: {},
    answer: '',
    failure: {
      reason: 'node_error',
      error: { code: 'SYSTEM_ERROR', params: {}, detail: error instanceof Error ? error.message : String(error) },
      node_id: null,
    },
    steps: 0,
    tokens: 0,
    elapsed_ms: 0,
  };
}
