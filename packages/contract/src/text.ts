import { z } from 'zod';

// A high surrogate not followed by a low one, or a low one not preceded by a high one.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Whether PostgreSQL can store a string: it has no NUL character and is well-formed UTF-16 (no
 * lone surrogate, which UTF-8 cannot encode).
 */
export const isStorableText = (value: string) => !value.includes('\0') && isWellFormed(value);

// Every string of every answer passes here too (responses are checked against the contract), so
// the engine's own scan is used where it exists (Node 20, current browsers); the regex elsewhere.
const isWellFormed = (value: string) =>
  (value as { isWellFormed?: () => boolean }).isWellFormed?.() ?? !LONE_SURROGATE.test(value);

const storableString = (params?: Parameters<typeof z.string>[0]) =>
  z.string(params).refine(isStorableText, { error: 'TEXT_UNSTORABLE' });

// Without parameters every call built the same two schemas, about a thousand at start-up (each
// field, and every route's envelope), ~3 KB of heap each; zod schemas are immutable (`.optional()`,
// `.max()`… return new ones), so one is shared.
const plainText = storableString();

/**
 * The one string schema of the contract: `z.string()` that refuses what the database cannot
 * store, with the catalogue's TEXT_UNSTORABLE, so such a value never reaches a query.
 */
export const text = (params?: Parameters<typeof z.string>[0]) =>
  params === undefined ? plainText : storableString(params);

/**
 * Whether free-form JSON (a channel's `detail`) can be stored as jsonb: every key and string value
 * storable, nested at most `depth` levels. jsonb refuses a NUL (`\u0000`) or a lone surrogate
 * anywhere in the document, which would otherwise fail the whole batch it came in.
 */
export function isStorableJson(value: unknown, depth = 5): boolean {
  if (typeof value === 'string') return isStorableText(value);
  if (value === null || typeof value !== 'object') return true;
  if (depth === 0) return false;
  if (Array.isArray(value)) return value.every((item) => isStorableJson(item, depth - 1));
  return Object.entries(value).every(([key, item]) => isStorableText(key) && isStorableJson(item, depth - 1));
}
