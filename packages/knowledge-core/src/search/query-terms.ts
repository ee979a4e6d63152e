import { segmentForSearch } from './search-text.ts';

// Words that match nearly every segment; kept out of queries so they do not drown the real terms.
const STOP_WORDS = new Set([
  ...['的', '了', '是', '在', '和', '与', '及', '吗', '呢', '啊', '什么', '怎么', '如何', '哪些', '有'],
  ...['the', 'a', 'an', 'of', 'to', 'is', 'are', 'was', 'what', 'how', 'which', 'in', 'on', 'for', 'and', 'or'],
]);

// to_tsquery syntax (operators, weights, prefix match, quoting) plus whitespace inside a term.
const TSQUERY_UNSAFE = /[:&|!()'\\*<>\s]/g;

function unique(terms: string[]): string[] {
  return [...new Set(terms)];
}

/**
 * Query → terms for to_tsquery, each safe to join with ' | ' or ' & '. Stop words are dropped
 * unless nothing else is left ("什么是" still searches for something).
 */
export function queryTermsOf(query: string): string[] {
  const terms = unique(
    segmentForSearch(query)
      .map((term) => term.replace(TSQUERY_UNSAFE, ''))
      .filter((term) => term !== ''),
  );
  const meaningful = terms.filter((term) => !STOP_WORDS.has(term));
  return meaningful.length > 0 ? meaningful : terms;
}
