import type { TestProject } from 'vitest/node';
import { ensureDatabaseTemplate } from './database-template.ts';

/** Integration tier: the migrated template database is found or built once, before any worker starts. */
export async function setup(project: TestProject): Promise<void> {
  project.provide('databaseTemplate', await ensureDatabaseTemplate());
}
