/**
 * Where text may be cut, from most to least natural. Each finder returns cut positions: the text
 * splits into slices [0, p1), [p1, p2), …, so joining the slices gives the text back exactly.
 */

export type BoundaryFinder = (text: string) => number[];

// Sentence ends (Chinese and English) and line breaks; closing quotes stay with their sentence.
const SENTENCE_END = /(?:[。！？；!?;…]+|\.(?=\s))[”’」』）)"']*|\n/g;
const CLAUSE_END = /[，,、]/g;
const WHITESPACE = /\s+/g;

function positionsAfter(pattern: RegExp): BoundaryFinder {
  return (text) => Array.from(text.matchAll(pattern), (match) => match.index + match[0].length);
}

/** Custom separators open the next slice, so a marker like "###" stays with the text it introduces. */
export function beforeSeparator(separator: string): BoundaryFinder {
  return (text) => {
    const positions: number[] = [];
    for (let index = text.indexOf(separator); index >= 0; index = text.indexOf(separator, index + separator.length)) {
      positions.push(index);
    }
    return positions;
  };
}

export const afterSentence = positionsAfter(SENTENCE_END);
export const afterClause = positionsAfter(CLAUSE_END);
/** Before each run of whitespace, so English words are never cut while a space is available. */
export const beforeWhitespace: BoundaryFinder = (text) => Array.from(text.matchAll(WHITESPACE), (match) => match.index);

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** The last resort: fixed-size slices, moved back one unit rather than splitting a surrogate pair. */
export function hardSplit(text: string, limit: number): string[] {
  const pieces: string[] = [];
  let start = 0;
  while (start < text.length) {
    let end = Math.min(start + limit, text.length);
    if (end < text.length && isLowSurrogate(text.charCodeAt(end)) && end - 1 > start) end--;
    pieces.push(text.slice(start, end));
    start = end;
  }
  return pieces;
}

/** Like String.prototype.slice at the given cut positions, ignoring cuts at either end. */
export function sliceAt(text: string, positions: number[]): string[] {
  const cuts = [...new Set(positions.filter((position) => position > 0 && position < text.length))].sort(
    (a, b) => a - b,
  );
  const slices: string[] = [];
  let start = 0;
  for (const cut of cuts) {
    slices.push(text.slice(start, cut));
    start = cut;
  }
  slices.push(text.slice(start));
  return slices;
}
