// The embedded database's own thread (platform/db/embedded-engine.ts): PGlite, PostgreSQL compiled
// to WebAssembly, runs every statement synchronously on the thread that calls it. Here that is
// this worker thread, so a statement never stops the server's thread from parsing requests or
// streaming tokens. Plain JavaScript so tests and the bundled server start it alike, without a
// TypeScript loader. The server's thread speaks to it in messages (`op` below); a transaction is
// held here, by id, between its `begin` and its `end`.
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, types } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';

const port = parentPort;
if (!port) throw new Error('the embedded database runs in a worker thread');

/**
 * Date and time types stay the strings PostgreSQL sends, as Drizzle's own PGlite driver asks
 * (its mappers make Date objects where a column is declared so): date, timestamp, timestamptz,
 * interval, and the arrays of those and of numeric (1182, 1115, 1185, 1187, 1231).
 */
const DRIZZLE_READS_AS_STRINGS = [
  types.DATE,
  types.TIMESTAMP,
  types.TIMESTAMPTZ,
  types.INTERVAL,
  1182,
  1115,
  1185,
  1187,
  1231,
];
const keep = (value) => value;

/** What a failed statement tells the server: PostgreSQL's fields (code, constraint, detail …) too. */
function describe(error) {
  const fields = {};
  for (const [key, value] of Object.entries(error ?? {})) {
    if (value === undefined || typeof value === 'function') continue;
    if (typeof value !== 'object' || Array.isArray(value)) fields[key] = value;
  }
  return { name: error?.name ?? 'Error', message: error?.message ?? String(error), fields };
}

/**
 * WebAssembly traps (out of memory, an abort inside PostgreSQL) leave the engine unusable: the
 * server is told and this thread ends, never answering further statements from a broken heap.
 */
function fatal(error) {
  return error instanceof WebAssembly.RuntimeError || /^Aborted\(/.test(String(error?.message));
}

const { pgliteWasmModule, initdbWasmModule } = workerData;

/**
 * The databases this thread holds, by the id the server gave each: one in a running server, one per
 * test app in a test process (they share the thread so its compiled code stays warm).
 */
const databases = new Map();

async function open({ db: id, dataDir, loadDataDir, sharedBuffers }) {
  const db = await PGlite.create({
    dataDir,
    loadDataDir: loadDataDir ? new Blob([loadDataDir]) : undefined,
    extensions: { vector },
    postgresqlconf: [`shared_buffers = ${sharedBuffers}`],
    pgliteWasmModule,
    initdbWasmModule,
  });
  // Drizzle's reads are set on the database, not passed with each statement: PGlite merges a
  // statement's own parsers into a copy of its whole table (about 100 types) every time, which cost
  // 0.1 ms, a third of a simple statement. The few statements that are not Drizzle's (pg-boss,
  // scripts) carry PGlite's own parsers for these types instead, as before.
  const ownReads = Object.fromEntries(DRIZZLE_READS_AS_STRINGS.map((oid) => [oid, db.parsers[oid]]));
  for (const oid of DRIZZLE_READS_AS_STRINGS) db.parsers[oid] = keep;
  databases.set(id, { db, ownReads, transactions: new Map(), nextTransaction: 1 });
}

function database(id) {
  const found = databases.get(id);
  if (!found) throw new Error(`no open database ${id}`);
  return found;
}

/** Opens a transaction and holds it until `finish`; statements name it by the id this returns. */
function begin(target) {
  const { db, transactions } = target;
  const id = target.nextTransaction++;
  return new Promise((begun, failed) => {
    let end;
    const ended = new Promise((resolve, reject) => {
      end = (commit) => (commit ? resolve() : reject(new Error('rolled back')));
    });
    const done = db.transaction(async (tx) => {
      transactions.set(id, { tx, end, done });
      begun(id);
      await ended;
    });
    // The commit's outcome is read by `finish`; a failure before the body ran fails the begin.
    done.catch(failed).finally(() => transactions.delete(id));
  });
}

async function finish({ transactions }, id, commit) {
  const open = transactions.get(id);
  if (!open) throw new Error(`no open transaction ${id}`);
  open.end(commit);
  try {
    await open.done;
  } catch (error) {
    if (commit) throw error;
  }
}

/** Runs one statement or script; `exec` runs several statements without parameters (pg-boss, DDL). */
async function run({ db, ownReads, transactions }, message) {
  const on = message.tx ? transactions.get(message.tx)?.tx : db;
  if (!on) throw new Error(`no open transaction ${message.tx}`);
  if (message.script) {
    const results = await on.exec(message.sql, { parsers: ownReads });
    return results.at(-1) ?? { rows: [] };
  }
  const options = message.drizzle ? { rowMode: message.rowMode } : { parsers: ownReads };
  return on.query(message.sql, message.params, options);
}

/** The answer's fields besides its id. */
async function handle(message) {
  if (message.op === 'open') {
    await open(message);
    return {};
  }
  if (message.op === 'ping') return {};
  const target = database(message.db);
  switch (message.op) {
    case 'query': {
      // Only what callers read: the column descriptions would be copied across for nothing.
      const { rows, affectedRows } = await run(target, message);
      return { rows, affectedRows };
    }
    case 'begin':
      return { tx: await begin(target) };
    case 'end':
      await finish(target, message.tx, message.commit);
      return {};
    case 'listen':
      await target.db.listen(message.channel, (payload) =>
        port.postMessage({ op: 'notify', db: message.db, channel: message.channel, payload }),
      );
      return {};
    case 'migrate':
      await migrate(drizzle({ client: target.db }), { migrationsFolder: message.folder });
      return {};
    case 'close':
      databases.delete(message.db);
      await target.db.close();
      return {};
    default:
      throw new Error(`unknown operation ${message.op}`);
  }
}

port.on('message', (message) => {
  handle(message).then(
    (answer) => port.postMessage({ id: message.id, ...answer }),
    (error) => {
      port.postMessage({ id: message.id, error: describe(error) });
      if (fatal(error)) {
        port.postMessage({ op: 'failed', error: describe(error) });
        process.exit(1);
      }
    },
  );
});

port.postMessage({ op: 'ready' });
