import PgBoss from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../platform/db/database.ts';
import { openTestDatabase } from '../../testing/test-database.ts';
import { createIndexQueue, INDEX_QUEUE } from './index-queue.ts';
import { ensureIndexQueue } from './indexer-worker.ts';

// The sweeper sends a waiting unit's job again without looking into pg-boss's tables; this holds
// only while the queue drops a copy of a job that has not been taken yet.
describe('knowledge index queue', () => {
  let database: Database;
  let boss: PgBoss;
  beforeAll(async () => {
    database = await openTestDatabase();
    boss = new PgBoss({ db: { executeSql: database.executeSql } });
    await boss.start();
    await ensureIndexQueue(boss);
  });
  afterAll(async () => {
    await boss.stop({ graceful: false, wait: true });
    await database.close();
  });

  it('keeps one waiting job per unit run, however often it is sent; another run gets its own', async () => {
    const queue = createIndexQueue({ db: database.db });
    queue.attach(boss, () => {});
    const spaceId = crypto.randomUUID();
    const unitId = crypto.randomUUID();
    await queue.enqueue(spaceId, [{ unitId, runId: 1 }]);
    await queue.enqueue(spaceId, [{ unitId, runId: 1 }]);
    expect(await boss.getQueueSize(INDEX_QUEUE)).toBe(1);
    await queue.enqueue(spaceId, [{ unitId, runId: 2 }]);
    expect(await boss.getQueueSize(INDEX_QUEUE)).toBe(2);
  });
});
