import type { FastifyBaseLogger } from 'fastify';
import type PgBoss from 'pg-boss';
import type { QueueWorker } from '../../../platform/module.ts';
import type { RunService } from '../runs/run.service.ts';

export const TRIGGER_QUEUE = 'workflow-trigger-run';
/** Runs in this process at once from the queue; more wait for the next free worker (or another process). */
const CONCURRENCY = 4;
/** Longer than any run may take (the longest max_run_ms is an hour), so pg-boss never gives up on one. */
const JOB_EXPIRY_SECONDS = 2 * 3600;

/** A run a webhook or a schedule asked for; the run id was decided when it was asked. */
export interface TriggerJob {
  runId: string;
  spaceId: string;
  workflowId: string;
  userId: string | null;
  trigger: 'webhook' | 'schedule';
  inputs: Record<string, unknown>;
}

export type TriggerQueue = ReturnType<typeof createTriggerQueue>;

/**
 * Background runs through pg-boss, so that any process may take them. A job is tried once
 * (`retryLimit: 0`): a run that started and lost its process is failed by the runs' sweep, and
 * running it again could repeat what it did outside (HTTP calls). Until pg-boss is attached (a
 * process or test without the job runner), a run starts in this process instead.
 */
export function createTriggerQueue(deps: { runs: RunService; log: FastifyBaseLogger }) {
  let boss: PgBoss | null = null;
  const workerIds: string[] = [];

  async function execute(job: TriggerJob) {
    try {
      const run = await deps.runs.startTriggered({ ...job });
      await run.done;
    } catch (error) {
      // Refused when it came to run (the workflow stopped being effective, its inputs changed):
      // nothing ran, and the caller was already answered.
      deps.log.warn({ err: error, workflow: job.workflowId, trigger: job.trigger }, 'triggered workflow run refused');
    }
  }

  const worker: QueueWorker = {
    name: TRIGGER_QUEUE,
    async start(instance) {
      const options = { retryLimit: 0, expireInSeconds: JOB_EXPIRY_SECONDS } as const;
      await instance.createQueue(TRIGGER_QUEUE, { name: TRIGGER_QUEUE, ...options });
      for (let i = 0; i < CONCURRENCY; i++) {
        const id = await instance.work<TriggerJob>(
          TRIGGER_QUEUE,
          { batchSize: 1, pollingIntervalSeconds: 1 },
          async ([job]) => {
            if (job) await execute(job.data);
          },
        );
        workerIds.push(id);
      }
      boss = instance;
    },
    async stop() {
      const instance = boss;
      boss = null;
      workerIds.length = 0;
      await instance?.offWork(TRIGGER_QUEUE);
    },
  };

  return {
    worker,
    async send(job: TriggerJob) {
      const target = boss;
      if (!target) {
        void execute(job);
        return;
      }
      await target.send(TRIGGER_QUEUE, job, { singletonKey: job.runId });
      // Jobs sent here wake this process's workers at once instead of at their next poll.
      for (const id of workerIds) target.notifyWorker(id);
    },
  };
}
