// Lexical embeddings: feature hashing over words, character n-grams and CJK characters, so texts
// that share vocabulary land close together. Retrieval tests and benchmarks need that property; the
// default SHA-256 embedding gives every distinct text an unrelated vector.

/** Model ids containing this word (any case) embed lexically, e.g. `fake-lexical-embed`. */
export const LEXICAL_MARKER = 'lexical';

export function isLexicalModel(model: string): boolean {
  return model.toLowerCase().includes(LEXICAL_MARKER);
}

// Han, kana and Hangul have no spaces between words, so they are cut into characters and bigrams.
const CJK = '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}';
// A CJK run, or a run of other letters/digits (the lookahead stops `api限流` becoming one word).
const TOKEN = new RegExp(`[${CJK}]+|(?:(?![${CJK}])[\\p{L}\\p{M}\\p{N}])+`, 'gu');
const CJK_RUN = new RegExp(`^[${CJK}]`, 'u');

/** Counts of every feature in the text; prefixes keep a word from colliding with an equal n-gram. */
export function lexicalFeatures(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  const add = (feature: string) => counts.set(feature, (counts.get(feature) ?? 0) + 1);
  // NFKC folds full-width letters and digits (common in Chinese text) onto their ASCII forms.
  for (const [token] of text.normalize('NFKC').toLowerCase().matchAll(TOKEN)) {
    const chars = Array.from(token);
    if (CJK_RUN.test(token)) {
      chars.forEach((char, index) => {
        add(`u:${char}`);
        if (index > 0) add(`b:${chars[index - 1]}${char}`);
      });
    } else {
      add(`w:${token}`);
      // Boundary marks let short words still yield n-grams and tell prefixes from infixes.
      const padded = ['<', ...chars, '>'];
      for (let index = 0; index + 3 <= padded.length; index++) add(`t:${padded.slice(index, index + 3).join('')}`);
    }
  }
  return counts;
}

/** A unit-length vector: each feature hashed to a signed slot, weighted 1 + ln(tf). */
export function lexicalEmbed(text: string, dimensions: number): number[] {
  const values = new Array<number>(dimensions).fill(0);
  for (const [feature, count] of lexicalFeatures(text)) {
    const hash = hash32(feature);
    // Signed hashing: collisions cancel out on average instead of always adding similarity.
    const sign = hash & 0x8000_0000 ? -1 : 1;
    values[hash % dimensions] += sign * (1 + Math.log(count));
  }
  const norm = Math.hypot(...values);
  // Text with no features (only punctuation) still needs a unit vector; every such text gets the same one.
  if (norm === 0) return values.map(() => 1 / Math.sqrt(dimensions));
  return values.map((value) => value / norm);
}

/** FNV-1a over UTF-16 code units, then murmur3's finaliser so the low bits (the slot) mix well. */
function hash32(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  hash ^= hash >>> 16;
  return hash >>> 0;
}
