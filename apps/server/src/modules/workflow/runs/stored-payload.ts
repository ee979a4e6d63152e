import { WORKFLOW_LIMITS } from '@athena/contract';
import { storable } from '../../../platform/db/storable.ts';

// What a run keeps of a node's inputs and outputs. PostgreSQL's jsonb takes no NUL character and
// no half of a surrogate pair, and a node can hand over megabytes (an HTTP body, a file's text):
// the record keeps a readable head with a note saying what was cut, the run itself is unaffected.

/** Bytes of a value as JSON (UTF-8). */
const sizeOf = (value: unknown) => Buffer.byteLength(JSON.stringify(value) ?? 'null');

/**
 * A payload within `limit` bytes of JSON. One that fits is kept whole. Otherwise each key keeps
 * its value when small; a long string keeps its head; anything else becomes the head of its
 * JSON. `__truncated` then says how large the payload was, so a reader knows it is not all.
 */
export function forStorage(
  payload: Record<string, unknown>,
  limit: number = WORKFLOW_LIMITS.storedPayloadBytes,
): Record<string, unknown> {
  const clean = storable(payload) as Record<string, unknown>;
  const total = sizeOf(clean);
  if (total <= limit) return clean;
  const entries = Object.entries(clean);
  // Room per key, leaving space for the note; a key that needs less leaves its room to the others.
  let room = Math.max(256, limit - 200);
  const kept: Record<string, unknown> = {};
  const sorted = [...entries].sort((a, b) => sizeOf(a[1]) - sizeOf(b[1]));
  sorted.forEach(([key, value], index) => {
    const share = Math.floor(room / (sorted.length - index));
    const size = sizeOf(value);
    if (size <= share) {
      kept[key] = value;
      room -= size;
      return;
    }
    const text = typeof value === 'string' ? value : JSON.stringify(value);
    const head = cutUtf8(text, Math.max(0, share - 64));
    kept[key] = `${head}… [${size} bytes, cut]`;
    room -= sizeOf(kept[key]);
  });
  const ordered = Object.fromEntries(entries.map(([key]) => [key, kept[key]]));
  return { ...ordered, __truncated: `${total} bytes of JSON, over the ${limit} kept per record; long values were cut` };
}

/** The longest head of `text` within `bytes` of UTF-8, never splitting a character. */
function cutUtf8(text: string, bytes: number): string {
  if (Buffer.byteLength(text) <= bytes) return text;
  let end = Math.min(text.length, bytes);
  while (end > 0 && Buffer.byteLength(text.slice(0, end)) > bytes) end = Math.floor(end * 0.9);
  // A surrogate pair cut in half would not be storable.
  if (end > 0 && /[\uD800-\uDBFF]/.test(text[end - 1])) end -= 1;
  return text.slice(0, end);
}
