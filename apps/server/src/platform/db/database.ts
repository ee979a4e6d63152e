import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import pg from 'pg';
import { type EngineLost, startEmbeddedEngine } from './embedded-engine.ts';
/**
 * Both drivers share this type: services never know which engine they run on. Queries name their
 * tables (imported from the owning module's schema file); no relational-query schema is registered.
 */
export type Db = PgDatabase<PgQueryResultHKT>;

/** Raw SQL for pg-boss, which speaks `executeSql(text, values)`. */
export type ExecuteSql = (text: string, values?: unknown[]) => Promise<{ rows: unknown[] }>;

/**
 * What differs between the embedded engine and a PostgreSQL server in a way the rest of the server
 * may act on: these and nothing else (which engine it is stays inside platform/db).
 */
export interface EngineTraits {
  /**
   * Statements run one at a time (the embedded engine: one connection, so a transaction holds up
   * everyone else's statements until it ends); a server runs a pool's worth at once.
   */
  oneConnection: boolean;
  /** Only this process opens the data (the embedded data directory): at start, no other process's work runs. */
  soleProcess: boolean;
  /** No autovacuum and no background workers: the planner's statistics are gathered by the server itself. */
  noBackgroundWorkers: boolean;
}

const EMBEDDED_TRAITS: EngineTraits = { oneConnection: true, soleProcess: true, noBackgroundWorkers: true };
const SERVER_TRAITS: EngineTraits = { oneConnection: false, soleProcess: false, noBackgroundWorkers: false };

export interface Database {
  db: Db;
  /** For logs and the tests of one engine; behaviour follows `traits`. */
  kind: 'pglite' | 'postgres';
  traits: EngineTraits;
  executeSql: ExecuteSql;
  /** For pg-boss on a real server: it opens its own pool. */
  connectionString?: string;
  migrate(): Promise<void>;
  /**
   * Runs `run` while holding a lock named `name` that every process on this database respects: work
   * that must not run in two processes at once (migrations, creating job queues).
   */
  exclusive<T>(name: string, run: () => Promise<T>): Promise<T>;
  /** PostgreSQL NOTIFY/LISTEN, for cache invalidation across processes. */
  notify(channel: string, payload: string): Promise<void>;
  listen(channel: string, onMessage: (payload: string) => void): Promise<void>;
  /**
   * Called once if the database can no longer be reached at all: the embedded engine's thread
   * ended or hung (a server's dropped connections are reopened by the pool instead, never this).
   */
  onLost(handler: (error: EngineLost) => void): void;
  close(): Promise<void>;
}

/**
 * Opens PostgreSQL: a server when `databaseUrl` is given, otherwise embedded PGlite in `dataDir`
 * (or in memory when `dataDir` is 'memory://', which tests use).
 */
export async function openDatabase(opts: {
  databaseUrl?: string;
  dataDir: string;
  migrationsFolder: string;
  /** PGlite only: PostgreSQL's buffer cache inside the WebAssembly heap, e.g. '16MB', or 'auto'. */
  sharedBuffers?: string;
  /** PGlite only: start from this data-directory tarball (a migrated template) instead of initdb. */
  loadDataDir?: Blob;
}): Promise<Database> {
  if (opts.databaseUrl) return openPostgres(opts.databaseUrl, opts.migrationsFolder);
  const sharedBuffers =
    opts.sharedBuffers === 'auto' || opts.sharedBuffers === undefined
      ? autoSharedBuffers(relationBytes(opts.dataDir), os.totalmem())
      : opts.sharedBuffers;
  return openPglite(opts.dataDir, opts.migrationsFolder, sharedBuffers, opts.loadDataDir);
}

const MB = 1024 * 1024;

/**
 * PGlite's buffer cache for 'auto' (docs/knowledge.md, "Memory"): 16 MB while the database is
 * small, so an idle server stays small; a quarter of its tables and indexes once they are larger,
 * at most 1 GB and an eighth of the machine's memory. PGlite reads every page missing from this
 * cache through its file-system layer, so a large HNSW index searched through 16 MB took three times
 * as long (22 ms against 8 ms at ef_search 200 over 100 000 vectors). PostgreSQL fixes the size at
 * start-up: a database that grew a lot gets its larger cache at the next start.
 */
export function autoSharedBuffers(databaseBytes: number, totalMemory: number): string {
  const cap = Math.max(16 * MB, Math.min(1024 * MB, totalMemory / 8));
  return `${Math.floor(Math.min(Math.max(16 * MB, databaseBytes / 4), cap) / MB)}MB`;
}

/** Bytes of the data directory's tables and indexes (base/); 0 for a new or in-memory database. */
function relationBytes(dataDir: string): number {
  const base = path.join(dataDir, 'base');
  if (dataDir.startsWith('memory://') || !fs.existsSync(base)) return 0;
  let bytes = 0;
  for (const entry of fs.readdirSync(base, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) bytes += fs.statSync(path.join(entry.parentPath, entry.name)).size;
  }
  return bytes;
}

async function openPglite(
  dataDir: string,
  migrationsFolder: string,
  sharedBuffers: string,
  loadDataDir?: Blob,
): Promise<Database> {
  if (!dataDir.startsWith('memory://')) fs.mkdirSync(dataDir, { recursive: true });
  const engine = await startEmbeddedEngine({ dataDir, sharedBuffers, loadDataDir, migrationsFolder });
  // Drizzle's PGlite driver, speaking to the engine's thread: it only calls query() and transaction().
  const db = drizzlePglite({ client: engine.client as never }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    traits: EMBEDDED_TRAITS,
    // pg-boss sends multi-statement scripts without parameters; only a script runs those.
    executeSql: (text, values = []) => (values.length > 0 ? engine.query(text, values) : engine.script(text)),
    migrate: () => engine.migrate(migrationsFolder),
    // The embedded database belongs to this one process.
    exclusive: (_name, run) => run(),
    notify: async (channel, payload) => {
      await engine.query('select pg_notify($1, $2)', [channel, payload]);
    },
    listen: (channel, onMessage) => engine.listen(channel, onMessage),
    onLost: (handler) => engine.onLost(handler),
    close: () => engine.close(),
  };
}

async function openPostgres(connectionString: string, migrationsFolder: string): Promise<Database> {
  const pool = new pg.Pool({ connectionString, max: 10 });
  // An idle connection the server drops (a restart, a failover, an administrator) emits 'error' on
  // the pool, and an 'error' nobody listens to ends the process. The pool has already discarded
  // that connection; the next query opens a new one.
  pool.on('error', () => {});
  const db = drizzlePg(pool) as unknown as Db;
  const exclusive = <T>(name: string, run: () => Promise<T>) => withSessionLock(pool, name, run);
  const listener = createListener(pool);
  return {
    db,
    kind: 'postgres',
    traits: SERVER_TRAITS,
    connectionString,
    executeSql: (text, values) => pool.query(text, values as unknown[]),
    // Processes started together (a deployment of several) each applied the same pending
    // migrations at once, and all but one crashed on "duplicate key" in the catalogue. The first to
    // take the lock migrates; the others wait, then find nothing left to do.
    migrate: () => exclusive('athena.migrate', () => migratePg(drizzlePg(pool), { migrationsFolder })),
    exclusive,
    notify: async (channel, payload) => {
      await pool.query('select pg_notify($1, $2)', [channel, payload]);
    },
    listen: (channel, onMessage) => listener.add(channel, onMessage),
    onLost: () => {},
    // The listening connection is held, not idle: the pool's end() waits for it, so a stop
    // waited forever (until the shutdown's hard limit) unless it is let go first.
    close: async () => {
      listener.close();
      await pool.end();
    },
  };
}

/** A session-level advisory lock on a connection of its own, held while `run` runs (on any connection). */
async function withSessionLock<T>(pool: pg.Pool, name: string, run: () => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query('SELECT pg_advisory_lock(hashtext($1))', [name]);
    try {
      return await run();
    } finally {
      await client.query('SELECT pg_advisory_unlock(hashtext($1))', [name]).catch((error: Error) => {
        broken = error;
        throw error;
      });
    }
  } finally {
    // A connection whose unlock failed may still hold the lock: it is closed, never pooled again.
    client.release(broken);
  }
}

/**
 * A dedicated connection for LISTEN on every channel the process listens to, held until close.
 * When it drops, messages may have been missed, so listeners get '*' (drop everything cached) and
 * it is made again, retrying until the server is back (a single failed try used to end listening
 * for good), and '*' once more then: what changed while it was down was announced to nobody.
 */
function createListener(pool: pg.Pool) {
  const handlers = new Map<string, ((payload: string) => void)[]>();
  let client: pg.PoolClient | null = null;
  let started = false;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;
  const tellEveryone = (payload: string) => {
    for (const list of handlers.values()) for (const onMessage of list) onMessage(payload);
  };

  async function connect() {
    const next = await pool.connect();
    next.on('notification', (message) => {
      if (!message.payload) return;
      for (const onMessage of handlers.get(message.channel) ?? []) onMessage(message.payload);
    });
    next.on('error', () => lost(next));
    try {
      for (const channel of handlers.keys()) await next.query(`LISTEN ${channel}`);
    } catch (error) {
      next.release(true);
      throw error;
    }
    if (closed) next.release(true);
    else client = next;
  }

  function lost(dead: pg.PoolClient) {
    if (client !== dead) return;
    client = null;
    dead.release(true);
    tellEveryone('*');
    reconnect(1000);
  }

  function reconnect(delayMs: number) {
    if (closed) return;
    retry = setTimeout(() => {
      connect().then(
        () => tellEveryone('*'),
        () => reconnect(Math.min(delayMs * 2, 30_000)),
      );
    }, delayMs);
    retry.unref();
  }

  return {
    /** The channel is listened to once this resolves (or, while reconnecting, when the connection is back). */
    async add(channel: string, onMessage: (payload: string) => void) {
      const known = handlers.has(channel);
      handlers.set(channel, [...(handlers.get(channel) ?? []), onMessage]);
      if (!started) {
        started = true;
        await connect();
      } else if (!known && client) {
        await client.query(`LISTEN ${channel}`);
      }
    },
    close() {
      closed = true;
      clearTimeout(retry);
      client?.release(true);
      client = null;
    },
  };
}
