import { jieba } from './jieba.ts';

/**
 * Segmented text for a tsvector('simple'). PostgreSQL's parser cannot split Chinese into words,
 * so jieba does it here and the database only has to split on the spaces between tokens.
 */

// A token made only of punctuation, symbols or spaces carries nothing to search for.
const NOTHING_TO_SEARCH = /^[\p{P}\p{S}\p{Z}\s]*$/u;

/**
 * NFKC first, so full-width letters and digits (ＡＢＣ１２３) index like their ASCII forms and both
 * the stored text and the query (see queryTermsOf) are segmented from the same characters.
 */
export function segmentForSearch(text: string): string[] {
  const tokens = jieba().cutForSearch(text.normalize('NFKC'), true);
  const kept: string[] = [];
  for (const token of tokens) {
    if (!NOTHING_TO_SEARCH.test(token)) kept.push(token.toLowerCase());
  }
  return kept;
}

export function searchTextOf(text: string): string {
  return segmentForSearch(text).join(' ');
}
