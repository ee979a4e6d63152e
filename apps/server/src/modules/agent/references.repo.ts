import type { KnowledgeQueries } from '../knowledge/index.ts';
import type { ModelKeyQueries } from '../model-key/index.ts';

/** Whether the ids an agent refers to (its model, its knowledge bases) are usable in one space, asked of their owners. */
export type ReferenceRepo = ReturnType<typeof createReferenceRepo>;

export function createReferenceRepo(deps: {
  modelKeys: Pick<ModelKeyQueries, 'isUsableModel'>;
  knowledge: Pick<KnowledgeQueries, 'ownedBaseIds'>;
}) {
  return {
    /** One of the team's keys, or one of the platform's enabled models (charged to the balance). */
    hasModelKey: (spaceId: string, id: string) => deps.modelKeys.isUsableModel(spaceId, id),

    async hasKnowledgeBases(spaceId: string, ids: string[]) {
      const unique = [...new Set(ids)];
      return (await deps.knowledge.ownedBaseIds(spaceId, unique)).size === unique.length;
    },
  };
}
