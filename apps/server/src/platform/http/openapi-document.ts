import { fileURLToPath } from 'node:url';

/** The committed copy of the document served at /api/openapi.json (`npm run openapi` writes it). */
export const OPENAPI_FILE = fileURLToPath(new URL('../../../openapi.json', import.meta.url));

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (!isRecord(value)) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sortKeys(value[key])]),
  );
}

/**
 * The document as it is committed: keys sorted at every level (arrays keep their order), two
 * spaces, a final newline. Route registration order then never shows as a change, and a real
 * change is a small diff in review.
 */
export function stableJson(value: unknown): string {
  return `${JSON.stringify(sortKeys(value), null, 2)}\n`;
}

/** Which operations differ between two documents, for a failure message a person can act on. */
export function changedOperations(committed: unknown, served: unknown): string[] {
  const pathsOf = (doc: unknown) => (isRecord(doc) && isRecord(doc.paths) ? doc.paths : {});
  const before = pathsOf(committed);
  const after = pathsOf(served);
  const changes: string[] = [];
  for (const path of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (!(path in before)) changes.push(`added ${path}`);
    else if (!(path in after)) changes.push(`removed ${path}`);
    else if (stableJson(before[path]) !== stableJson(after[path])) changes.push(`changed ${path}`);
  }
  return changes;
}
