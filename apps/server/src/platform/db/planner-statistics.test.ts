import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/test-app.ts';
import { createPlannerStatistics } from './planner-statistics.ts';
import { rowsOf } from './sql.ts';

describe('planner statistics on the embedded database', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const estimate = async () =>
    rowsOf<{ rows: number }>(
      await t.database.executeSql("select reltuples::float8 as rows from pg_class where relname = 'planner_probe'"),
    )[0].rows;

  it('analyses a table once enough rows were noted, so the planner knows its size', async () => {
    await t.database.executeSql('create table planner_probe (id int)');
    await t.database.executeSql('insert into planner_probe select generate_series(1, 5000)');
    // Never analysed: PGlite runs no autovacuum.
    expect(await estimate()).toBeLessThan(1);
    const statistics = createPlannerStatistics(t.database, t.app.log);
    statistics.noteWrites('planner_probe', 500);
    statistics.noteWrites('planner_probe', 4_500);
    await expect.poll(estimate, { timeout: 5_000 }).toBe(5000);
    expect(statistics.module.schedules?.map((job) => job.name)).toEqual(['embedded-analyze']);
  });

  it('at start, analyses the tables never analysed or grown since their statistics, and nothing else', async () => {
    await t.database.executeSql('create table planner_start (id int)');
    await t.database.executeSql('insert into planner_start select generate_series(1, 5000)');
    const statistics = createPlannerStatistics(t.database, t.app.log);
    const analyses = async () =>
      rowsOf<{ count: number }>(
        await t.database.executeSql('select coalesce(sum(analyze_count), 0)::int as count from pg_stat_user_tables'),
      )[0].count;
    const sizeOf = async () =>
      rowsOf<{ rows: number }>(
        await t.database.executeSql("select reltuples::float8 as rows from pg_class where relname = 'planner_start'"),
      )[0].rows;

    await statistics.module.onStart?.();
    expect(await sizeOf()).toBe(5000);
    // A start with nothing changed analyses nothing (the whole database took 0.5–1.5 s of every start).
    const before = await analyses();
    await statistics.module.onStart?.();
    expect(await analyses()).toBe(before);
    // Grown past the rule while no process noted it (a crash before the noted analysis).
    await t.database.executeSql('insert into planner_start select generate_series(1, 10000)');
    await statistics.module.onStart?.();
    expect(await sizeOf()).toBe(15000);
    expect(await analyses()).toBe(before + 1);
  });

  it('vacuums a table whose rows were updated in place, so old row versions do not pile up', async () => {
    await t.database.executeSql('create table planner_updated (id int primary key, n int)');
    await t.database.executeSql('insert into planner_updated select generate_series(1, 2000), 0');
    await t.database.executeSql('update planner_updated set n = n + 1');
    const vacuums = async () =>
      rowsOf<{ count: number }>(
        await t.database.executeSql(
          "select vacuum_count::int as count from pg_stat_user_tables where relname = 'planner_updated'",
        ),
      )[0]?.count ?? 0;
    expect(await vacuums()).toBe(0);
    const statistics = createPlannerStatistics(t.database, t.app.log);
    statistics.noteWrites('planner_updated', 2_000, 'updates');
    await expect.poll(vacuums, { timeout: 5_000 }).toBe(1);
  });
});
