import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

/**
 * The embedded database (PGlite) on a thread of its own. PGlite runs each statement synchronously on
 * the thread that calls it; on the server's thread every statement stopped request parsing, token
 * streaming and workflow engines for as long as it ran. Here the server's thread only posts a
 * message and reads the answer (about 30 µs of its time per statement against 250 µs,
 * docs/benchmarks.md "Embedded database transport"), and the second core runs the engine.
 *
 * What stays as it was: one engine, so a transaction is exclusive (statements outside it wait, as
 * they did in the thread); the data directory's format; LISTEN/NOTIFY. What is new is that the
 * engine can fail apart from the server: its thread ending, or not answering for `hangMs`, is
 * reported to `onLost` once, and every statement waiting or still to come fails with EngineLost.
 */

export interface EngineOptions {
  dataDir: string;
  sharedBuffers: string;
  /** A data-directory tarball to start from (the tests' migrated template) instead of initdb. */
  loadDataDir?: Blob;
  /** How long the engine may leave a ping unanswered before it counts as hung (120 s). */
  hangMs?: number;
  /** Migrations a new data directory gets while it is created (see createDataDir). */
  migrationsFolder?: string;
}

export interface QueryResult {
  rows: unknown[];
  affectedRows?: number;
}

/** The part of PGlite's interface that Drizzle's PGlite driver calls, answered by the engine's thread. */
export interface RemoteClient {
  query(sql: string, params?: unknown[], options?: { rowMode?: 'array' | 'object' }): Promise<QueryResult>;
  transaction<T>(run: (tx: Pick<RemoteClient, 'query'>) => Promise<T>): Promise<T>;
}

/** The engine's thread ended or stopped answering; nothing more can be read or written. */
export class EngineLost extends Error {
  constructor(reason: string) {
    super(`the embedded database is gone: ${reason}`);
    this.name = 'EngineLost';
  }
}

type Answer = QueryResult & { id: number; tx?: number; error?: Described };
type Described = { name: string; message: string; fields: Record<string, unknown> };
type FromEngine = Answer | { op: 'ready' } | { op: 'failed'; error: Described } | NotifyMessage;
type NotifyMessage = { op: 'notify'; db: number; channel: string; payload: string };

const WORKER = new URL('./embedded-engine.worker.mjs', import.meta.url);
const PING_EVERY_MS = 5_000;

/** PostgreSQL's error as the thread described it: its code, constraint and detail kept. */
function revive(described: Described): Error {
  const error = Object.assign(new Error(described.message), described.fields);
  error.name = described.name;
  return error;
}

/** The server's TypeScript settings declare WebAssembly's types without the global object. */
const wasm = (globalThis as unknown as { WebAssembly: { compile(bytes: Uint8Array): Promise<WebAssembly.Module> } })
  .WebAssembly;

/** PGlite's two WebAssembly programs, compiled once per process and shared by every engine thread. */
let compiled: Promise<{ pgliteWasmModule: WebAssembly.Module; initdbWasmModule: WebAssembly.Module }> | undefined;
function wasmModules() {
  compiled ??= (async () => {
    const dist = path.dirname(fileURLToPath(import.meta.resolve('@electric-sql/pglite')));
    const [pglite, initdb] = await Promise.all(
      ['pglite.wasm', 'initdb.wasm'].map(async (file) => wasm.compile(await fs.readFile(path.join(dist, file)))),
    );
    return { pgliteWasmModule: pglite, initdbWasmModule: initdb };
  })();
  return compiled;
}

/**
 * The thread that runs the engine. A process has one, holding every embedded database it opened
 * (one in a server; one per test app in a test process, so the thread's compiled code stays warm
 * between them). It ends a moment after its last database closes. When it is lost, every database
 * on it is, and the next database opened starts a new thread.
 */
interface EngineThread {
  call(message: Record<string, unknown>, transfer?: ArrayBuffer[]): Promise<Answer>;
  /** Per database id: where its notifications go and who hears that the thread is lost. */
  databases: Map<number, { onNotify: (channel: string, payload: string) => void; onLost: (error: EngineLost) => void }>;
  /**
   * Opens and migrations running: the watchdog waits (initdb takes seconds, building an index over
   * a large table may take minutes).
   */
  unwatched: number;
  /** A database opens: the thread stays. */
  hold(): void;
  /** Ends the thread a moment later if no database is open by then. */
  endWhenIdle(): void;
  /** Ends the thread now (its databases closed). */
  end(): Promise<void>;
  /** The thread itself, for the tests of what happens when it dies. */
  worker: Worker;
}

/** The running threads by their hang limit: one in a server, a second only in the tests of a hang. */
const threads = new Map<number, Promise<EngineThread>>();
let nextDatabase = 1;
const IDLE_END_MS = 2_000;

function engineThread(hangMs: number): Promise<EngineThread> {
  let thread = threads.get(hangMs);
  if (!thread) {
    const starting = startThread(hangMs, () => {
      if (threads.get(hangMs) === starting) threads.delete(hangMs);
    });
    starting.catch(() => {});
    threads.set(hangMs, starting);
    thread = starting;
  }
  return thread;
}

async function startThread(hangMs: number, gone: () => void): Promise<EngineThread> {
  // A small young generation: the thread's JavaScript only passes messages and rows along, and V8's
  // default let it hold about 15 MB more of an idle server's memory for nothing (idle RSS 290–298 MB
  // against 269–288; statements no slower). A flag for this one thread, not the process's.
  const worker = new Worker(WORKER, {
    workerData: await wasmModules(),
    resourceLimits: { maxYoungGenerationSizeMb: 2 },
  });
  const waiting = new Map<number, { resolve: (answer: Answer) => void; reject: (error: Error) => void }>();
  let nextId = 1;
  let lost: EngineLost | undefined;
  let ending = false;
  let idleTimer: NodeJS.Timeout | undefined;

  function lose(reason: string) {
    if (lost || ending) return;
    lost = new EngineLost(reason);
    gone();
    clearInterval(watchdog);
    for (const { reject } of waiting.values()) reject(lost);
    waiting.clear();
    void worker.terminate();
    for (const database of thread.databases.values()) database.onLost(lost);
  }

  const thread: EngineThread = {
    worker,
    databases: new Map(),
    unwatched: 0,
    call(message, transfer) {
      if (lost) return Promise.reject(lost);
      const id = nextId++;
      return new Promise((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        worker.postMessage({ ...message, id }, transfer);
      });
    },
    hold() {
      clearTimeout(idleTimer);
      worker.ref();
    },
    endWhenIdle() {
      clearTimeout(idleTimer);
      // Idle, the thread does not keep the process alive on its own.
      worker.unref();
      idleTimer = setTimeout(() => {
        if (thread.databases.size > 0 || waiting.size > 0) return;
        void thread.end();
      }, IDLE_END_MS);
      idleTimer.unref();
    },
    async end() {
      ending = true;
      gone();
      clearTimeout(idleTimer);
      clearInterval(watchdog);
      await worker.terminate();
    },
  };

  const ready = new Promise<void>((resolve, reject) => {
    worker.on('message', (message: FromEngine) => {
      if ('id' in message) {
        const call = waiting.get(message.id);
        waiting.delete(message.id);
        if (message.error) call?.reject(revive(message.error));
        else call?.resolve(message);
      } else if (message.op === 'notify') {
        thread.databases.get(message.db)?.onNotify(message.channel, message.payload);
      } else if (message.op === 'ready') {
        resolve();
      } else {
        lose(`it failed: ${message.error.message}`);
      }
    });
    worker.on('error', (error) => {
      reject(error);
      lose(`its thread failed: ${error.message}`);
    });
    worker.on('exit', (code) => {
      reject(new EngineLost(`its thread exited with code ${code} while starting`));
      lose(`its thread exited with code ${code}`);
    });
  });

  // A statement blocks the engine's thread until it ends, so an unanswered ping means one statement
  // has run for hangMs.
  let pingSince: number | undefined;
  const watchdog = setInterval(
    () => {
      if (thread.unwatched > 0) {
        pingSince = undefined;
        return;
      }
      if (pingSince !== undefined) {
        if (Date.now() - pingSince >= hangMs) lose(`it has not answered for ${hangMs} ms`);
        return;
      }
      pingSince = Date.now();
      thread.call({ op: 'ping' }).then(
        () => {
          pingSince = undefined;
        },
        () => {},
      );
    },
    Math.min(PING_EVERY_MS, hangMs / 4),
  );
  watchdog.unref();
  try {
    await ready;
  } catch (error) {
    clearInterval(watchdog);
    gone();
    throw error;
  }
  return thread;
}

async function unwatched<T>(thread: EngineThread, run: () => Promise<T>): Promise<T> {
  thread.unwatched++;
  try {
    return await run();
  } finally {
    thread.unwatched--;
  }
}

export type EmbeddedEngine = Awaited<ReturnType<typeof startEmbeddedEngine>>;

/**
 * Creates a new data directory (initdb, then the migrations) on a thread of its own, ended
 * afterwards. Creating one leaves PGlite's WebAssembly heap at about 600 MB, which a heap never
 * gives back: a server's first start sat at twice the memory of every later one (633 MB against
 * 315 MB idle). Ending the thread frees it all.
 */
async function createDataDir(options: EngineOptions) {
  const thread = await startThread(options.hangMs ?? 120_000, () => {});
  const db = nextDatabase++;
  try {
    thread.unwatched++;
    await thread.call({ op: 'open', db, dataDir: options.dataDir, sharedBuffers: options.sharedBuffers });
    if (options.migrationsFolder) await thread.call({ op: 'migrate', db, folder: options.migrationsFolder });
    await thread.call({ op: 'close', db });
  } finally {
    await thread.end();
  }
}

const isNewDataDir = (dataDir: string) =>
  !dataDir.startsWith('memory://') && !existsSync(path.join(dataDir, 'PG_VERSION'));

/** Opens one embedded database on the engine's thread (starting the thread if none runs). */
export async function startEmbeddedEngine(options: EngineOptions) {
  if (!options.loadDataDir && isNewDataDir(options.dataDir)) await createDataDir(options);
  const thread = await engineThread(options.hangMs ?? 120_000);
  const db = nextDatabase++;
  const listeners = new Map<string, ((payload: string) => void)[]>();
  const lostHandlers: ((error: EngineLost) => void)[] = [];
  let closed = false;
  thread.hold();
  thread.databases.set(db, {
    onNotify: (channel, payload) => {
      for (const listener of listeners.get(channel) ?? []) listener(payload);
    },
    onLost: (error) => {
      for (const handler of lostHandlers) handler(error);
    },
  });
  const loadDataDir = options.loadDataDir ? await options.loadDataDir.arrayBuffer() : undefined;
  const message = { op: 'open', db, dataDir: options.dataDir, sharedBuffers: options.sharedBuffers, loadDataDir };
  try {
    await unwatched(thread, () => thread.call(message, loadDataDir ? [loadDataDir] : []));
  } catch (error) {
    thread.databases.delete(db);
    thread.endWhenIdle();
    throw error;
  }

  const call = (op: string, fields: Record<string, unknown> = {}) => thread.call({ ...fields, op, db });
  const query = async (sql: string, params?: unknown[], tx?: number, rowMode?: 'array' | 'object') => {
    const answer = await call('query', { sql, params, tx, drizzle: rowMode !== undefined, rowMode });
    return { rows: answer.rows, affectedRows: answer.affectedRows };
  };

  const client: RemoteClient = {
    query: (sql, params, options) => query(sql, params, undefined, options?.rowMode ?? 'object'),
    async transaction(run) {
      const { tx } = await call('begin');
      let result: Awaited<ReturnType<typeof run>>;
      try {
        result = await run({ query: (sql, params, options) => query(sql, params, tx, options?.rowMode ?? 'object') });
      } catch (error) {
        await call('end', { tx, commit: false }).catch(() => {});
        throw error;
      }
      await call('end', { tx, commit: true });
      return result;
    },
  };

  return {
    client,
    /** A statement with PGlite's own type parsing (timestamps as Date), as pg-boss expects. */
    query: (sql: string, params?: unknown[]) => query(sql, params),
    /** Several statements without parameters; the last one's result. */
    async script(sql: string): Promise<QueryResult> {
      return { rows: (await call('query', { sql, script: true })).rows };
    },
    async listen(channel: string, onMessage: (payload: string) => void) {
      const known = listeners.get(channel);
      if (known) return void known.push(onMessage);
      listeners.set(channel, [onMessage]);
      await call('listen', { channel });
    },
    async migrate(folder: string) {
      await unwatched(thread, () => call('migrate', { folder }));
    },
    /** Called once when the engine's thread is lost (not when the database is closed). */
    onLost(handler: (error: EngineLost) => void) {
      lostHandlers.push(handler);
    },
    /** The engine's thread, for the tests of what happens when it dies or hangs. */
    worker: thread.worker,
    async close() {
      if (closed) return;
      closed = true;
      await call('close').catch(() => {});
      thread.databases.delete(db);
      thread.endWhenIdle();
    },
  };
}
