import { describe, expect, it } from 'vitest';
import { DEFAULT_DIMENSIONS, embed, embedFor, modelDimensions, parseEmbeddingRequest } from './embeddings.ts';
import { isLexicalModel, lexicalEmbed, lexicalFeatures } from './lexical-embedding.ts';

// Both vectors are unit length, so the dot product is the cosine.
const cosine = (a: number[], b: number[]) => a.reduce((sum, value, index) => sum + value * b[index], 0);
const norm = (vector: number[]) => Math.hypot(...vector);

describe('lexical embedding', () => {
  it('is chosen by a model id containing "lexical", and only then', () => {
    expect(isLexicalModel('fake-lexical-embed')).toBe(true);
    expect(isLexicalModel('Bench-LEXICAL')).toBe(true);
    expect(isLexicalModel('fake-embed')).toBe(false);
    expect(embedFor('fake-lexical-embed', 'refund policy', 32)).toEqual(lexicalEmbed('refund policy', 32));
    // Default ids keep the SHA-256 embedding exactly.
    expect(embedFor('fake-embed', 'refund policy', 32)).toEqual(embed('refund policy', 32));
  });

  it('is deterministic and unit length at the requested dimensions', () => {
    for (const dimensions of [1, 7, 64, 300, 1024]) {
      const vector = lexicalEmbed('Nimbus 的退款政策 refund policy', dimensions);
      expect(vector).toHaveLength(dimensions);
      expect(norm(vector)).toBeCloseTo(1, 10);
      expect(lexicalEmbed('Nimbus 的退款政策 refund policy', dimensions)).toEqual(vector);
    }
  });

  it('puts Chinese texts that share characters closer than unrelated ones', () => {
    for (const dimensions of [64, 256, 1024]) {
      const query = lexicalEmbed('知识库的检索方法', dimensions);
      const near = cosine(query, lexicalEmbed('知识库检索', dimensions));
      const far = cosine(query, lexicalEmbed('今天天气很好', dimensions));
      expect(near).toBeGreaterThan(far);
      expect(near).toBeGreaterThan(0.5);
    }
  });

  it('puts English texts that share words or stems closer than unrelated ones', () => {
    for (const dimensions of [64, 256, 1024]) {
      const query = lexicalEmbed('How do I request a refund for my subscription?', dimensions);
      const near = cosine(query, lexicalEmbed('Refunds: requesting money back on subscriptions', dimensions));
      const far = cosine(query, lexicalEmbed('The VPN client needs a new certificate', dimensions));
      expect(near).toBeGreaterThan(far);
    }
  });

  it('ignores case and full-width forms, and gives featureless text one fixed unit vector', () => {
    expect(lexicalEmbed('ＡＰＩ Rate Limits', 128)).toEqual(lexicalEmbed('api rate limits', 128));
    const empty = lexicalEmbed('?!… —', 16);
    expect(empty).toEqual(lexicalEmbed('。，', 16));
    expect(norm(empty)).toBeCloseTo(1, 10);
  });

  it('extracts CJK unigrams and bigrams, and words with padded trigrams', () => {
    const features = lexicalFeatures('API限流 api');
    expect(Object.fromEntries(features)).toEqual({
      'w:api': 2,
      't:<ap': 2,
      't:api': 2,
      't:pi>': 2,
      'u:限': 1,
      'u:流': 1,
      'b:限流': 1,
    });
  });
});

describe('dimensions from the model id', () => {
  const dimensionsOf = (body: object) => {
    const request = parseEmbeddingRequest({ input: 'refund policy', ...body });
    if (!('dimensions' in request)) throw new Error(JSON.stringify(request));
    return request.dimensions;
  };

  it('takes a -d<N> suffix as the default dimension, for clients that never send one', () => {
    expect(modelDimensions('fake-lexical-embed-d256')).toBe(256);
    expect(modelDimensions('fake-embed-D1024')).toBe(1024);
    expect(dimensionsOf({ model: 'fake-lexical-embed-d256' })).toBe(256);
    expect(dimensionsOf({ model: 'fake-embed-d8' })).toBe(8);
  });

  it('lets the request’s own dimensions win, and ignores ids without a valid suffix', () => {
    expect(dimensionsOf({ model: 'fake-lexical-embed-d256', dimensions: 32 })).toBe(32);
    for (const model of ['fake-embed', 'fake-lexical-embed', 'fake-d256-embed', 'fake-embed-d0', 'fake-embed-d9000']) {
      expect(dimensionsOf({ model })).toBe(DEFAULT_DIMENSIONS);
    }
  });
});
