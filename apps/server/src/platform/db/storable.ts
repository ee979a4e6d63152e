import { isStorableText } from '@athena/contract';

// PostgreSQL stores no NUL character in text or jsonb, and jsonb takes no half of a surrogate pair.
// Text from outside (a tool's answer, an HTTP body, a file) may hold either; what is kept of it is
// made storable here, so a write never fails on it.

const REPLACEMENT = '\uFFFD';
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** The same value with every string storable (NUL and lone surrogates replaced by U+FFFD). */
export function storable(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') {
    return isStorableText(value) ? value : value.replaceAll('\0', REPLACEMENT).replace(LONE_SURROGATE, REPLACEMENT);
  }
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (value === null || typeof value === 'boolean') return value;
  if (typeof value !== 'object' || depth > 64) return value === undefined ? null : String(value);
  if (Array.isArray(value)) return value.map((item) => storable(item, depth + 1));
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [storable(key) as string, storable(item, depth + 1)]),
  );
}

/** Storable text of at most `max` UTF-16 units, never cut inside a surrogate pair. */
export function storableText(text: string, max = Number.POSITIVE_INFINITY): string {
  let head = text.length > max ? text.slice(0, max) : text;
  const last = head.charCodeAt(head.length - 1);
  if (head.length < text.length && last >= 0xd800 && last <= 0xdbff) head = head.slice(0, -1);
  return storable(head) as string;
}
