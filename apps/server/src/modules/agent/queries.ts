import { and, desc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.ts';
import { namesById, ownedIds, type Reader } from '../../platform/db/owned-rows.ts';
import { agents } from './agent.schema.ts';

/** What other modules may read of agents, each read scoped by space (front door: `agent.queries`). */
export function createAgentQueries(db: Db) {
  return {
    /** Which of these ids are this team's agents. */
    ownedAgentIds: (spaceId: string, ids: string[], reader: Reader = db) => ownedIds(reader, agents, spaceId, ids),

    /** Agent names by id, as they are now. */
    agentNames: (ids: string[]) => namesById(db, agents, ids),

    /** The team's agents (or these of them), newest first, as a tool that asks them needs them. */
    agentsForTools: (spaceId: string, ids?: string[]) =>
      db
        .select({ id: agents.id, name: agents.name, description: agents.description })
        .from(agents)
        .where(and(eq(agents.spaceId, spaceId), ids ? inArray(agents.id, ids) : undefined))
        .orderBy(desc(agents.createdAt)),
  };
}

export type AgentQueries = ReturnType<typeof createAgentQueries>;
