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

  it('runs a scheduled job through pg-boss on PGlite', async () => {
    let runs = 0;
    const jobs = await startJobs(
      database,
      [{ name: 'probe', cron: '0 3 * * *', run: async () => void runs++ }],
      silent,
    );
    try {
      await jobs.boss.send('probe', {});
      await expect.poll(() => runs, { timeout: 10_000, interval: 200 }).toBe(1);
      const schedules = await jobs.boss.getSchedules();
      expect(schedules.map((s) => s.name)).toContain('probe');
    } finally {
      await jobs.stop();
    }
  });
});
