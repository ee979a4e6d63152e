import { and, eq } from 'drizzle-orm';
import { isUuid } from '../../../platform/crypto.ts';
import type { Db } from '../../../platform/db/database.ts';
import { agents } from '../../agent/agent.schema.ts';

/** What an agent node needs of an agent: its prompt, model and knowledge, within the run's space. */
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
