import { WORKFLOW_HOOK_PATH_PREFIX, WORKFLOW_TRIGGER_LIMITS } from '@athena/contract';
import { type AuthContext, authorize } from '../../../platform/auth-guard.ts';
import { encryptSecret, isUuid, newToken, sha256 } from '../../../platform/crypto.ts';
import { AppError } from '../../../platform/http/app-error.ts';
import { isTimeZone, nextFires, parseCron } from './cron.ts';
import type { ApiKeyRow, ScheduleRow, TriggerRepo, WebhookRow } from './trigger.repo.ts';

export type TriggerAdmin = ReturnType<typeof createTriggerAdmin>;

const API_KEY_PREFIX = 'athwf-';
const SECRET_PREFIX = 'whsec_';

const iso = (date: Date | null) => date?.toISOString() ?? null;

const presentKey = (row: ApiKeyRow) => ({
  id: row.id,
  name: row.name,
  prefix: row.prefix,
  created_at: row.createdAt.toISOString(),
  last_used_at: iso(row.lastUsedAt),
  use_count: row.useCount,
  revoked: row.revokedAt !== null,
});

const presentWebhook = (row: WebhookRow) => ({
  enabled: row.enabled,
  path: `${WORKFLOW_HOOK_PATH_PREFIX}${row.hookId}`,
  secret_prefix: row.secretPrefix,
  created_at: row.createdAt.toISOString(),
  last_called_at: iso(row.lastCalledAt),
});

/** A cron expression and zone checked as a schedule needs them, with its next fire times. */
export function checkSchedule(cron: string, timezone: string, after: Date) {
  const parsed = parseCron(cron);
  if (typeof parsed === 'string') throw new AppError('WORKFLOW_CRON_INVALID');
  if (!isTimeZone(timezone)) throw new AppError('WORKFLOW_TIMEZONE_INVALID', { zone: timezone.slice(0, 64) });
  const fires = nextFires(parsed, timezone, after, WORKFLOW_TRIGGER_LIMITS.nextFires);
  if (fires.length === 0) throw new AppError('WORKFLOW_CRON_INVALID');
  return fires;
}

/**
 * Managing a workflow's API keys, webhook and schedule. Any member of the space may look at them;
 * changing them is for whoever may edit the workflow (its creator, or an admin). A locked workflow
 * keeps running, so its triggers may still be managed: the lock guards the document, not who calls it.
 */
export function createTriggerAdmin(deps: { repo: TriggerRepo; masterKey: Buffer; now: () => Date }) {
  const { repo, now } = deps;

  async function workflowFor(ctx: AuthContext, workflowId: string, change: boolean) {
    const space = authorize(ctx, 'member.view');
    const workflow = isUuid(workflowId) ? await repo.workflowOf(space.id, workflowId) : null;
    if (!workflow) throw new AppError('WORKFLOW_NOT_FOUND');
    if (change) authorize(ctx, 'workflow.edit', { isOwner: workflow.createdBy === ctx.userId });
    return workflow;
  }

  const presentSchedule = (row: ScheduleRow) => {
    const parsed = parseCron(row.cron);
    const fires =
      row.enabled && typeof parsed !== 'string'
        ? nextFires(parsed, row.timezone, now(), WORKFLOW_TRIGGER_LIMITS.nextFires)
        : [];
    return {
      enabled: row.enabled,
      cron: row.cron,
      timezone: row.timezone,
      inputs: row.inputs,
      next_fires: fires.map((date) => date.toISOString()),
      last_fired_at: iso(row.lastFiredAt),
      last_run_id: row.lastRunId,
    };
  };

  function newSecret() {
    const secret = `${SECRET_PREFIX}${newToken()}`;
    return { secret, secretSealed: encryptSecret(deps.masterKey, secret), secretPrefix: secret.slice(0, 12) };
  }

  return {
    async createKey(ctx: AuthContext, workflowId: string, name: string) {
      const workflow = await workflowFor(ctx, workflowId, true);
      const key = `${API_KEY_PREFIX}${newToken()}`;
      const row = await repo.insertKey({
        workflowId: workflow.id,
        spaceId: workflow.spaceId,
        name,
        keyHash: sha256(key),
        prefix: key.slice(0, API_KEY_PREFIX.length + 6),
        createdBy: ctx.userId,
      });
      return { ...presentKey(row), key };
    },

    async listKeys(ctx: AuthContext, workflowId: string) {
      const workflow = await workflowFor(ctx, workflowId, false);
      return { items: (await repo.listKeys(workflow.id)).map(presentKey) };
    },

    async revokeKey(ctx: AuthContext, keyId: string) {
      const space = authorize(ctx, 'member.view');
      const key = isUuid(keyId) ? await repo.findKey(space.id, keyId) : null;
      if (!key) throw new AppError('NOT_FOUND');
      await workflowFor(ctx, key.workflowId, true);
      await repo.revokeKey(key.id);
      return null;
    },

    async webhook(ctx: AuthContext, workflowId: string) {
      const workflow = await workflowFor(ctx, workflowId, false);
      const row = await repo.webhookOf(workflow.id);
      return row && presentWebhook(row);
    },

    /** The first enabling makes the webhook (its id and secret, shown now); later calls switch it. */
    async setWebhook(ctx: AuthContext, workflowId: string, enabled: boolean) {
      const workflow = await workflowFor(ctx, workflowId, true);
      const existing = await repo.setWebhookEnabled(workflow.id, enabled);
      if (existing) return { ...presentWebhook(existing), secret: null };
      const made = newSecret();
      const row = await repo.saveWebhook({
        workflowId: workflow.id,
        spaceId: workflow.spaceId,
        hookId: newToken().slice(0, 32),
        secretSealed: made.secretSealed,
        secretPrefix: made.secretPrefix,
        enabled,
        createdBy: ctx.userId,
      });
      return { ...presentWebhook(row), secret: made.secret };
    },

    async rotateWebhook(ctx: AuthContext, workflowId: string) {
      const workflow = await workflowFor(ctx, workflowId, true);
      const existing = await repo.webhookOf(workflow.id);
      const made = newSecret();
      const row = await repo.saveWebhook({
        workflowId: workflow.id,
        spaceId: workflow.spaceId,
        hookId: existing?.hookId ?? newToken().slice(0, 32),
        secretSealed: made.secretSealed,
        secretPrefix: made.secretPrefix,
        enabled: existing?.enabled ?? true,
        createdBy: ctx.userId,
      });
      return { ...presentWebhook(row), secret: made.secret };
    },

    async schedule(ctx: AuthContext, workflowId: string) {
      const workflow = await workflowFor(ctx, workflowId, false);
      const row = await repo.scheduleOf(workflow.id);
      return row && presentSchedule(row);
    },

    async setSchedule(
      ctx: AuthContext,
      body: { workflow_id: string; cron: string; timezone: string; inputs: Record<string, unknown>; enabled: boolean },
    ) {
      const workflow = await workflowFor(ctx, body.workflow_id, true);
      const fires = checkSchedule(body.cron, body.timezone, now());
      if (Buffer.byteLength(JSON.stringify(body.inputs)) > WORKFLOW_TRIGGER_LIMITS.scheduleInputsBytes) {
        throw new AppError('PAYLOAD_TOO_LARGE');
      }
      const row = await repo.saveSchedule({
        workflowId: workflow.id,
        spaceId: workflow.spaceId,
        cron: body.cron.trim().split(/\s+/).join(' '),
        timezone: body.timezone,
        inputs: body.inputs,
        enabled: body.enabled,
        nextFireAt: body.enabled ? fires[0] : null,
        createdBy: ctx.userId,
      });
      return presentSchedule(row);
    },

    preview(ctx: AuthContext, cron: string, timezone: string) {
      authorize(ctx, 'member.view');
      return { next_fires: checkSchedule(cron, timezone, now()).map((date) => date.toISOString()) };
    },
  };
}
