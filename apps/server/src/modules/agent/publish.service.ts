import { and, count, desc, eq, isNull, sql, sum } from 'drizzle-orm';
import { type AuthContext, authorize } from '../../platform/auth-guard.ts';
import { isUuid, newToken, sha256 } from '../../platform/crypto.ts';
import type { Db } from '../../platform/db/database.ts';
import { AppError } from '../../platform/http/app-error.ts';
import { spaces } from '../space/space.schema.ts';
import { agentApiKeys, agents, conversations, messages } from './agent.schema.ts';
import type { AgentService } from './agent.service.ts';

export type PublishService = ReturnType<typeof createPublishService>;
type KeyRow = typeof agentApiKeys.$inferSelect;

const API_KEY_PREFIX = 'ath-';

const toApiKey = (row: KeyRow) => ({
  id: row.id,
  name: row.name,
  prefix: row.prefix,
  created_at: row.createdAt.toISOString(),
  last_used_at: row.lastUsedAt?.toISOString() ?? null,
  use_count: row.useCount,
  revoked: row.revokedAt !== null,
});

/** API keys for the OpenAI-compatible endpoint and the /apps overview. Keys are stored hashed. */
export function createPublishService(deps: { db: Db; agents: AgentService; now: () => Date }) {
  const { db } = deps;

  return {
    async createKey(ctx: AuthContext, agentId: string, name: string) {
      const { agent } = await deps.agents.findForChange(ctx, agentId, 'agent.edit');
      const key = `${API_KEY_PREFIX}${newToken()}`;
      const [row] = await db
        .insert(agentApiKeys)
        .values({
          agentId: agent.id,
          spaceId: agent.spaceId,
          name,
          keyHash: sha256(key),
          prefix: key.slice(0, API_KEY_PREFIX.length + 6),
          createdBy: ctx.userId,
        })
        .returning();
      return { ...toApiKey(row), key };
    },

    async listKeys(ctx: AuthContext, agentId: string) {
      const space = authorize(ctx, 'member.view');
      const { agent } = await deps.agents.find(space.id, agentId);
      const rows = await db
        .select()
        .from(agentApiKeys)
        .where(eq(agentApiKeys.agentId, agent.id))
        .orderBy(desc(agentApiKeys.createdAt));
      return { items: rows.map(toApiKey) };
    },

    async revokeKey(ctx: AuthContext, keyId: string) {
      const space = authorize(ctx, 'member.view');
      if (!isUuid(keyId)) throw new AppError('NOT_FOUND');
      const [row] = await db
        .select()
        .from(agentApiKeys)
        .where(and(eq(agentApiKeys.id, keyId), eq(agentApiKeys.spaceId, space.id)))
        .limit(1);
      if (!row) throw new AppError('NOT_FOUND');
      await deps.agents.findForChange(ctx, row.agentId, 'agent.edit');
      await db.update(agentApiKeys).set({ revokedAt: deps.now() }).where(eq(agentApiKeys.id, keyId));
    },

    /** The agent behind a bearer key, or null for unknown and revoked keys and dissolved teams. */
    async agentForKey(bearer: string) {
      const [row] = await db
        .select({ key: agentApiKeys, agent: agents })
        .from(agentApiKeys)
        .innerJoin(agents, eq(agents.id, agentApiKeys.agentId))
        .innerJoin(spaces, eq(spaces.id, agentApiKeys.spaceId))
        .where(
          and(eq(agentApiKeys.keyHash, sha256(bearer)), isNull(agentApiKeys.revokedAt), isNull(spaces.dissolvedAt)),
        )
        .limit(1);
      if (!row) return null;
      await db
        .update(agentApiKeys)
        .set({ lastUsedAt: deps.now(), useCount: sql`${agentApiKeys.useCount} + 1` })
        .where(eq(agentApiKeys.id, row.key.id));
      return row.agent;
    },

    /** Agents with a share link or an API key, and how much they are used. */
    async apps(ctx: AuthContext) {
      const space = authorize(ctx, 'member.view');
      const { items } = await deps.agents.list(ctx);
      const keyCounts = await db
        .select({ agentId: agentApiKeys.agentId, keys: count(), calls: sum(agentApiKeys.useCount) })
        .from(agentApiKeys)
        .where(and(eq(agentApiKeys.spaceId, space.id), isNull(agentApiKeys.revokedAt)))
        .groupBy(agentApiKeys.agentId);
      const usage = await db
        .select({
          agentId: conversations.agentId,
          conversations: sql<number>`count(distinct ${conversations.id})::int`,
          messages: count(messages.id),
          tokens: sql<number>`coalesce(sum(${messages.inputTokens} + ${messages.outputTokens}), 0)::int`,
        })
        .from(conversations)
        .leftJoin(messages, eq(messages.conversationId, conversations.id))
        .where(and(eq(conversations.spaceId, space.id), eq(conversations.channel, 'share')))
        .groupBy(conversations.agentId);
      const published = items.filter((agent) => agent.share.enabled || keyCounts.some((k) => k.agentId === agent.id));
      return {
        items: published.map((agent) => {
          const keys = keyCounts.find((k) => k.agentId === agent.id);
          const used = usage.find((u) => u.agentId === agent.id);
          return {
            agent,
            api_keys: Number(keys?.keys ?? 0),
            conversations: Number(used?.conversations ?? 0) + Number(keys?.calls ?? 0),
            messages: Number(used?.messages ?? 0),
            tokens: Number(used?.tokens ?? 0),
          };
        }),
      };
    },
  };
}
