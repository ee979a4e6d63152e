import { randomUUID } from 'node:crypto';
import type { RunResult } from '@athena/contract';
import { and, asc, count, desc, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import { isUuid } from '../../../platform/crypto.ts';
import type { Db } from '../../../platform/db/database.ts';
import { AppError } from '../../../platform/http/app-error.ts';
import { type StoredError, workflowNodeRuns, workflowRunEvents, workflowRuns } from '../run.schema.ts';

export type RunRow = typeof workflowRuns.$inferSelect;
export type NodeRunRow = typeof workflowNodeRuns.$inferInsert;
export interface StoredEvent {
  seq: number;
  event: { event: string; data: unknown };
}

/** How a run ended, as its row keeps it. */
export interface RunEnding {
  result: RunResult;
  failureReason: string | null;
  error: StoredError | null;
  outputs: Record<string, unknown>;
  answer: string;
  steps: number;
  tokens: number;
  elapsedMs: number;
}

export function createRunRepo(deps: { db: Db; now: () => Date }) {
  const { db } = deps;
  return {
    /** The clock runs are stamped with (tests move it). */
    now: deps.now,

    async create(run: {
      /** A run id handed out before the run starts (a webhook answers it at once). */
      id?: string;
      spaceId: string;
      workflowId: string;
      versionId: string | null;
      trigger: string;
      inputs: Record<string, unknown>;
      createdBy: string | null;
      createdAt?: Date;
    }) {
      // The id and time are chosen here, so the insert need not send the row back.
      const row = { id: run.id ?? randomUUID(), createdAt: run.createdAt ?? deps.now() };
      await db.insert(workflowRuns).values({ ...run, ...row, status: 'running', progressAt: row.createdAt });
      return row;
    },

    /** A run of the space, or WORKFLOW_RUN_NOT_FOUND (another space's run answers the same). */
    async find(spaceId: string, runId: string) {
      if (!isUuid(runId)) throw new AppError('WORKFLOW_RUN_NOT_FOUND');
      const [row] = await db
        .select()
        .from(workflowRuns)
        .where(and(eq(workflowRuns.spaceId, spaceId), eq(workflowRuns.id, runId)))
        .limit(1);
      if (!row) throw new AppError('WORKFLOW_RUN_NOT_FOUND');
      return row;
    },

    async status(runId: string) {
      const [row] = await db.select().from(workflowRuns).where(eq(workflowRuns.id, runId)).limit(1);
      return row ?? null;
    },

    async list(workflowId: string, filter: { result?: RunResult; page: number; pageSize: number }) {
      const where = and(
        eq(workflowRuns.workflowId, workflowId),
        filter.result ? eq(workflowRuns.result, filter.result) : undefined,
      );
      const [items, [{ total }]] = await Promise.all([
        db
          .select()
          .from(workflowRuns)
          .where(where)
          .orderBy(desc(workflowRuns.createdAt), desc(workflowRuns.id))
          .limit(filter.pageSize)
          .offset((filter.page - 1) * filter.pageSize),
        db.select({ total: count() }).from(workflowRuns).where(where),
      ]);
      return { items, total };
    },

    nodeRuns: (runId: string) =>
      db
        .select()
        .from(workflowNodeRuns)
        .where(eq(workflowNodeRuns.runId, runId))
        .orderBy(asc(workflowNodeRuns.startedSeq)),

    /** Proves the run's process alive (see markStopped). */
    async touch(runId: string) {
      await db
        .update(workflowRuns)
        .set({ progressAt: deps.now() })
        .where(and(eq(workflowRuns.id, runId), eq(workflowRuns.status, 'running')));
    },

    /** Writes a batch of events and finished node executions in one transaction. */
    async append(runId: string, events: StoredEvent[], nodes: NodeRunRow[]) {
      if (events.length === 0 && nodes.length === 0) return;
      await db.transaction(async (tx) => {
        if (events.length > 0) {
          await tx.insert(workflowRunEvents).values(events.map((item) => ({ runId, ...item })));
        }
        if (nodes.length > 0) await tx.insert(workflowNodeRuns).values(nodes).onConflictDoNothing();
      });
    },

    async finish(runId: string, ending: RunEnding) {
      await db
        .update(workflowRuns)
        .set({ ...ending, status: 'finished', finishedAt: deps.now(), progressAt: deps.now() })
        .where(and(eq(workflowRuns.id, runId), eq(workflowRuns.status, 'running')));
    },

    /**
     * The end of a run in one statement (so, atomically): its last events (run_finished among them),
     * the node executions not yet written, the finished row and the workflow's last result (unless a
     * newer run already set it). A reader of the table never sees run_finished without the stored
     * run. One statement instead of a transaction of four: on embedded PGlite each statement costs
     * the server's own thread, and this is written once per run.
     */
    async finishRun(
      run: { id: string; workflowId: string; createdAt: Date },
      events: StoredEvent[],
      nodes: NodeRunRow[],
      ending: RunEnding,
    ) {
      const at = deps.now().toISOString();
      const startedAt = run.createdAt.toISOString();
      const nodeRows = nodes.map((node) => ({
        execution_id: node.executionId,
        node_id: node.nodeId,
        node_type: node.nodeType,
        title: node.title ?? '',
        scope: node.scope,
        status: node.status,
        inputs: node.inputs ?? {},
        outputs: node.outputs ?? {},
        error: node.error ?? null,
        tokens: node.tokens ?? 0,
        attempts: node.attempts ?? 1,
        elapsed_ms: node.elapsedMs ?? 0,
        started_seq: node.startedSeq,
        started_at: node.startedAt.toISOString(),
        finished_at: node.finishedAt ? node.finishedAt.toISOString() : null,
      }));
      await db.execute(sql`
        WITH events AS (
          INSERT INTO workflow_run_events (run_id, seq, event)
          SELECT ${run.id}::uuid, x.seq, x.event
          FROM jsonb_to_recordset(${JSON.stringify(events)}::jsonb) AS x(seq bigint, event jsonb)
        ), nodes AS (
          INSERT INTO workflow_node_runs (run_id, execution_id, node_id, node_type, title, scope, status,
            inputs, outputs, error, tokens, attempts, elapsed_ms, started_seq, started_at, finished_at)
          SELECT ${run.id}::uuid, x.execution_id, x.node_id, x.node_type, x.title, x.scope, x.status,
            x.inputs, x.outputs, x.error, x.tokens, x.attempts, x.elapsed_ms, x.started_seq, x.started_at, x.finished_at
          FROM jsonb_to_recordset(${JSON.stringify(nodeRows)}::jsonb) AS x(execution_id text, node_id text,
            node_type text, title text, scope jsonb, status text, inputs jsonb, outputs jsonb, error jsonb,
            tokens integer, attempts integer, elapsed_ms integer, started_seq bigint, started_at timestamptz,
            finished_at timestamptz)
          ON CONFLICT DO NOTHING
        ), finished AS (
          UPDATE workflow_runs SET status = 'finished', result = ${ending.result},
            failure_reason = ${ending.failureReason}, error = ${ending.error === null ? null : JSON.stringify(ending.error)}::jsonb,
            outputs = ${JSON.stringify(ending.outputs)}::jsonb, answer = ${ending.answer}, steps = ${ending.steps},
            tokens = ${ending.tokens}, elapsed_ms = ${ending.elapsedMs}, finished_at = ${at}::timestamptz,
            progress_at = ${at}::timestamptz
          WHERE id = ${run.id}::uuid AND status = 'running'
        )
        UPDATE workflows SET last_run_result = ${ending.result}, last_run_at = ${startedAt}::timestamptz
        WHERE id = ${run.workflowId}::uuid AND (last_run_at IS NULL OR last_run_at <= ${startedAt}::timestamptz)`);
    },

    eventsAfter: (runId: string, afterSeq: number, limit = 500): Promise<StoredEvent[]> =>
      db
        .select({ seq: workflowRunEvents.seq, event: workflowRunEvents.event })
        .from(workflowRunEvents)
        .where(and(eq(workflowRunEvents.runId, runId), gt(workflowRunEvents.seq, afterSeq)))
        .orderBy(asc(workflowRunEvents.seq))
        .limit(limit),

    /**
     * Runs still "running" whose process last wrote before `before` lost that process (a crash, a
     * kill): they become failed, server_stopped. Returns them, so their workflows' last result follows.
     */
    async markStopped(before: Date, error: StoredError) {
      return db
        .update(workflowRuns)
        .set({
          status: 'finished',
          result: 'failed',
          failureReason: 'server_stopped',
          error,
          finishedAt: deps.now(),
        })
        .where(
          and(
            eq(workflowRuns.status, 'running'),
            or(isNull(workflowRuns.progressAt), lt(workflowRuns.progressAt, before)),
          ),
        )
        .returning({ id: workflowRuns.id, workflowId: workflowRuns.workflowId, createdAt: workflowRuns.createdAt });
    },
  };
}
export type RunRepo = ReturnType<typeof createRunRepo>;
