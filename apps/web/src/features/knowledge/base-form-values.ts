import type { KnowledgeBase, knowledgeRoutes, RETRIEVAL_MODES, RouteBody } from '@athena/contract';

/** The base form's shape: '' where the API has null, so inputs stay controlled. */
export interface BaseFormValues {
  name: string;
  description: string;
  /** '' = no group. */
  group_id: string;
  /** '' = none, full-text search only. */
  embedding: string;
  mode: (typeof RETRIEVAL_MODES)[number];
  top_k: number;
  use_threshold: boolean;
  threshold: number;
}

export const DEFAULT_THRESHOLD = 0.3;

/** A new base: in the group being viewed, with the team's default embedding model when there is one. */
export function newBaseValues(groupId: string | null, defaultEmbedding: string | null): BaseFormValues {
  return {
    name: '',
    description: '',
    group_id: groupId ?? '',
    embedding: defaultEmbedding ?? '',
    mode: 'hybrid',
    top_k: 5,
    use_threshold: false,
    threshold: DEFAULT_THRESHOLD,
  };
}

export function fromBase(base: KnowledgeBase): BaseFormValues {
  return {
    name: base.name,
    description: base.description,
    group_id: base.group_id ?? '',
    embedding: base.embedding_model_key_id ?? '',
    mode: base.retrieval.mode,
    top_k: base.retrieval.top_k,
    use_threshold: base.retrieval.score_threshold !== null,
    threshold: base.retrieval.score_threshold ?? DEFAULT_THRESHOLD,
  };
}

const retrievalOf = (values: BaseFormValues) => ({
  mode: values.mode,
  top_k: values.top_k,
  score_threshold: values.use_threshold ? Math.round(values.threshold * 100) / 100 : null,
});

export function toCreateBody(values: BaseFormValues): RouteBody<typeof knowledgeRoutes.create> {
  return {
    name: values.name.trim(),
    description: values.description.trim(),
    type: 'normal',
    group_id: values.group_id || null,
    embedding_model_key_id: values.embedding || null,
    retrieval: retrievalOf(values),
  };
}

export function toUpdateBody(id: string, values: BaseFormValues): RouteBody<typeof knowledgeRoutes.update> {
  return {
    id,
    name: values.name.trim(),
    description: values.description.trim(),
    group_id: values.group_id || null,
    embedding_model_key_id: values.embedding || null,
    retrieval: retrievalOf(values),
  };
}

/** Saving this re-indexes every file (the server sends indexed units back to waiting). */
export const embeddingChanged = (base: KnowledgeBase, values: Pick<BaseFormValues, 'embedding'>) =>
  (base.embedding_model_key_id ?? '') !== (values.embedding ?? '');
