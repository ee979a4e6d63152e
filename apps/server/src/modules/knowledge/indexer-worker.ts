import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type PgBoss from 'pg-boss';
import type { Db } from '../../platform/db/database.ts';
import { rowsOf } from '../../platform/db/sql.ts';
import type { QueueWorker } from '../../platform/module.ts';
import { INDEX_QUEUE, type IndexJob, type IndexQueue } from './index-queue.ts';
import type { Indexer } from './indexer.ts';

/** A job may run this long before pg-boss gives up on it (our own lease decides long before). */
const JOB_EXPIRY_SECONDS = 4 * 3600;
/** How many stray units one sweep queues at most. */
const SWEEP_LIMIT = 1000;

type Stray = { id: string; run_id: number; space_id: string };

interface IndexerWorkerDeps {
  db: Db;
  queue: IndexQueue;
  indexer: Indexer;
  concurrency: number;
  leaseSeconds: number;
  log: FastifyBaseLogger;
}

/**
 * The indexing queue with its policy. 'short': pg-boss keeps at most one not-yet-taken job per
 * singleton key (a unit's run), so the sweeper may send a unit's job again without asking whether
 * one is already waiting. Queues made before the policy was set keep their old one until updated.
 */
export async function ensureIndexQueue(boss: PgBoss) {
  const options = { retryLimit: 0, expireInSeconds: JOB_EXPIRY_SECONDS, policy: 'short' } as const;
  await boss.createQueue(INDEX_QUEUE, { name: INDEX_QUEUE, ...options });
  await boss.updateQueue(INDEX_QUEUE, { name: INDEX_QUEUE, ...options });
}

/** The indexer as the job runner starts it; `sweep` lets a test run the sweeper at once. */
export function createIndexerWorker(deps: IndexerWorkerDeps): QueueWorker & { sweep(): Promise<void> } {
  let running: Awaited<ReturnType<typeof startKnowledgeIndexer>> | null = null;
  return {
    name: INDEX_QUEUE,
    async start(boss) {
      running = await startKnowledgeIndexer({ ...deps, boss });
    },
    async stop() {
      await running?.stop();
      running = null;
    },
    sweep: async () => running?.sweep(),
  };
}

/**
 * Runs the indexer on pg-boss: `concurrency` workers in this process (each one job at a time) and
 * a sweeper, at start and every min(15 s, lease), that
 *  - puts units whose lease expired while `indexing` (their worker died) back to `waiting` and
 *    queues them again (same run: the work done so far is kept), and
 *  - sends again the jobs of `waiting` units that have waited longer than a lease (their job may
 *    have been lost: the process died between marking and sending, or the unit was started while
 *    no indexer was attached); the queue's policy drops a copy of a job that is still waiting.
 */
async function startKnowledgeIndexer(deps: IndexerWorkerDeps & { boss: PgBoss }) {
  const { boss, db, queue, indexer, log } = deps;
  await ensureIndexQueue(boss);
  const workerIds: string[] = [];
  for (let i = 0; i < deps.concurrency; i++) {
    let self: string | undefined;
    self = await boss.work<IndexJob>(INDEX_QUEUE, { batchSize: 1, pollingIntervalSeconds: 1 }, async ([job]) => {
      if (job) await indexer.process(job.data);
      // Straight on to the next job: pg-boss would otherwise wait out the polling interval.
      for (const id of self ? [self] : workerIds) boss.notifyWorker(id);
    });
    workerIds.push(self);
  }
  // Jobs sent from this process wake its workers at once instead of at their next poll.
  queue.attach(boss, () => {
    for (const id of workerIds) boss.notifyWorker(id);
  });

  async function requeue(rows: Stray[]) {
    const bySpace = new Map<string, IndexJob[]>();
    const seen = new Set<string>();
    for (const row of rows) {
      // One job per unit, even if both sweeps below came upon it.
      if (seen.has(row.id)) continue;
      seen.add(row.id);
      bySpace.set(row.space_id, [...(bySpace.get(row.space_id) ?? []), { unitId: row.id, runId: row.run_id }]);
    }
    for (const [spaceId, jobs] of bySpace) await queue.enqueue(spaceId, jobs);
  }

  async function sweep() {
    // updated_at is set so the orphan query below (and the next sweeps, until a worker claims it)
    // does not take the unit just put back for one that lost its job.
    const expired = rowsOf<Stray>(
      await db.execute(sql`
        UPDATE knowledge_units SET status = 'waiting', lease_expires_at = NULL, lease_token = NULL, updated_at = now()
        WHERE id IN (SELECT id FROM knowledge_units WHERE status = 'indexing' AND lease_expires_at < now() LIMIT ${SWEEP_LIMIT})
        RETURNING id, run_id, space_id`),
    );
    // A worker claims its unit within moments of taking the job, so a waiting unit older than a
    // lease may have lost its job: send it again (pg-boss drops the copy if the job is still
    // waiting). Touching updated_at moves the next sweeps on to the units after these.
    const orphans = rowsOf<Stray>(
      await db.execute(sql`
        UPDATE knowledge_units SET updated_at = now()
        WHERE id IN (
          SELECT id FROM knowledge_units
          WHERE status = 'waiting' AND updated_at < now() - make_interval(secs => ${deps.leaseSeconds})
          ORDER BY updated_at LIMIT ${SWEEP_LIMIT})
        RETURNING id, run_id, space_id`),
    );
    if (expired.length || orphans.length) {
      log.info({ expired: expired.length, orphans: orphans.length }, 'knowledge sweeper queued units again');
    }
    await requeue([...expired, ...orphans]);
  }

  let sweeping: Promise<void> | null = null;
  const runSweep = () => {
    sweeping ??= sweep()
      .catch((error) => log.error({ err: error }, 'knowledge sweeper failed'))
      .finally(() => {
        sweeping = null;
      });
    return sweeping;
  };
  await runSweep();
  const timer = setInterval(runSweep, Math.min(15, deps.leaseSeconds) * 1000);

  return {
    sweep: runSweep,
    /** Stops fetching, puts in-flight units back in the queue, then detaches from pg-boss. */
    async stop() {
      clearInterval(timer);
      await sweeping;
      await boss.offWork(INDEX_QUEUE);
      await indexer.stop();
      queue.detach();
    },
  };
}
