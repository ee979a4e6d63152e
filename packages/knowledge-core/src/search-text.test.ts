import { describe, expect, it } from 'vitest';
import { countTokens, queryTermsOf, searchTextOf } from './index.ts';

describe('searchTextOf', () => {
  it('segments Chinese for search, including the longer compound', () => {
    const tokens = searchTextOf('知识库检索').split(' ');
    expect(tokens).toContain('知识库');
    expect(tokens).toContain('检索');
  });

  it('lower-cases English and drops punctuation and spaces', () => {
    expect(searchTextOf('Hello, WORLD!  RAG-2 works.')).toBe('hello world rag-2 works');
    expect(searchTextOf('“知识库”，检索。')).not.toMatch(/[“”，。]/);
  });

  it('folds full-width letters and digits to ASCII', () => {
    expect(searchTextOf('ＡＰＩ１２３')).toBe('api123');
  });

  it('returns an empty string for text without words', () => {
    expect(searchTextOf(' ，。！ ')).toBe('');
  });
});

describe('queryTermsOf', () => {
  it('removes stop words and punctuation, and deduplicates', () => {
    const terms = queryTermsOf('如何使用知识库的检索功能？检索');
    expect(terms).toContain('知识库');
    expect(terms).toContain('检索');
    expect(terms).not.toContain('如何');
    expect(terms).not.toContain('的');
    expect(terms).not.toContain('？');
    expect(terms.filter((term) => term === '检索')).toHaveLength(1);
    expect(queryTermsOf('What is the API of Athena?')).toEqual(['api', 'athena']);
  });

  it('strips characters that to_tsquery would read as syntax', () => {
    const terms = queryTermsOf("rag:* & (vector | !fulltext) o'neil back\\slash <-> a<b>");
    for (const term of terms) expect(term).not.toMatch(/[:&|!()'\\*<>\s]/);
    expect(terms).toEqual(expect.arrayContaining(['rag', 'vector', 'fulltext']));
    expect(terms).not.toContain('');
  });

  it('keeps stop words when nothing else is left', () => {
    expect(queryTermsOf('什么是')).toEqual(['什么', '是']);
    expect(queryTermsOf('？！')).toEqual([]);
  });
});

describe('countTokens', () => {
  it('counts a CJK character as one token and an English word as 1.3', () => {
    expect(countTokens('')).toBe(0);
    expect(countTokens('知识库')).toBe(3);
    expect(countTokens('hello world')).toBe(3);
    expect(countTokens('知识库 hello')).toBe(5);
  });
});
