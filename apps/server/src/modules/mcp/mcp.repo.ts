import { and, count, desc, eq, gt, isNull, lt, max, or, sql } from 'drizzle-orm';
import { type InvalidationBus, TaggedCache } from '../../platform/cache.ts';
import type { Db } from '../../platform/db/database.ts';
import { AppError } from '../../platform/http/app-error.ts';
import type { AgentQueries } from '../agent/index.ts';
import { users } from '../auth/auth.schema.ts';
import type { KnowledgeQueries } from '../knowledge/index.ts';
import { spaces } from '../space/space.schema.ts';
import type { WorkflowQueries } from '../workflow/index.ts';
import { mcpCalls, mcpSettings, mcpTokens, mcpTools } from './mcp.schema.ts';

export type McpRepo = ReturnType<typeof createMcpRepo>;
export type TokenRow = typeof mcpTokens.$inferSelect & { creatorName: string | null };
export type ToolRow = typeof mcpTools.$inferSelect;
export type CallRow = typeof mcpCalls.$inferSelect & { tokenName: string | null; tokenPrefix: string | null };

/** What a tool points at, as a tool needs it; `graph` only for workflows (their effective version's). */
export interface Target {
  id: string;
  name: string;
  description: string;
  /** Workflows only. */
  effective?: boolean;
  locked?: boolean;
  graph?: Awaited<ReturnType<WorkflowQueries['workflowsForTools']>>[number]['graph'];
  /** Knowledge bases only: the base's own retrieval settings. */
  retrieval?: Awaited<ReturnType<KnowledgeQueries['basesForTools']>>[number]['retrieval'];
}

/** A token's `last_used_at` is written at most this often, so a busy client does not write on every call. */
const TOUCH_EVERY_MS = 60_000;

/** A usable token as the endpoint needs it on every request. */
interface UsableToken {
  id: string;
  spaceId: string;
  createdBy: string | null;
  enabled: boolean;
  expiresAt: number | null;
  lastUsedAt: number | null;
}

/**
 * The MCP module's queries, each scoped by space. The targets (bases, workflows, agents) are read
 * through their owners' front doors, on every use, so a tool's availability is always current.
 */
export function createMcpRepo(deps: {
  db: Db;
  now: () => Date;
  bus: InvalidationBus;
  targets: {
    knowledge: KnowledgeQueries['basesForTools'];
    agent: AgentQueries['agentsForTools'];
    workflow: WorkflowQueries['workflowsForTools'];
  };
}) {
  const { db, now, bus } = deps;
  // Every MCP request starts with its token: read once a minute at most, dropped on every process
  // the moment the token is revoked (`mcp-token:<id>`), the server switched (`mcp:<team>`) or the
  // team dissolved (`space:<team>`).
  const usable = new TaggedCache<UsableToken>(60_000);
  bus.subscribe((key) => (key === '*' ? usable.clear() : usable.invalidate(key)));

  const tokenColumns = {
    id: mcpTokens.id,
    spaceId: mcpTokens.spaceId,
    name: mcpTokens.name,
    tokenHash: mcpTokens.tokenHash,
    prefix: mcpTokens.prefix,
    createdBy: mcpTokens.createdBy,
    createdAt: mcpTokens.createdAt,
    expiresAt: mcpTokens.expiresAt,
    lastUsedAt: mcpTokens.lastUsedAt,
    revokedAt: mcpTokens.revokedAt,
    creatorName: users.nickname,
  };

  async function targetsOf(spaceId: string, kind: ToolRow['kind'], ids?: string[]): Promise<Target[]> {
    if (ids && ids.length === 0) return [];
    return deps.targets[kind](spaceId, ids);
  }

  return {
    targetsOf,

    async target(spaceId: string, kind: ToolRow['kind'], id: string): Promise<Target | null> {
      return (await targetsOf(spaceId, kind, [id]))[0] ?? null;
    },

    async enabled(spaceId: string) {
      const [row] = await db
        .select({ enabled: mcpSettings.enabled })
        .from(mcpSettings)
        .where(eq(mcpSettings.spaceId, spaceId));
      return row?.enabled ?? false;
    },

    async setEnabled(spaceId: string, enabled: boolean, userId: string) {
      await db
        .insert(mcpSettings)
        .values({ spaceId, enabled, updatedBy: userId, updatedAt: now() })
        .onConflictDoUpdate({ target: mcpSettings.spaceId, set: { enabled, updatedBy: userId, updatedAt: now() } });
      await bus.publish(`mcp:${spaceId}`);
    },

    async insertToken(values: typeof mcpTokens.$inferInsert) {
      const [row] = await db.insert(mcpTokens).values(values).returning({ id: mcpTokens.id });
      return row.id;
    },

    async listTokens(spaceId: string, id?: string): Promise<TokenRow[]> {
      return db
        .select(tokenColumns)
        .from(mcpTokens)
        .leftJoin(users, eq(users.id, mcpTokens.createdBy))
        .where(and(eq(mcpTokens.spaceId, spaceId), ...(id ? [eq(mcpTokens.id, id)] : [])))
        .orderBy(desc(mcpTokens.createdAt), desc(mcpTokens.id));
    },

    async activeTokens(spaceId: string) {
      const [row] = await db
        .select({ n: count() })
        .from(mcpTokens)
        .where(
          and(
            eq(mcpTokens.spaceId, spaceId),
            isNull(mcpTokens.revokedAt),
            or(isNull(mcpTokens.expiresAt), gt(mcpTokens.expiresAt, now())),
          ),
        );
      return row.n;
    },

    async revokeToken(spaceId: string, id: string) {
      const rows = await db
        .update(mcpTokens)
        .set({ revokedAt: sql`coalesce(${mcpTokens.revokedAt}, ${now()})` })
        .where(and(eq(mcpTokens.spaceId, spaceId), eq(mcpTokens.id, id)))
        .returning({ id: mcpTokens.id, name: mcpTokens.name });
      if (rows.length === 0) throw new AppError('NOT_FOUND');
      await bus.publish(`mcp-token:${id}`);
      return rows[0] as { id: string; name: string };
    },

    /**
     * The token a bearer value hashes to, when it is neither revoked nor expired and its team still
     * exists, with whether the team's server is on. Marks it used (at most once a minute).
     */
    async useToken(tokenHash: string) {
      const at = now();
      let token = usable.get(tokenHash);
      if (token && token.expiresAt !== null && token.expiresAt <= at.getTime()) token = undefined;
      if (!token) {
        const [row] = await db
          .select({
            id: mcpTokens.id,
            spaceId: mcpTokens.spaceId,
            createdBy: mcpTokens.createdBy,
            lastUsedAt: mcpTokens.lastUsedAt,
            expiresAt: mcpTokens.expiresAt,
            enabled: mcpSettings.enabled,
          })
          .from(mcpTokens)
          .innerJoin(spaces, eq(spaces.id, mcpTokens.spaceId))
          .leftJoin(mcpSettings, eq(mcpSettings.spaceId, mcpTokens.spaceId))
          .where(
            and(
              eq(mcpTokens.tokenHash, tokenHash),
              isNull(mcpTokens.revokedAt),
              or(isNull(mcpTokens.expiresAt), gt(mcpTokens.expiresAt, at)),
              isNull(spaces.dissolvedAt),
            ),
          )
          .limit(1);
        if (!row) return null;
        token = {
          id: row.id,
          spaceId: row.spaceId,
          createdBy: row.createdBy,
          enabled: row.enabled ?? false,
          expiresAt: row.expiresAt?.getTime() ?? null,
          lastUsedAt: row.lastUsedAt?.getTime() ?? null,
        };
        usable.set(tokenHash, token, [`mcp-token:${row.id}`, `mcp:${row.spaceId}`, `space:${row.spaceId}`]);
      }
      if (token.lastUsedAt === null || at.getTime() - token.lastUsedAt > TOUCH_EVERY_MS) {
        token.lastUsedAt = at.getTime();
        await db
          .update(mcpTokens)
          .set({ lastUsedAt: at })
          .where(
            and(
              eq(mcpTokens.id, token.id),
              or(isNull(mcpTokens.lastUsedAt), lt(mcpTokens.lastUsedAt, new Date(at.getTime() - TOUCH_EVERY_MS))),
            ),
          );
      }
      return { id: token.id, spaceId: token.spaceId, createdBy: token.createdBy, enabled: token.enabled };
    },

    async tools(spaceId: string): Promise<ToolRow[]> {
      return db.select().from(mcpTools).where(eq(mcpTools.spaceId, spaceId)).orderBy(mcpTools.createdAt, mcpTools.id);
    },

    async tool(spaceId: string, id: string) {
      const [row] = await db
        .select()
        .from(mcpTools)
        .where(and(eq(mcpTools.spaceId, spaceId), eq(mcpTools.id, id)));
      if (!row) throw new AppError('NOT_FOUND');
      return row;
    },

    async toolNamed(spaceId: string, name: string) {
      const [row] = await db
        .select()
        .from(mcpTools)
        .where(and(eq(mcpTools.spaceId, spaceId), eq(mcpTools.name, name)));
      return row ?? null;
    },

    async insertTool(values: typeof mcpTools.$inferInsert) {
      const [row] = await db.insert(mcpTools).values(values).returning();
      return row;
    },

    async updateTool(spaceId: string, id: string, values: { name: string; description: string }) {
      const [row] = await db
        .update(mcpTools)
        .set({ ...values, updatedAt: now() })
        .where(and(eq(mcpTools.spaceId, spaceId), eq(mcpTools.id, id)))
        .returning();
      if (!row) throw new AppError('NOT_FOUND');
      return row;
    },

    async deleteTool(spaceId: string, id: string) {
      const rows = await db
        .delete(mcpTools)
        .where(and(eq(mcpTools.spaceId, spaceId), eq(mcpTools.id, id)))
        .returning({ id: mcpTools.id, name: mcpTools.name });
      if (rows.length === 0) throw new AppError('NOT_FOUND');
      return rows[0] as { id: string; name: string };
    },

    async recordCall(values: typeof mcpCalls.$inferInsert) {
      await db.insert(mcpCalls).values(values);
    },

    /** Calls, errors and the last call per tool of the space. */
    async usage(spaceId: string) {
      const rows = await db
        .select({
          toolId: mcpCalls.toolId,
          calls: count(),
          errors: sql<number>`count(*) filter (where not ${mcpCalls.ok})`.mapWith(Number),
          last: max(mcpCalls.createdAt),
        })
        .from(mcpCalls)
        .where(eq(mcpCalls.spaceId, spaceId))
        .groupBy(mcpCalls.toolId);
      return new Map(rows.flatMap((row) => (row.toolId ? [[row.toolId, row] as const] : [])));
    },

    async calls(spaceId: string, params: { toolId?: string; page: number; pageSize: number }) {
      const where = and(eq(mcpCalls.spaceId, spaceId), ...(params.toolId ? [eq(mcpCalls.toolId, params.toolId)] : []));
      const [{ total }] = await db.select({ total: count() }).from(mcpCalls).where(where);
      const items: CallRow[] = await db
        .select({
          id: mcpCalls.id,
          spaceId: mcpCalls.spaceId,
          toolId: mcpCalls.toolId,
          toolName: mcpCalls.toolName,
          tokenId: mcpCalls.tokenId,
          ok: mcpCalls.ok,
          error: mcpCalls.error,
          durationMs: mcpCalls.durationMs,
          createdAt: mcpCalls.createdAt,
          tokenName: mcpTokens.name,
          tokenPrefix: mcpTokens.prefix,
        })
        .from(mcpCalls)
        .leftJoin(mcpTokens, eq(mcpTokens.id, mcpCalls.tokenId))
        .where(where)
        .orderBy(desc(mcpCalls.createdAt), desc(mcpCalls.id))
        .limit(params.pageSize)
        .offset((params.page - 1) * params.pageSize);
      return { items, total };
    },
  };
}
