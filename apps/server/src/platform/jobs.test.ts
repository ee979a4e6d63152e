import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_DIR } from '../config.ts';
import { type Database, openDatabase } from './db/database.ts';
import { startJobs } from './jobs.ts';

const silent = { error: () => {}, info: () => {}, warn: () => {} } as unknown as Parameters<typeof startJobs>[2];

describe('jobs on the embedded database', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openDatabase({ dataDir: 'memory://', migrationsFolder: MIGRATIONS_DIR });
  });
  afterAll(() => database.close());

  it("runs modules' scheduled jobs through pg-boss on PGlite, and starts and stops their workers", async () => {
    let runs = 0;
    const worker = { started: 0, stopped: 0 };
    const jobs = await startJobs(
      database,
      [
        {
          name: 'probe-module',
          routes: () => {},
          schedules: [{ name: 'probe', cron: '0 3 * * *', run: async () => void runs++ }],
          workers: [
            {
              name: 'probe-worker',
              start: async () => void worker.started++,
              stop: async () => void worker.stopped++,
            },
          ],
        },
      ],
      silent,
    );
    try {
      expect(worker).toEqual({ started: 1, stopped: 0 });
      await jobs.boss.send('probe', {});
      await expect.poll(() => runs, { timeout: 10_000, interval: 200 }).toBe(1);
      const schedules = await jobs.boss.getSchedules();
      expect(schedules.map((s) => s.name)).toContain('probe');
    } finally {
      await jobs.stop();
    }
    expect(worker.stopped).toBe(1);
  });

  it('writes a schedule again only when its cron changed, so a restart spends no statements on them', async () => {
    const start = (cron: string) =>
      startJobs(
        database,
        [
          {
            name: 'restart-module',
            routes: () => {},
            schedules: [{ name: 'restart-probe', cron, run: async () => {} }],
          },
        ],
        silent,
      );
    const stored = async () => {
      const { rows } = await database.executeSql(
        "select cron, updated_on::text as updated from pgboss.schedule where name = 'restart-probe'",
      );
      return rows[0] as { cron: string; updated: string };
    };
    await (await start('0 4 * * *')).stop();
    const first = await stored();
    await (await start('0 4 * * *')).stop();
    expect(await stored()).toEqual(first);
    await (await start('30 4 * * *')).stop();
    expect((await stored()).cron).toBe('30 4 * * *');
  });
});
