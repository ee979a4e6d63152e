import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { MIGRATIONS_DIR } from '../config.ts';

/**
 * The migrated template database that test apps start from. A fresh PGlite spends most of its
 * start in initdb (seconds on a loaded 2-core machine, against about one for loading a data
 * directory), and every test app used to pay that plus all migrations. The template is a
 * PGlite data-directory tarball of an empty database after every migration, built once and kept
 * in the system temp directory under a key of the migrations and the PGlite and pgvector versions,
 * so a changed migration or engine builds a new one and nothing stale is ever loaded.
 */

const serverPackage = path.join(MIGRATIONS_DIR, '..', 'package.json');

/** Changes whenever a migration file or the embedded engine's version changes. */
function templateKey(): string {
  const hash = createHash('sha256');
  const files = fs.readdirSync(MIGRATIONS_DIR, { recursive: true, encoding: 'utf8' }).sort();
  for (const file of files) {
    const full = path.join(MIGRATIONS_DIR, file);
    if (!fs.statSync(full).isFile()) continue;
    hash.update(file).update('\0').update(fs.readFileSync(full)).update('\0');
  }
  const deps: Record<string, string> = JSON.parse(fs.readFileSync(serverPackage, 'utf8')).dependencies ?? {};
  for (const name of ['@electric-sql/pglite', '@electric-sql/pglite-pgvector']) hash.update(`${name}@${deps[name]}\0`);
  return hash.digest('hex').slice(0, 16);
}

/** Path of the template tarball, built (initdb + every migration) when it is not there yet. */
export async function ensureDatabaseTemplate(): Promise<string> {
  const file = path.join(os.tmpdir(), `athena-test-db-${templateKey()}.tar`);
  if (fs.existsSync(file)) return file;
  const client = await PGlite.create({ dataDir: 'memory://', extensions: { vector } });
  try {
    await migrate(drizzle(client), { migrationsFolder: MIGRATIONS_DIR });
    // Uncompressed: loading a 40 MB tar is faster than inflating a 5 MB gzip on every test app.
    const tarball = await client.dumpDataDir('none');
    // Written aside and renamed, so a run starting at the same moment never reads half a file.
    const partial = `${file}.${process.pid}.partial`;
    fs.writeFileSync(partial, Buffer.from(await tarball.arrayBuffer()));
    fs.renameSync(partial, file);
  } finally {
    await client.close();
  }
  return file;
}
