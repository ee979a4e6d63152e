import {
  afterClause,
  afterSentence,
  type BoundaryFinder,
  beforeSeparator,
  beforeWhitespace,
  hardSplit,
  sliceAt,
} from './boundaries.ts';

/**
 * Cut a paragraph that is longer than `limit` into slices of at most `limit` characters: at the
 * custom separators (in order), then sentence ends, then commas, then spaces, and only as a last
 * resort at `limit`. Slices are not merged back together; the chunker packs them, which fills
 * chunks better than packing pre-merged pieces. Joining the slices gives the text back exactly.
 */
export function splitLongText(text: string, limit: number, separators: string[]): string[] {
  const finders: BoundaryFinder[] = [...separators.map(beforeSeparator), afterSentence, afterClause, beforeWhitespace];
  return splitWith(text, limit, finders, 0);
}

function splitWith(text: string, limit: number, finders: BoundaryFinder[], level: number): string[] {
  if (text.length <= limit) return [text];
  if (level >= finders.length) return hardSplit(text, limit);
  const slices = sliceAt(text, finders[level](text));
  return slices.flatMap((slice) => splitWith(slice, limit, finders, level + 1));
}
