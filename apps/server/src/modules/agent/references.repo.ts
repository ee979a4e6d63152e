import { and, eq, inArray } from 'drizzle-orm';
import { isUuid } from '../../platform/crypto.ts';
import type { Db } from '../../platform/db/database.ts';
import { platformModels } from '../billing/usage-charge.schema.ts';
import { knowledgeBases } from '../knowledge/knowledge.schema.ts';
import { modelKeys } from '../model-key/model-key.schema.ts';

/** Whether the ids an agent refers to (its model key, its knowledge bases) exist in one space. */
export function createReferenceRepo(db: Db) {
  return {
    async hasModelKey(spaceId: string, id: string) {
      if (!isUuid(id)) return false;
      const [row] = await db
        .select({ id: modelKeys.id })
        .from(modelKeys)
        .where(and(eq(modelKeys.id, id), eq(modelKeys.spaceId, spaceId)))
        .limit(1);
      if (row) return true;
      // Or one of the platform's enabled models, whose calls are charged to the team's balance.
      const [platform] = await db
        .select({ id: platformModels.id })
        .from(platformModels)
        .where(and(eq(platformModels.id, id), eq(platformModels.enabled, true)));
      return Boolean(platform);
    },

    async hasKnowledgeBases(spaceId: string, ids: string[]) {
      const unique = [...new Set(ids)];
      if (!unique.every(isUuid)) return false;
      const rows = await db
        .select({ id: knowledgeBases.id })
        .from(knowledgeBases)
        .where(and(inArray(knowledgeBases.id, unique), eq(knowledgeBases.spaceId, spaceId)));
      return rows.length === unique.length;
    },
  };
}
