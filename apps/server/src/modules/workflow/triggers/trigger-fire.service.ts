import { randomUUID } from 'node:crypto';
import { WORKFLOW_TRIGGER_LIMITS } from '@athena/contract';
import type { FastifyBaseLogger } from 'fastify';
import { decryptSecret, sha256 } from '../../../platform/crypto.ts';
import { AppError } from '../../../platform/http/app-error.ts';
import { verifyWebhookSignature } from '../../../platform/http/webhook-signature.ts';
import type { RateLimits } from '../../../platform/rate-limit/rate-limits.ts';
import type { RunService } from '../runs/run.service.ts';
import { nextFires, parseCron } from './cron.ts';
import type { TriggerRepo } from './trigger.repo.ts';
import type { TriggerQueue } from './trigger-queue.ts';

/** How many due schedules one tick fires at most; the rest wait for the next minute. */
const TICK_LIMIT = 500;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export type TriggerFire = ReturnType<typeof createTriggerFire>;

/** What webhooks and schedules start: checked here, run through the trigger queue. */
export function createTriggerFire(deps: {
  repo: TriggerRepo;
  runs: RunService;
  queue: TriggerQueue;
  masterKey: Buffer;
  log: FastifyBaseLogger;
  now: () => Date;
  rateLimits: RateLimits;
  /** Calls with a valid signature each hook takes per minute (WORKFLOW_WEBHOOK_PER_HOOK_PER_MINUTE). */
  callsPerHookPerMinute: number;
}) {
  const { repo, now } = deps;
  const tolerance = WORKFLOW_TRIGGER_LIMITS.signatureToleranceSeconds;
  const perHook = { name: 'workflow-webhook-hook', limit: deps.callsPerHookPerMinute, windowSeconds: 60 };

  return {
    /**
     * A signed webhook call: the hook must be on, the signature right and recent and never seen
     * before, the body a JSON object that the effective version's start node accepts. Then the
     * run is queued and its id answered at once.
     */
    async acceptWebhook(hookId: string, signature: string | undefined, raw: Buffer) {
      const hook = /^[A-Za-z0-9_-]{1,64}$/.test(hookId) ? await repo.enabledWebhook(hookId) : null;
      if (!hook) throw new AppError('WORKFLOW_WEBHOOK_NOT_FOUND');
      const secret = decryptSecret(deps.masterKey, hook.secretSealed);
      const verdict = verifyWebhookSignature(signature, secret, raw, now().getTime(), tolerance);
      if (!verdict.ok) {
        throw new AppError(
          verdict.reason === 'stale' ? 'WORKFLOW_WEBHOOK_SIGNATURE_EXPIRED' : 'WORKFLOW_WEBHOOK_SIGNATURE_INVALID',
        );
      }
      // Counted only once the signature holds, so a forger cannot use up a real sender's calls;
      // the sender itself (or one replaying its calls) cannot queue runs without end.
      const limited = await deps.rateLimits.hit([{ rule: perHook, subject: hook.hookId }]);
      if (!limited.allowed) throw new AppError('RATE_LIMITED', {}, limited.retryAfterSeconds);
      let body: unknown;
      try {
        body = raw.length === 0 ? {} : JSON.parse(raw.toString('utf8'));
      } catch {
        throw new AppError('WORKFLOW_WEBHOOK_BODY_INVALID');
      }
      if (!isObject(body)) throw new AppError('WORKFLOW_WEBHOOK_BODY_INVALID');
      const inputs = await deps.runs.checkTriggered(hook.spaceId, hook.workflowId, body);
      // Remembered per hook until the timestamp could no longer pass, so a replay is refused by
      // every process; only once everything else passed, so a refused call may be sent again.
      const expiresAt = new Date((verdict.timestamp + tolerance + 60) * 1000);
      if (!(await repo.rememberSignature(sha256(`${hook.hookId}:${verdict.digest}`), expiresAt))) {
        throw new AppError('WORKFLOW_WEBHOOK_REPLAYED');
      }
      const runId = randomUUID();
      await deps.queue.send({
        runId,
        spaceId: hook.spaceId,
        workflowId: hook.workflowId,
        userId: hook.createdBy,
        trigger: 'webhook',
        inputs,
      });
      await repo.webhookCalled(hook.workflowId);
      return { run_id: runId };
    },

    /**
     * The minute tick (a pg-boss schedule, so one process runs it each minute): every schedule
     * whose time has come is moved on to its next time and its run queued. A schedule missed while
     * no process ran fires once, not once per missed time. A workflow that is not effective (or
     * whose inputs no longer fit) is skipped for this time and logged.
     */
    async tick() {
      const at = now();
      await repo.forgetExpiredSignatures();
      for (const { schedule } of await repo.due(at, TICK_LIMIT)) {
        const dueAt = schedule.nextFireAt;
        if (!dueAt) continue;
        const parsed = parseCron(schedule.cron);
        const next = typeof parsed === 'string' ? null : (nextFires(parsed, schedule.timezone, at, 1)[0] ?? null);
        if (!(await repo.claim(schedule.workflowId, dueAt, next))) continue;
        const runId = randomUUID();
        try {
          const inputs = await deps.runs.checkTriggered(schedule.spaceId, schedule.workflowId, schedule.inputs);
          await deps.queue.send({
            runId,
            spaceId: schedule.spaceId,
            workflowId: schedule.workflowId,
            userId: schedule.createdBy,
            trigger: 'schedule',
            inputs,
          });
          await repo.scheduleQueued(schedule.workflowId, runId);
        } catch (error) {
          const key = error instanceof AppError ? error.key : 'SYSTEM_ERROR';
          deps.log.warn({ err: error, key, workflow: schedule.workflowId }, 'scheduled workflow run skipped');
        }
      }
    },
  };
}
