/**
 * The text carried from the end of one chunk to the start of the next, so a fact cut at the
 * boundary is still whole in one of them. Taken from the last `max` characters, then moved forward
 * to the first sentence start (else clause start, else word start) so it does not begin mid-thought.
 */

const SENTENCE_START = /(?:[。！？；!?;…]+|\.(?=\s))[”’」』）)"']*|\n/g;
const CLAUSE_START = /[，,、]/g;
const WORD_CHAR = /[\p{L}\p{N}]/u;
const CJK = /[\u2e80-\u9fff\uf900-\ufaff]/;

function firstCutAfter(tail: string, pattern: RegExp): string | null {
  for (const match of tail.matchAll(pattern)) {
    const rest = tail.slice(match.index + match[0].length).trim();
    if (rest !== '') return rest;
  }
  return null;
}

// Only Latin-like words need this: any boundary between two CJK characters is acceptable.
function fromWordStart(text: string, start: number): string {
  const tail = text.slice(start);
  const before = text[start - 1] ?? ' ';
  if (!WORD_CHAR.test(before) || CJK.test(before) || !WORD_CHAR.test(tail[0] ?? '')) return tail.trim();
  const space = tail.search(/\s/);
  return space < 0 ? '' : tail.slice(space).trim();
}

export function overlapTail(text: string, max: number): string {
  if (max <= 0 || text === '') return '';
  let start = Math.max(0, text.length - max);
  // Never begin on the second half of a surrogate pair.
  const code = text.charCodeAt(start);
  if (code >= 0xdc00 && code <= 0xdfff) start++;
  const tail = text.slice(start);
  // Already at a sentence start: keep the whole tail (unless it is the whole previous chunk).
  if (start > 0 && /[。！？；!?;…\n]/.test(text[start - 1]) && tail.trim() !== '') return tail.trim();
  return firstCutAfter(tail, SENTENCE_START) ?? firstCutAfter(tail, CLAUSE_START) ?? fromWordStart(text, start);
}
