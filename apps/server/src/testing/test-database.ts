import fs from 'node:fs';
import { inject } from 'vitest';
import { MIGRATIONS_DIR } from '../config.ts';
import { type Database, openDatabase } from '../platform/db/database.ts';
import { ensureDatabaseTemplate } from './database-template.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The migrated template's tarball, from the integration tier's global set-up. */
    databaseTemplate?: string;
  }
}

let template: Promise<Blob> | undefined;

function loadTemplate(): Promise<Blob> {
  template ??= (async () => {
    // Without the global set-up (a test run under another config) this worker finds or builds it.
    const file = inject('databaseTemplate') ?? (await ensureDatabaseTemplate());
    return new Blob([fs.readFileSync(file)]);
  })();
  return template;
}

/**
 * A fresh in-memory database with every migration applied, copied from the template instead of
 * migrated from scratch. Tests about migrations themselves open a database with openDatabase and
 * call migrate() instead.
 */
export async function openTestDatabase(): Promise<Database> {
  return openDatabase({ dataDir: 'memory://', migrationsFolder: MIGRATIONS_DIR, loadDataDir: await loadTemplate() });
}
