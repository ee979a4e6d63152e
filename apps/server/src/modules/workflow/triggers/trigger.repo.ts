import { and, desc, eq, isNull, lt, lte, sql } from 'drizzle-orm';
import type { Db } from '../../../platform/db/database.ts';
import { spaces } from '../../space/space.schema.ts';
import { workflowApiKeys, workflowSchedules, workflowWebhookSignatures, workflowWebhooks } from '../trigger.schema.ts';
import { workflows } from '../workflow.schema.ts';

export type ApiKeyRow = typeof workflowApiKeys.$inferSelect;
export type WebhookRow = typeof workflowWebhooks.$inferSelect;
export type ScheduleRow = typeof workflowSchedules.$inferSelect;
export type TriggerRepo = ReturnType<typeof createTriggerRepo>;

/** The queries of API keys, webhooks, accepted signatures and schedules. */
export function createTriggerRepo(deps: { db: Db; now: () => Date }) {
  const { db, now } = deps;
  // A dissolved team's triggers answer as if they did not exist.
  const liveSpace = isNull(spaces.dissolvedAt);
  return {
    /** A workflow of the space (null when missing or another team's). */
    async workflowOf(spaceId: string, workflowId: string) {
      const [row] = await db
        .select({ id: workflows.id, spaceId: workflows.spaceId, createdBy: workflows.createdBy })
        .from(workflows)
        .where(and(eq(workflows.spaceId, spaceId), eq(workflows.id, workflowId)))
        .limit(1);
      return row ?? null;
    },
    async insertKey(values: typeof workflowApiKeys.$inferInsert) {
      const [row] = await db.insert(workflowApiKeys).values(values).returning();
      return row;
    },
    listKeys: (workflowId: string) =>
      db
        .select()
        .from(workflowApiKeys)
        .where(eq(workflowApiKeys.workflowId, workflowId))
        .orderBy(desc(workflowApiKeys.createdAt), desc(workflowApiKeys.id)),
    async findKey(spaceId: string, keyId: string) {
      const [row] = await db
        .select()
        .from(workflowApiKeys)
        .where(and(eq(workflowApiKeys.id, keyId), eq(workflowApiKeys.spaceId, spaceId)))
        .limit(1);
      return row ?? null;
    },
    async revokeKey(keyId: string) {
      await db
        .update(workflowApiKeys)
        .set({ revokedAt: now() })
        .where(and(eq(workflowApiKeys.id, keyId), isNull(workflowApiKeys.revokedAt)));
    },
    /** A live key by its hash, counted as used. */
    async useKey(keyHash: string) {
      const [row] = await db
        .select({ key: workflowApiKeys })
        .from(workflowApiKeys)
        .innerJoin(spaces, eq(spaces.id, workflowApiKeys.spaceId))
        .where(and(eq(workflowApiKeys.keyHash, keyHash), isNull(workflowApiKeys.revokedAt), liveSpace))
        .limit(1);
      if (!row) return null;
      await db
        .update(workflowApiKeys)
        .set({ lastUsedAt: now(), useCount: sql`${workflowApiKeys.useCount} + 1` })
        .where(eq(workflowApiKeys.id, row.key.id));
      return row.key;
    },

    async webhookOf(workflowId: string) {
      const [row] = await db.select().from(workflowWebhooks).where(eq(workflowWebhooks.workflowId, workflowId));
      return row ?? null;
    },
    async saveWebhook(values: typeof workflowWebhooks.$inferInsert) {
      const [row] = await db
        .insert(workflowWebhooks)
        .values(values)
        .onConflictDoUpdate({
          target: workflowWebhooks.workflowId,
          set: { enabled: values.enabled, secretSealed: values.secretSealed, secretPrefix: values.secretPrefix },
        })
        .returning();
      return row;
    },
    async setWebhookEnabled(workflowId: string, enabled: boolean) {
      const [row] = await db
        .update(workflowWebhooks)
        .set({ enabled })
        .where(eq(workflowWebhooks.workflowId, workflowId))
        .returning();
      return row ?? null;
    },
    async enabledWebhook(hookId: string) {
      const [row] = await db
        .select({ hook: workflowWebhooks })
        .from(workflowWebhooks)
        .innerJoin(spaces, eq(spaces.id, workflowWebhooks.spaceId))
        .where(and(eq(workflowWebhooks.hookId, hookId), eq(workflowWebhooks.enabled, true), liveSpace))
        .limit(1);
      return row?.hook ?? null;
    },
    async webhookCalled(workflowId: string) {
      await db.update(workflowWebhooks).set({ lastCalledAt: now() }).where(eq(workflowWebhooks.workflowId, workflowId));
    },
    /** False when the signature was accepted before (a replay). */
    async rememberSignature(signature: string, expiresAt: Date) {
      const rows = await db
        .insert(workflowWebhookSignatures)
        .values({ signature, expiresAt })
        .onConflictDoNothing()
        .returning({ signature: workflowWebhookSignatures.signature });
      return rows.length === 1;
    },
    async forgetExpiredSignatures() {
      await db.delete(workflowWebhookSignatures).where(lt(workflowWebhookSignatures.expiresAt, now()));
    },

    async scheduleOf(workflowId: string) {
      const [row] = await db.select().from(workflowSchedules).where(eq(workflowSchedules.workflowId, workflowId));
      return row ?? null;
    },
    async saveSchedule(values: typeof workflowSchedules.$inferInsert) {
      const { workflowId: _, spaceId: __, ...changes } = values;
      const [row] = await db
        .insert(workflowSchedules)
        .values(values)
        .onConflictDoUpdate({ target: workflowSchedules.workflowId, set: { ...changes, updatedAt: now() } })
        .returning();
      return row;
    },
    /** Enabled schedules whose time has come, of effective workflows in live teams. */
    due: (at: Date, limit: number) =>
      db
        .select({ schedule: workflowSchedules })
        .from(workflowSchedules)
        .innerJoin(workflows, eq(workflows.id, workflowSchedules.workflowId))
        .innerJoin(spaces, eq(spaces.id, workflowSchedules.spaceId))
        .where(and(eq(workflowSchedules.enabled, true), lte(workflowSchedules.nextFireAt, at), liveSpace))
        .orderBy(workflowSchedules.nextFireAt)
        .limit(limit),
    /**
     * Moves a due schedule on to its next time, only if no one else did (compare and set): the
     * process whose update lands fires it.
     */
    async claim(workflowId: string, dueAt: Date, next: Date | null) {
      const rows = await db
        .update(workflowSchedules)
        .set({ nextFireAt: next, lastFiredAt: dueAt })
        .where(and(eq(workflowSchedules.workflowId, workflowId), eq(workflowSchedules.nextFireAt, dueAt)))
        .returning({ workflowId: workflowSchedules.workflowId });
      return rows.length === 1;
    },
    async scheduleQueued(workflowId: string, runId: string) {
      await db.update(workflowSchedules).set({ lastRunId: runId }).where(eq(workflowSchedules.workflowId, workflowId));
    },
  };
}
