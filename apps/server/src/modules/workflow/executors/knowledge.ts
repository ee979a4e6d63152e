import type { NodeExecutor } from '@athena/workflow-engine';
import type { KnowledgeModule } from '../../knowledge/index.ts';

export interface KnowledgeDeps {
  retrieval: Pick<KnowledgeModule['retrieval'], 'retrieveForAgent'>;
  spaceId: string;
  userId: string | null;
}

const asText = (value: unknown) => (typeof value === 'string' ? value : value == null ? '' : JSON.stringify(value));

/**
 * Knowledge retrieval over the node's bases, only those of the run's space (an id of another
 * space, or a base deleted since, finds nothing). `result` lists the segments, best first.
 */
export function knowledgeExecutor(deps: KnowledgeDeps): NodeExecutor<'knowledge'> {
  return async (ctx) => {
    const { data } = ctx.node;
    const query = asText(ctx.read(data.query)).trim();
    if (!query || data.knowledge_ids.length === 0) return { outputs: { result: [] }, inputs: { query } };
    const hits = await deps.retrieval.retrieveForAgent({
      spaceId: deps.spaceId,
      userId: deps.userId,
      knowledgeIds: data.knowledge_ids,
      query,
      topK: data.top_k,
    });
    const result = hits.map((hit) => ({
      content: hit.segment.question ? `Q: ${hit.segment.question}\nA: ${hit.segment.answer}` : hit.segment.content,
      score: Math.round(hit.score * 10_000) / 10_000,
      file_name: hit.fileName,
      knowledge_id: hit.knowledgeId,
      segment_id: hit.segment.id,
    }));
    return { outputs: { result }, inputs: { query, knowledge_ids: data.knowledge_ids, top_k: data.top_k } };
  };
}
