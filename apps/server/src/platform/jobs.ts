import type { FastifyBaseLogger } from 'fastify';
import PgBoss from 'pg-boss';
import type { Database } from './db/database.ts';

export interface ScheduledJob {
  name: string;
  /** Cron expression (UTC). */
  cron: string;
  run(): Promise<void>;
}

/**
 * Starts pg-boss on the application's own database (no extra infrastructure) and schedules the
 * given jobs. With several processes, pg-boss makes sure each scheduled run happens once.
 */
export async function startJobs(database: Database, jobs: ScheduledJob[], log: FastifyBaseLogger) {
  const boss = database.connectionString
    ? new PgBoss({ connectionString: database.connectionString })
    : new PgBoss({ db: { executeSql: database.executeSql } });
  boss.on('error', (error) => log.error({ err: error }, 'job queue error'));
  await boss.start();
  for (const job of jobs) {
    await boss.createQueue(job.name);
    await boss.work(job.name, async () => {
      await job.run();
    });
    await boss.schedule(job.name, job.cron);
  }
  return {
    boss,
    stop: () => boss.stop({ graceful: true, wait: true, timeout: 10_000 }),
  };
}
