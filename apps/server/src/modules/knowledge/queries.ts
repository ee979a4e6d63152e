import { and, desc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.ts';
import { namesById, ownedIds, type Reader } from '../../platform/db/owned-rows.ts';
import { knowledgeBases } from './knowledge.schema.ts';

/** What other modules may read of knowledge bases, each read scoped by space (front door: `knowledge.queries`). */
export function createKnowledgeQueries(db: Db) {
  return {
    /** Which of these ids are this team's bases. */
    ownedBaseIds: (spaceId: string, ids: string[], reader: Reader = db) =>
      ownedIds(reader, knowledgeBases, spaceId, ids),

    /** Base names by id, as they are now. */
    baseNames: (ids: string[]) => namesById(db, knowledgeBases, ids),

    /** The team's bases (or these of them), newest first, as a tool that searches them needs them. */
    basesForTools: (spaceId: string, ids?: string[]) =>
      db
        .select({
          id: knowledgeBases.id,
          name: knowledgeBases.name,
          description: knowledgeBases.description,
          retrieval: knowledgeBases.retrieval,
        })
        .from(knowledgeBases)
        .where(and(eq(knowledgeBases.spaceId, spaceId), ids ? inArray(knowledgeBases.id, ids) : undefined))
        .orderBy(desc(knowledgeBases.createdAt)),
  };
}

export type KnowledgeQueries = ReturnType<typeof createKnowledgeQueries>;
