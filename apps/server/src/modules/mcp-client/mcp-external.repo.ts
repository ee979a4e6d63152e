import { and, count, desc, eq, max, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.ts';
import { storable, storableText } from '../../platform/db/storable.ts';
import { AppError } from '../../platform/http/app-error.ts';
import { users } from '../auth/auth.schema.ts';
import { type CachedExternalTool, mcpExternalCalls, mcpExternalServers } from './mcp-external.schema.ts';

export type ExternalRepo = ReturnType<typeof createExternalRepo>;
export type ExternalServerRow = typeof mcpExternalServers.$inferSelect & { creatorName: string | null };
export interface ExternalUsage {
  calls: number;
  errors: number;
  lastCalledAt: Date | null;
}
export type ExternalCallInput = Omit<typeof mcpExternalCalls.$inferInsert, 'id' | 'createdAt'>;

/** The external servers' queries, each scoped by space; a missing or foreign id is NOT_FOUND. */
export function createExternalRepo(deps: { db: Db; now: () => Date }) {
  const { db, now } = deps;
  const columns = {
    id: mcpExternalServers.id,
    spaceId: mcpExternalServers.spaceId,
    name: mcpExternalServers.name,
    url: mcpExternalServers.url,
    transport: mcpExternalServers.transport,
    headerNames: mcpExternalServers.headerNames,
    headersSealed: mcpExternalServers.headersSealed,
    enabled: mcpExternalServers.enabled,
    tools: mcpExternalServers.tools,
    toolsReadAt: mcpExternalServers.toolsReadAt,
    lastError: mcpExternalServers.lastError,
    lastErrorAt: mcpExternalServers.lastErrorAt,
    createdBy: mcpExternalServers.createdBy,
    createdAt: mcpExternalServers.createdAt,
    updatedAt: mcpExternalServers.updatedAt,
    creatorName: users.nickname,
  };
  const mine = (spaceId: string, id: string) =>
    and(eq(mcpExternalServers.spaceId, spaceId), eq(mcpExternalServers.id, id));

  return {
    async list(spaceId: string): Promise<ExternalServerRow[]> {
      return db
        .select(columns)
        .from(mcpExternalServers)
        .leftJoin(users, eq(users.id, mcpExternalServers.createdBy))
        .where(eq(mcpExternalServers.spaceId, spaceId))
        .orderBy(desc(mcpExternalServers.createdAt), desc(mcpExternalServers.id));
    },

    async find(spaceId: string, id: string): Promise<ExternalServerRow> {
      const [row] = await db
        .select(columns)
        .from(mcpExternalServers)
        .leftJoin(users, eq(users.id, mcpExternalServers.createdBy))
        .where(mine(spaceId, id));
      if (!row) throw new AppError('NOT_FOUND');
      return row;
    },

    async named(spaceId: string, name: string) {
      const [row] = await db
        .select({ id: mcpExternalServers.id })
        .from(mcpExternalServers)
        .where(and(eq(mcpExternalServers.spaceId, spaceId), eq(mcpExternalServers.name, name)));
      return row ?? null;
    },

    async countOf(spaceId: string) {
      const [{ n }] = await db
        .select({ n: count() })
        .from(mcpExternalServers)
        .where(eq(mcpExternalServers.spaceId, spaceId));
      return n;
    },

    async insert(row: typeof mcpExternalServers.$inferInsert) {
      const [inserted] = await db.insert(mcpExternalServers).values(row).returning({ id: mcpExternalServers.id });
      return inserted.id;
    },

    async update(
      spaceId: string,
      id: string,
      change: Partial<
        Pick<
          typeof mcpExternalServers.$inferInsert,
          'name' | 'url' | 'transport' | 'headerNames' | 'headersSealed' | 'enabled' | 'tools' | 'toolsReadAt'
        >
      >,
    ) {
      const rows = await db
        .update(mcpExternalServers)
        .set({ ...change, updatedAt: now() })
        .where(mine(spaceId, id))
        .returning({ id: mcpExternalServers.id });
      if (rows.length === 0) throw new AppError('NOT_FOUND');
    },

    /** After a refresh: the new list and no error, or the error and the old list kept. */
    async recordRead(spaceId: string, id: string, outcome: { tools: CachedExternalTool[] } | { error: string }) {
      const at = now();
      // A server's words may hold what PostgreSQL cannot store (NUL, half a surrogate pair).
      const change =
        'tools' in outcome
          ? {
              tools: storable(outcome.tools) as CachedExternalTool[],
              toolsReadAt: at,
              lastError: '',
              lastErrorAt: null,
            }
          : { lastError: storableText(outcome.error), lastErrorAt: at };
      await db.update(mcpExternalServers).set(change).where(mine(spaceId, id));
    },

    /** A tool call's failure is shown on the server too (it may be down since the last refresh). */
    async recordError(spaceId: string, id: string, error: string) {
      await db
        .update(mcpExternalServers)
        .set({ lastError: storableText(error), lastErrorAt: now() })
        .where(mine(spaceId, id));
    },

    async remove(spaceId: string, id: string) {
      const rows = await db
        .delete(mcpExternalServers)
        .where(mine(spaceId, id))
        .returning({ id: mcpExternalServers.id, name: mcpExternalServers.name });
      if (rows.length === 0) throw new AppError('NOT_FOUND');
      return rows[0] as { id: string; name: string };
    },

    async recordCall(row: ExternalCallInput) {
      await db.insert(mcpExternalCalls).values({ ...row, error: storableText(row.error ?? '') });
    },

    /** Tool calls per server (refreshes are not counted). */
    async usage(spaceId: string): Promise<Map<string, ExternalUsage>> {
      const rows = await db
        .select({
          serverId: mcpExternalCalls.serverId,
          calls: count(),
          errors: sql<number>`count(*) filter (where not ${mcpExternalCalls.ok})`.mapWith(Number),
          lastCalledAt: max(mcpExternalCalls.createdAt),
        })
        .from(mcpExternalCalls)
        .where(and(eq(mcpExternalCalls.spaceId, spaceId), sql`${mcpExternalCalls.toolName} <> ''`))
        .groupBy(mcpExternalCalls.serverId);
      return new Map(rows.map((row) => [row.serverId, row]));
    },
  };
}
