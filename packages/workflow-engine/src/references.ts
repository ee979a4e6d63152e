import type { Selector } from '@athena/contract';

// Dify's reference syntax, kept so that imported prompts work unchanged: `{{#nodeId.output#}}`,
// `{{#nodeId.output.path.more#}}`, `{{#sys.query#}}`, `{{#env.NAME#}}`. The node id part follows
// the contract's node id rule; a selector has at most 8 parts.

/**
 * Matches one reference; group 1 is the dotted selector. It is global, so use it with
 * `matchAll`/`replace` (which reset it), never with a stateful `test`/`exec` loop shared elsewhere.
 */
export const REFERENCE_PATTERN = /\{\{#([A-Za-z0-9_-]{1,64}(?:\.[^.#{}\s]{1,128}){1,7})#\}\}/g;

/** The selectors a text refers to, in order of appearance (duplicates kept). */
export function referencesIn(text: string): Selector[] {
  if (!text.includes('{{#')) return [];
  const found: Selector[] = [];
  for (const match of text.matchAll(REFERENCE_PATTERN)) found.push(match[1]!.split('.'));
  return found;
}

/** How a value looks inside rendered text: objects and arrays as JSON, null and undefined as nothing. */
export function textOf(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'object') {
    try {
      return JSON.stringify(value);
    } catch {
      return String(value);
    }
  }
  return String(value);
}

/** Replaces every reference in a text with the value `read` finds at its selector. */
export function renderReferences(text: string, read: (selector: Selector) => unknown): string {
  if (!text.includes('{{#')) return text;
  return text.replace(REFERENCE_PATTERN, (_whole, dotted: string) => textOf(read(dotted.split('.'))));
}
