import { randomUUID } from 'node:crypto';
import type { RunResult } from '@athena/contract';
import { and, asc, count, desc, eq, gt, isNull, lt, lte, or } from 'drizzle-orm';
import { isUuid } from '../../../platform/crypto.ts';
import type { Db } from '../../../platform/db/database.ts';
import { AppError } from '../../../platform/http/app-error.ts';
import { type StoredError, workflowNodeRuns, workflowRunEvents, workflowRuns } from '../run.schema.ts';
import { workflows } from '../workflow.schema.ts';

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
     * The end of a run in one transaction: its last events (run_finished among them), the node
     * executions not yet written, the finished row and the workflow's last result (unless a newer
     * run already set it). A reader of the table never sees run_finished without the stored run.
     */
    async finishRun(
      run: { id: string; workflowId: string; createdAt: Date },
      events: StoredEvent[],
      nodes: NodeRunRow[],
      ending: RunEnding,
    ) {
      const at = deps.now();
      await db.transaction(async (tx) => {
        if (events.length > 0) {
          await tx.insert(workflowRunEvents).values(events.map((item) => ({ runId: run.id, ...item })));
        }
        if (nodes.length > 0) await tx.insert(workflowNodeRuns).values(nodes).onConflictDoNothing();
        await tx
          .update(workflowRuns)
          .set({ ...ending, status: 'finished', finishedAt: at, progressAt: at })
          .where(and(eq(workflowRuns.id, run.id), eq(workflowRuns.status, 'running')));
        await tx
          .update(workflows)
          .set({ lastRunResult: ending.result, lastRunAt: run.createdAt })
          .where(
            and(
              eq(workflows.id, run.workflowId),
              or(isNull(workflows.lastRunAt), lte(workflows.lastRunAt, run.createdAt)),
            ),
          );
      });
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
