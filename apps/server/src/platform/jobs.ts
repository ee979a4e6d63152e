import type { FastifyBaseLogger } from 'fastify';
import PgBoss from 'pg-boss';
import type { Database } from './db/database.ts';
import type { AppModule } from './module.ts';

/**
 * How often a schedule's worker asks for its job. pg-boss itself sends a schedule's job only when
 * its cron monitor looks (every 30 s), so asking every 2 s (its default) bought nothing but ten
 * statements a second on an idle server, each waking the embedded database's thread.
 */
const SCHEDULE_POLL_SECONDS = 10;

/**
 * The one job runner, in production and in tests alike: starts pg-boss on the application's own
 * database (no extra infrastructure), then every module's schedules and queue workers. With several
 * processes, pg-boss makes sure each scheduled run happens once.
 */
export async function startJobs(database: Database, modules: AppModule[], log: FastifyBaseLogger) {
  const boss = database.connectionString
    ? new PgBoss({ connectionString: database.connectionString })
    : new PgBoss({ db: { executeSql: database.executeSql } });
  boss.on('error', (error) => log.error({ err: error }, 'job queue error'));
  const workers = modules.flatMap((module) => module.workers ?? []);
  // pg-boss 10 creates a new queue's partition in steps that deadlock when two processes create
  // the same queue at once (two processes started together on a fresh database: one crashed). So
  // processes set up their queues one after the other; the second finds them made.
  await database.exclusive('athena.jobs', async () => {
    await boss.start();
    for (const module of modules) await module.onStart?.();
    // A start mostly finds the queues and schedules the last one left: writing each again cost two
    // statements per schedule (about 40, each a turn of the embedded database's one connection,
    // before the server listens). Only a missing queue or a schedule whose cron changed is written.
    const queues = new Set((await boss.getQueues()).map((queue) => queue.name));
    const schedules = new Map((await boss.getSchedules()).map((schedule) => [schedule.name, schedule]));
    for (const job of modules.flatMap((module) => module.schedules ?? [])) {
      if (!queues.has(job.name)) await boss.createQueue(job.name);
      await boss.work(job.name, { pollingIntervalSeconds: SCHEDULE_POLL_SECONDS }, async () => {
        await job.run();
      });
      const stored = schedules.get(job.name) as (PgBoss.Schedule & { timezone?: string }) | undefined;
      if (stored?.cron !== job.cron || stored.timezone !== 'UTC') await boss.schedule(job.name, job.cron);
    }
    for (const worker of workers) await worker.start(boss);
  });
  return {
    boss,
    /**
     * Workers first (they hand unfinished work back to the queue), then pg-boss itself, which waits
     * up to `timeoutMs` for jobs still running (a shutdown passes its grace period).
     */
    async stop(timeoutMs = 10_000) {
      for (const worker of [...workers].reverse()) await worker.stop();
      await boss.stop({ graceful: true, wait: true, timeout: timeoutMs });
    },
  };
}
