// Deterministic randomness for the generated benchmark corpora; not a benchmark itself.

/** mulberry32: a small seeded generator of numbers in [0, 1), the same on every engine. */
export function seeded(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Fisher–Yates in place with a seeded generator (sort with a random comparator depends on the engine). */
export function shuffle<T>(items: T[], draw: () => number): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(draw() * (i + 1));
    [items[i], items[j]] = [items[j], items[i]];
  }
  return items;
}

/**
 * The i-th fragment query cut from a corpus text: alternately 2–4 and 6–12 consecutive words, at a
 * seeded place, without a trailing comma, colon or full stop.
 */
export function fragmentOf(text: string, i: number, draw: () => number): string {
  const words = text.split(/\s+/).filter(Boolean);
  const length = i % 2 === 0 ? 2 + Math.floor(draw() * 3) : 6 + Math.floor(draw() * 7);
  const from = Math.floor(draw() * Math.max(1, words.length - length));
  return words
    .slice(from, from + length)
    .join(' ')
    .replace(/[.,:;]$/, '');
}
