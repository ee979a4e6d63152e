import { defineConfig } from 'vitest/config';

// The PostgreSQL tier (docs/postgres.md): two Athena processes as real processes sharing one
// throwaway PostgreSQL server from Debian's packages (scripts/ensure-postgres.sh), without pgvector.
// Its tests live in apps/server/src/scale and are left out of the root config's projects.
export default defineConfig({
  test: {
    name: 'postgres',
    environment: 'node',
    include: ['apps/server/src/scale/**/*.test.ts'],
    globalSetup: ['apps/server/src/scale/postgres-global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
  },
});
