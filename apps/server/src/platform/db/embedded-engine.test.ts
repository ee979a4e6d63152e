import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_DIR } from '../../config.ts';
import { openTestDatabase } from '../../testing/test-database.ts';
import { type Database, openDatabase } from './database.ts';
import { EngineLost, startEmbeddedEngine } from './embedded-engine.ts';

const folders: string[] = [];
const folder = () => {
  const made = mkdtempSync(path.join(os.tmpdir(), 'athena-engine-'));
  folders.push(made);
  return made;
};
afterAll(() => {
  for (const made of folders) rmSync(made, { recursive: true, force: true });
});

const settle = (promise: Promise<unknown>) =>
  Promise.race([promise.then(() => 'done'), new Promise((r) => setTimeout(() => r('waiting'), 150))]);

describe('the embedded database on its own thread', () => {
  it('keeps a transaction exclusive: a statement from outside waits for it and never sees it half-done', async () => {
    const database = await openTestDatabase();
    try {
      await database.db.execute(sql`create table pairs (n int primary key, side text)`);
      let release!: () => void;
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      let outside: Promise<unknown> | undefined;
      const transaction = database.db.transaction(async (tx) => {
        await tx.execute(sql`insert into pairs values (1, 'a')`);
        outside = database.db.execute(sql`select count(*)::int as n from pairs`);
        expect(await settle(outside)).toBe('waiting');
        await tx.execute(sql`insert into pairs values (2, 'b')`);
        await released;
      });
      await new Promise((r) => setTimeout(r, 50));
      release();
      await transaction;
      expect(await outside).toMatchObject({ rows: [{ n: 2 }] });

      await expect(
        database.db.transaction(async (tx) => {
          await tx.execute(sql`insert into pairs values (3, 'c')`);
          throw new Error('changed my mind');
        }),
      ).rejects.toThrow('changed my mind');
      expect((await database.executeSql('select n from pairs order by n')).rows).toEqual([{ n: 1 }, { n: 2 }]);
    } finally {
      await database.close();
    }
  });

  it('keeps PostgreSQL errors readable: the code and constraint of a unique violation', async () => {
    const database = await openTestDatabase();
    try {
      await database.db.execute(sql`create table once (n int constraint once_n primary key)`);
      await database.db.execute(sql`insert into once values (1)`);
      const error = await database.db.execute(sql`insert into once values (1)`).catch((e: Error) => e);
      expect(error).toMatchObject({ cause: { code: '23505', constraint: 'once_n' } });
    } finally {
      await database.close();
    }
  });

  it('delivers NOTIFY to a listener across the thread boundary, after the sender commits', async () => {
    const database = await openTestDatabase();
    try {
      const heard: string[] = [];
      await database.listen('engine_test', (payload) => heard.push(payload));
      await database.db.transaction(async (tx) => {
        await tx.execute(sql`select pg_notify('engine_test', 'inside')`);
        await new Promise((r) => setTimeout(r, 50));
        expect(heard).toEqual([]);
      });
      await database.notify('engine_test', 'outside');
      await expect.poll(() => heard).toEqual(['inside', 'outside']);
    } finally {
      await database.close();
    }
  });

  it('opens a data directory written by PGlite on the server thread (before this change) unchanged', async () => {
    const dataDir = folder();
    const before = await PGlite.create({ dataDir, extensions: { vector } });
    await before.exec(`create table kept (n int primary key, note text); insert into kept values (1, '旧数据')`);
    await before.close();
    const database = await openDatabase({ dataDir, migrationsFolder: MIGRATIONS_DIR });
    try {
      expect((await database.executeSql('select n, note from kept')).rows).toEqual([{ n: 1, note: '旧数据' }]);
      await database.migrate();
      expect((await database.executeSql('select count(*)::int as n from users')).rows).toEqual([{ n: 0 }]);
    } finally {
      await database.close();
    }
  });

  it('creates a new data directory, migrated, before the database opens on it (on a thread that then ends)', async () => {
    const dataDir = path.join(folder(), 'new');
    const database = await openDatabase({ dataDir, migrationsFolder: MIGRATIONS_DIR });
    try {
      // Migrated while it was created: the tables are there before migrate() runs (which finds nothing to do).
      expect((await database.executeSql('select count(*)::int as n from users')).rows).toEqual([{ n: 0 }]);
      await database.migrate();
      expect(existsSync(path.join(dataDir, 'PG_VERSION'))).toBe(true);
    } finally {
      await database.close();
    }
  });

  it('loses no committed row when the whole process is killed with SIGKILL during writes', async () => {
    const dataDir = folder();
    const fixture = path.join(import.meta.dirname, 'crash-writer.fixture.ts');
    const child = spawn(process.execPath, ['--import', 'tsx', fixture, dataDir, MIGRATIONS_DIR], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let printed = '';
    child.stdout.on('data', (chunk) => {
      printed += chunk;
    });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    await expect.poll(() => printed.split('\n').length, { timeout: 60_000, interval: 50 }).toBeGreaterThan(40);
    child.kill('SIGKILL');
    await exited;
    const committed = Math.max(
      ...printed
        .split('\n')
        .filter((line) => /^\d+$/.test(line))
        .map(Number),
    );

    const database = await openDatabase({ dataDir, migrationsFolder: MIGRATIONS_DIR });
    try {
      const count = async (table: string) =>
        (await database.executeSql(`select count(*)::int as n, max(n) as top from ${table}`)).rows[0] as {
          n: number;
          top: number;
        };
      const [a, b] = [await count('pair_a'), await count('pair_b')];
      // Every printed pair is there; a pair committed after the last print may be too, but whole.
      expect(a.top).toBeGreaterThanOrEqual(committed);
      expect(a).toEqual({ n: a.top, top: a.top });
      expect(b).toEqual(a);
    } finally {
      await database.close();
    }
  });

  it('reports a thread that dies: waiting and later statements fail with EngineLost, and onLost hears it once', async () => {
    const database: Database = await openTestDatabase();
    const lost: EngineLost[] = [];
    database.onLost((error) => lost.push(error));
    const engine = await startEmbeddedEngine({ dataDir: 'memory://', sharedBuffers: '16MB' });
    await engine.worker.terminate();
    await expect(database.db.execute(sql`select 1`)).rejects.toMatchObject({ cause: { name: 'EngineLost' } });
    expect(lost).toHaveLength(1);
    expect(lost[0]).toBeInstanceOf(EngineLost);
    // The next database opened gets a thread of its own.
    const next = await openTestDatabase();
    expect((await next.executeSql('select 1 as one', [])).rows).toEqual([{ one: 1 }]);
    await next.close();
  });

  it('reports a thread that hangs in one statement longer than the limit', async () => {
    const engine = await startEmbeddedEngine({ dataDir: 'memory://', sharedBuffers: '16MB', hangMs: 1_000 });
    const lost: EngineLost[] = [];
    engine.onLost((error) => lost.push(error));
    const started = Date.now();
    await expect(engine.query('select pg_sleep(30)')).rejects.toThrow(/not answered for 1000 ms/);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(lost).toHaveLength(1);
  });
});
