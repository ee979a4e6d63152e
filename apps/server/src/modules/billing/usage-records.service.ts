import { can, timeWindowOf, type UsageFilter, type UsageKind, type UsageRecord } from '@athena/contract';
import { and, count, desc, eq, gte, inArray, isNotNull, like, lte, type SQL, sql } from 'drizzle-orm';
import { type AuthContext, authorize } from '../../platform/auth-guard.ts';
import { isUuid } from '../../platform/crypto.ts';
import type { Db } from '../../platform/db/database.ts';
import { agents } from '../agent/agent.schema.ts';
import { users } from '../auth/auth.schema.ts';
import { knowledgeBases } from '../knowledge/knowledge.schema.ts';
import { llmUsage, modelKeys } from '../model-key/model-key.schema.ts';
import { workflows } from '../workflow/workflow.schema.ts';
import { platformModels, usageAccounts } from './usage-charge.schema.ts';

/** The most rows one CSV export carries; a narrower filter gets the rest. */
export const EXPORT_MAX_ROWS = 100_000;

const kindOf = (source: string): UsageKind => {
  const prefix = source.split('.')[0];
  return prefix === 'agent' || prefix === 'workflow' || prefix === 'knowledge' || prefix === 'chat'
    ? prefix
    : 'model_key';
};

/**
 * The fee records (docs/billing.md, "Usage"): every model call of the team with its fee, for the
 * creator and admins; a member sees the calls they made. Filters are the page's; the daily sums
 * feed its chart and the export its CSV.
 */
export function createUsageRecordsService(deps: { db: Db; now: () => Date }) {
  const { db } = deps;

  function conditionsFor(ctx: AuthContext, filter: UsageFilter) {
    const space = authorize(ctx, 'billing.view');
    const conditions: SQL[] = [eq(llmUsage.spaceId, space.id)];
    // A member's own calls only, whatever user they ask for.
    const userId = can(space.role, 'billing.records') ? filter.user_id : ctx.userId;
    if (userId) conditions.push(isUuid(userId) ? eq(llmUsage.userId, userId) : sql`false`);
    if (filter.time) {
      const window = timeWindowOf(filter.time, deps.now().getTime());
      conditions.push(gte(llmUsage.createdAt, new Date(window.from)));
      if (window.to !== null) conditions.push(lte(llmUsage.createdAt, new Date(window.to)));
    }
    if (filter.kind === 'model_key') conditions.push(like(llmUsage.source, 'model\\_key.%'));
    else if (filter.kind) conditions.push(like(llmUsage.source, `${filter.kind}.%`));
    if (filter.model) conditions.push(eq(llmUsage.model, filter.model));
    if (filter.subject_id) conditions.push(eq(llmUsage.subjectId, filter.subject_id));
    if (filter.paid_only) conditions.push(isNotNull(llmUsage.platformModelId));
    return and(...conditions);
  }

  /** Names of the agents, workflows and knowledge bases the rows name, as they are now. */
  async function subjectNames(rows: { subjectKind: string | null; subjectId: string | null }[]) {
    const idsOf = (kind: string) => [
      ...new Set(
        rows
          .filter((r) => r.subjectKind === kind && r.subjectId && isUuid(r.subjectId))
          .map((r) => r.subjectId as string),
      ),
    ];
    const names = new Map<string, string>();
    const load = async (kind: string, table: typeof agents | typeof workflows | typeof knowledgeBases) => {
      const ids = idsOf(kind);
      if (ids.length === 0) return;
      for (const row of await db.select({ id: table.id, name: table.name }).from(table).where(inArray(table.id, ids))) {
        names.set(`${kind}:${row.id}`, row.name);
      }
    };
    await Promise.all([load('agent', agents), load('workflow', workflows), load('knowledge', knowledgeBases)]);
    return names;
  }

  async function page(where: SQL | undefined, limit: number, offset: number): Promise<UsageRecord[]> {
    const rows = await db
      .select({
        usage: llmUsage,
        nickname: users.nickname,
        platformName: platformModels.modelName,
        keyName: modelKeys.modelName,
      })
      .from(llmUsage)
      .leftJoin(users, eq(users.id, llmUsage.userId))
      .leftJoin(platformModels, eq(platformModels.id, llmUsage.platformModelId))
      .leftJoin(modelKeys, eq(modelKeys.id, llmUsage.modelKeyId))
      .where(where)
      .orderBy(desc(llmUsage.createdAt), desc(llmUsage.id))
      .limit(limit)
      .offset(offset);
    const names = await subjectNames(rows.map((r) => r.usage));
    return rows.map(({ usage, nickname, platformName, keyName }) => ({
      id: String(usage.id),
      created_at: usage.createdAt.toISOString(),
      kind: kindOf(usage.source),
      subject:
        usage.subjectKind && usage.subjectId
          ? {
              id: usage.subjectId,
              name: names.get(`${usage.subjectKind}:${usage.subjectId}`) ?? '',
              run_id: usage.runId,
            }
          : null,
      user: usage.userId ? { id: usage.userId, nickname: nickname ?? '' } : null,
      model: usage.model,
      model_name: platformName ?? keyName ?? usage.model,
      platform: usage.platformModelId !== null,
      input_tokens: usage.inputTokens,
      output_tokens: usage.outputTokens,
      fee_millifen: usage.feeMillifen,
      outcome: usage.outcome === 'error' || usage.outcome === 'cancelled' ? usage.outcome : 'ok',
    }));
  }

  return {
    async list(ctx: AuthContext, filter: UsageFilter & { page: number; page_size: number }) {
      const where = conditionsFor(ctx, filter);
      const [items, [totals], [account]] = await Promise.all([
        page(where, filter.page_size, (filter.page - 1) * filter.page_size),
        db
          .select({ n: count(), fee: sql<string>`coalesce(sum(${llmUsage.feeMillifen}), 0)` })
          .from(llmUsage)
          .where(where),
        db
          .select({ fee: usageAccounts.feeMillifen, charged: usageAccounts.chargedFen })
          .from(usageAccounts)
          .where(eq(usageAccounts.spaceId, authorize(ctx, 'billing.view').id)),
      ]);
      return {
        items,
        total: totals?.n ?? 0,
        total_fee_millifen: Number(totals?.fee ?? 0),
        unsettled_millifen: account ? Math.max(0, Number(account.fee) - Number(account.charged) * 1000) : 0,
      };
    },

    /** Fees and calls per day in the reader's time zone, oldest first, days without calls left out. */
    async daily(ctx: AuthContext, filter: UsageFilter & { time_zone: string }) {
      const where = conditionsFor(ctx, filter);
      const day = sql`to_char(${llmUsage.createdAt} at time zone ${filter.time_zone}, 'YYYY-MM-DD')`;
      const rows = await db
        .select({ day: sql<string>`${day}`, fee: sql<string>`sum(${llmUsage.feeMillifen})`, calls: count() })
        .from(llmUsage)
        .where(where)
        // By position: the zone is a parameter, and the same expression twice would be two.
        .groupBy(sql`1`)
        .orderBy(sql`1`);
      return { days: rows.map((row) => ({ day: row.day, fee_millifen: Number(row.fee), calls: row.calls })) };
    },

    /** Every matching call, newest first, up to EXPORT_MAX_ROWS, for the CSV. */
    async exportRows(ctx: AuthContext, filter: UsageFilter) {
      return page(conditionsFor(ctx, filter), EXPORT_MAX_ROWS, 0);
    },
  };
}

export type UsageRecordsService = ReturnType<typeof createUsageRecordsService>;
