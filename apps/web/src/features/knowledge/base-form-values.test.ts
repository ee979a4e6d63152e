import { type KnowledgeBase, knowledgeRoutes } from '@athena/contract';
import { describe, expect, it } from 'vitest';
import { embeddingChanged, fromBase, newBaseValues, toCreateBody, toUpdateBody } from './base-form-values.ts';

const base: KnowledgeBase = {
  id: 'k1',
  name: 'Handbook',
  description: 'Policies',
  type: 'normal',
  group_id: null,
  embedding_model_key_id: 'e1',
  embedding_model_label: 'bge-m3 · v1',
  retrieval: { mode: 'hybrid', top_k: 5, score_threshold: null },
  unit_count: 0,
  segment_count: 0,
  status_counts: { not_indexed: 0, waiting: 0, indexing: 0, indexed: 0, failed: 0, canceled: 0 },
  created_by: { id: 'u1', nickname: 'Ann' },
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
};

describe('base form values', () => {
  it('creates a normal base with the API’s nulls for “none”', () => {
    const body = toCreateBody({ ...newBaseValues(null, null), name: '  FAQ ', description: ' ' });
    expect(body).toEqual({
      name: 'FAQ',
      description: '',
      type: 'normal',
      group_id: null,
      embedding_model_key_id: null,
      retrieval: { mode: 'hybrid', top_k: 5, score_threshold: null },
    });
    expect(knowledgeRoutes.create.body.safeParse(body).success).toBe(true);
    expect(toCreateBody({ ...newBaseValues('g1', 'e9'), name: 'x' })).toMatchObject({
      group_id: 'g1',
      embedding_model_key_id: 'e9',
    });
  });

  it('round-trips a base and keeps the threshold only when switched on', () => {
    expect(toUpdateBody(base.id, fromBase(base))).toEqual({
      id: 'k1',
      name: 'Handbook',
      description: 'Policies',
      group_id: null,
      embedding_model_key_id: 'e1',
      retrieval: base.retrieval,
    });
    const body = toUpdateBody(base.id, { ...fromBase(base), use_threshold: true, threshold: 0.456, top_k: 8 });
    expect(body.retrieval).toEqual({ mode: 'hybrid', top_k: 8, score_threshold: 0.46 });
    expect(knowledgeRoutes.update.body.safeParse(body).success).toBe(true);
  });

  it('notices a change of embedding model, including to and from none', () => {
    expect(embeddingChanged(base, { embedding: 'e1' })).toBe(false);
    expect(embeddingChanged(base, { embedding: '' })).toBe(true);
    expect(embeddingChanged({ ...base, embedding_model_key_id: null }, { embedding: '' })).toBe(false);
  });
});
