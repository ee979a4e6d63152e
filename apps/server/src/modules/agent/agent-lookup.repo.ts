import { and, eq } from 'drizzle-orm';
import { isUuid } from '../../platform/crypto.ts';
import type { Db } from '../../platform/db/database.ts';
import { agents } from './agent.schema.ts';

/**
 * What answering as an agent needs of it (a workflow's agent node, a chat-history reply): its
 * prompt, model and knowledge, within the caller's space; null for an id of no agent there.
 */
export function createAgentLookup(db: Db) {
  return async (spaceId: string, agentId: string) => {
    if (!isUuid(agentId)) return null;
    const [row] = await db
      .select({
        name: agents.name,
        systemPrompt: agents.systemPrompt,
        modelKeyId: agents.modelKeyId,
        params: agents.params,
        attachments: agents.attachments,
      })
      .from(agents)
      .where(and(eq(agents.spaceId, spaceId), eq(agents.id, agentId)))
      .limit(1);
    return row ?? null;
  };
}
export type AgentLookup = ReturnType<typeof createAgentLookup>;
