import type { FastifyInstance } from 'fastify';
import type { Config } from '../../../config.ts';
import type { PlatformDeps, ScheduledJob } from '../../../platform/module.ts';
import type { RateLimits } from '../../../platform/rate-limit/rate-limits.ts';
import { createRunRepo } from '../runs/run.repo.ts';
import type { WorkflowRuns } from '../runs/runs.module.ts';
import { registerPublicTriggerRoutes } from './public.routes.ts';
import { createTriggerRepo } from './trigger.repo.ts';
import { registerTriggerRoutes } from './trigger.routes.ts';
import { createTriggerAdmin } from './trigger-admin.service.ts';
import { createTriggerFire } from './trigger-fire.service.ts';
import { createTriggerQueue } from './trigger-queue.ts';

export interface WorkflowTriggersDeps extends PlatformDeps {
  runs: Pick<WorkflowRuns, 'runs' | 'live'>;
  rateLimits: RateLimits;
  /** Seals webhook signing secrets at rest. */
  masterKey: Buffer;
  /** Calls each workflow API key may make per minute. */
  apiCallsPerMinute: number;
  config: Pick<Config, 'WORKFLOW_WEBHOOK_PER_ADDRESS_PER_MINUTE' | 'WORKFLOW_WEBHOOK_PER_HOOK_PER_MINUTE'>;
}

/**
 * API keys, webhooks and schedules of workflows (docs/workflow-triggers.md): their management
 * routes, the two public routes, the queue that runs background triggers in any process, and the
 * minute tick that fires due schedules.
 */
export function createWorkflowTriggers(deps: WorkflowTriggersDeps) {
  const { db, now, log } = deps;
  const repo = createTriggerRepo({ db, now });
  const admin = createTriggerAdmin({ repo, masterKey: deps.masterKey, now });
  const queue = createTriggerQueue({ runs: deps.runs.runs, log });
  const fire = createTriggerFire({
    repo,
    runs: deps.runs.runs,
    queue,
    masterKey: deps.masterKey,
    log,
    now,
    rateLimits: deps.rateLimits,
    callsPerHookPerMinute: deps.config.WORKFLOW_WEBHOOK_PER_HOOK_PER_MINUTE,
  });
  const schedules: ScheduledJob[] = [{ name: 'workflow.schedule-tick', cron: '* * * * *', run: () => fire.tick() }];
  return {
    admin,
    fire,
    schedules,
    workers: [queue.worker],
    async routes(app: FastifyInstance) {
      registerTriggerRoutes(app, admin);
      await registerPublicTriggerRoutes(app, {
        repo,
        runs: deps.runs.runs,
        live: deps.runs.live,
        // Queries only: the stream reads a run's stored events when it runs in another process.
        runRepo: createRunRepo({ db, now }),
        fire,
        rateLimits: deps.rateLimits,
        callsPerMinute: deps.apiCallsPerMinute,
        webhookCallsPerAddressPerMinute: deps.config.WORKFLOW_WEBHOOK_PER_ADDRESS_PER_MINUTE,
      });
    },
  };
}
export type WorkflowTriggers = ReturnType<typeof createWorkflowTriggers>;
