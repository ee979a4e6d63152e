import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
/**
 * Both drivers share this type: services never know which engine they run on. Queries name their
 * tables (imported from the owning module's schema file); no relational-query schema is registered.
 */
export type Db = PgDatabase<PgQueryResultHKT>;

/** Raw SQL for pg-boss, which speaks `executeSql(text, values)`. */
export type ExecuteSql = (text: string, values?: unknown[]) => Promise<{ rows: unknown[] }>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  executeSql: ExecuteSql;
  /** For pg-boss on a real server: it opens its own pool. */
  connectionString?: string;
  migrate(): Promise<void>;
  /** PostgreSQL NOTIFY/LISTEN, for cache invalidation across processes. */
  notify(channel: string, payload: string): Promise<void>;
  listen(channel: string, onMessage: (payload: string) => void): Promise<void>;
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
  const client = await PGlite.create({
    dataDir,
    loadDataDir,
    extensions: { vector },
    postgresqlconf: [`shared_buffers = ${sharedBuffers}`],
  });
  const db = drizzlePglite(client) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    // pg-boss sends multi-statement scripts without parameters; only exec() accepts those.
    executeSql: async (text, values = []) => {
      if (values.length > 0) return client.query(text, values);
      const results = await client.exec(text);
      return results[results.length - 1] ?? { rows: [] };
    },
    migrate: () => migratePglite(drizzlePglite(client), { migrationsFolder }),
    notify: async (channel, payload) => {
      await client.query('select pg_notify($1, $2)', [channel, payload]);
    },
    listen: async (channel, onMessage) => {
      await client.listen(channel, onMessage);
    },
    close: () => client.close(),
  };
}

async function openPostgres(connectionString: string, migrationsFolder: string): Promise<Database> {
  const pool = new pg.Pool({ connectionString, max: 10 });
  const db = drizzlePg(pool) as unknown as Db;
  return {
    db,
    kind: 'postgres',
    connectionString,
    executeSql: (text, values) => pool.query(text, values as unknown[]),
    migrate: () => migratePg(drizzlePg(pool), { migrationsFolder }),
    notify: async (channel, payload) => {
      await pool.query('select pg_notify($1, $2)', [channel, payload]);
    },
    listen: (channel, onMessage) => listenWithReconnect(pool, channel, onMessage),
    close: () => pool.end(),
  };
}

/**
 * A dedicated connection for LISTEN. When it drops, everything cached may have missed messages, so
 * listeners get '*' (drop all) and the connection is re-established.
 */
async function listenWithReconnect(pool: pg.Pool, channel: string, onMessage: (payload: string) => void) {
  const client = await pool.connect();
  client.on('notification', (message) => {
    if (message.channel === channel && message.payload) onMessage(message.payload);
  });
  client.on('error', () => {
    client.release(true);
    onMessage('*');
    setTimeout(() => void listenWithReconnect(pool, channel, onMessage).catch(() => onMessage('*')), 1000);
  });
  await client.query(`LISTEN ${channel}`);
}
