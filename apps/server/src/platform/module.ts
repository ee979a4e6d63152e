import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type PgBoss from 'pg-boss';
import type { InvalidationBus } from './cache.ts';
import type { Db } from './db/database.ts';
import type { Events } from './events.ts';

/** What every module's front door (`modules/<domain>/index.ts`) receives from the platform. */
export interface PlatformDeps {
  db: Db;
  /** Cache invalidations only (cache.ts). */
  bus: InvalidationBus;
  /** Domain events for reactions, and broadcasts across processes (events.ts). */
  events: Events;
  log: FastifyBaseLogger;
  now: () => Date;
}

/** A cron job: the job runner schedules it, and pg-boss runs each occurrence once across processes. */
export interface ScheduledJob {
  name: string;
  /** Cron expression (UTC). */
  cron: string;
  run(): Promise<void>;
}

/** A queue consumer (e.g. the knowledge indexer): started by the job runner once pg-boss is up. */
export interface QueueWorker {
  name: string;
  start(boss: PgBoss): Promise<void>;
  /** Stops taking jobs and hands unfinished work back to the queue. */
  stop(): Promise<void>;
}

/**
 * A module as the application sees it: its routes, and the jobs the job runner starts. app.ts
 * registers every module's routes; main.ts (and tests that need jobs) start every module's jobs.
 */
export interface AppModule {
  name: string;
  routes(app: FastifyInstance): void | Promise<void>;
  /** Runs once when the process starts its jobs, before it serves: settles what a crash left. */
  onStart?(): Promise<void>;
  schedules?: ScheduledJob[];
  workers?: QueueWorker[];
}
