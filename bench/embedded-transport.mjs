// What a statement of the embedded database costs the server's main thread, three ways: PGlite on
// the thread itself (today), PGlite in a worker thread behind @electric-sql/pglite-socket with one
// `pg` connection, and PGlite in a worker thread behind a MessagePort. 20 callers at once, each
// reading one row by primary key from 10 000. Prints queries per second, the main thread's busy
// time per query (event-loop utilisation) and latency. An exploration before the embedded database
// leaves the request thread (docs/decisions.md); the socket mode needs the package, not a
// dependency of the product:
//   npm i --no-save @electric-sql/pglite-socket@0.2.17 && node bench/embedded-transport.mjs [inline|socket|port]

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';

const N = Number(process.env.N ?? 4000);
const CONC = Number(process.env.CONC ?? 20);
const SETUP = `create table if not exists t (id int primary key, name text, n int); insert into t select g, 'name ' || g, g % 97 from generate_series(1, 10000) g on conflict do nothing;`;
const SQL = 'select id, name, n from t where id = $1';

async function openDb(dir) {
  const { PGlite } = await import('@electric-sql/pglite');
  const db = await PGlite.create(dir);
  await db.exec(SETUP);
  return db;
}

if (!isMainThread) {
  const db = await openDb(workerData.dir);
  if (workerData.mode === 'socket') {
    const { PGLiteSocketServer } = await import('@electric-sql/pglite-socket');
    const server = new PGLiteSocketServer({ db, path: workerData.sock, maxConnections: 1 });
    await server.start();
    parentPort.postMessage({ ready: true });
  } else {
    parentPort.on('message', async ({ id, sql, params }) => {
      const r = await db.query(sql, params);
      parentPort.postMessage({ id, rows: r.rows });
    });
    parentPort.postMessage({ ready: true });
  }
} else {
  const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'drv-'));
  async function run(name, query) {
    for (let i = 0; i < 500; i++) await query(SQL, [1 + (i % 10000)]);
    let next = 0;
    const elu0 = performance.eventLoopUtilization();
    const t0 = performance.now();
    const lat = [];
    await Promise.all(
      Array.from({ length: CONC }, async () => {
        while (next < N) {
          const i = next++;
          const s = performance.now();
          await query(SQL, [1 + ((i * 7919) % 10000)]);
          lat.push(performance.now() - s);
        }
      }),
    );
    const ms = performance.now() - t0;
    const elu = performance.eventLoopUtilization(elu0);
    lat.sort((a, b) => a - b);
    console.log(
      `${name.padEnd(28)} ${((N / ms) * 1000).toFixed(0).padStart(6)} q/s  main thread busy ${((elu.active / N) * 1000).toFixed(1).padStart(6)} µs/q  p50 ${lat[lat.length >> 1].toFixed(2)} ms  p99 ${lat[Math.floor(lat.length * 0.99)].toFixed(2)} ms`,
    );
  }
  const mode = process.argv[2] ?? 'all';
  if (mode === 'all' || mode === 'inline') {
    const db = await openDb(tmp());
    await run('in the thread', (sql, p) => db.query(sql, p));
    await db.close();
  }
  if (mode === 'all' || mode === 'socket') {
    const sock = path.join(tmp(), 'pg.sock');
    const w = new Worker(new URL(import.meta.url), { workerData: { mode: 'socket', dir: tmp(), sock } });
    await new Promise((r) => w.once('message', r));
    const pg = (await import('pg')).default;
    const client = new pg.Client({ host: path.dirname(sock), port: undefined, user: 'postgres', database: 'postgres' });
    // pg connects to a Unix socket by directory + ".s.PGSQL.<port>": link the socket there.
    fs.symlinkSync(sock, path.join(path.dirname(sock), '.s.PGSQL.5432'));
    await client.connect();
    await run('worker + socket (1 conn)', (sql, p) => client.query(sql, p));
    await client.end();
    await w.terminate();
  }
  if (mode === 'all' || mode === 'port') {
    const w = new Worker(new URL(import.meta.url), { workerData: { mode: 'port', dir: tmp() } });
    await new Promise((r) => w.once('message', r));
    let id = 0;
    const waiting = new Map();
    w.on('message', (m) => {
      waiting.get(m.id)?.(m.rows);
      waiting.delete(m.id);
    });
    await run(
      'worker + message port',
      (sql, params) =>
        new Promise((r) => {
          const i = ++id;
          waiting.set(i, r);
          w.postMessage({ id: i, sql, params });
        }),
    );
    await w.terminate();
  }
  process.exit(0);
}
