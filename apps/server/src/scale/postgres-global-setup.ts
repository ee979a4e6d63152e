import type { TestProject } from 'vitest/node';
import { startPostgres } from './postgres-server.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Superuser URL of the tier's throwaway PostgreSQL server; each test file makes its own database. */
    postgresAdminUrl: string;
  }
}

/** One PostgreSQL server for the whole tier (docs/postgres.md, "The CI tier"). */
export default async function setup(project: TestProject) {
  const server = await startPostgres();
  console.log(`PostgreSQL ${server.version} at ${server.adminUrl}`);
  project.provide('postgresAdminUrl', server.adminUrl);
  return () => server.stop();
}
