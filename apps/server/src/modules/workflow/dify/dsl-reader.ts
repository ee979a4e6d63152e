import { parseDocument } from 'yaml';
import { AppError } from '../../../platform/http/app-error.ts';

/** A Dify export is rarely over 200 KB; the cap bounds what a thread parses (WORKFLOW_TOO_LARGE says 2 MB). */
export const DIFY_FILE_MAX_BYTES = 2_000_000;

/**
 * Expanding an alias costs what the anchored value holds, so a few hundred bytes of nested
 * aliases ("billion laughs") can grow into gigabytes. Dify never writes aliases; a hand-edited
 * file may hold a few.
 */
const MAX_ALIAS_COUNT = 100;

const invalid = (detail: string) => new AppError('WORKFLOW_IMPORT_INVALID', { detail });

/**
 * The YAML of a Dify DSL file as plain data. Runs in a file-reader thread, never on the server's
 * own: refuses a file over the size cap, malformed YAML (with its line), duplicate keys and alias
 * bombs, each with a catalogue error.
 */
export function readDifyDsl(content: string): unknown {
  if (content.length > DIFY_FILE_MAX_BYTES || Buffer.byteLength(content) > DIFY_FILE_MAX_BYTES)
    throw new AppError('WORKFLOW_TOO_LARGE');
  const doc = parseDocument(content, { uniqueKeys: true, prettyErrors: false, schema: 'core', merge: false });
  const error = doc.errors[0];
  if (error) {
    const line = error.linePos?.[0].line;
    throw invalid(`the YAML is malformed${line ? ` (line ${line})` : ''}: ${firstLine(error.message)}`);
  }
  try {
    return doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (thrown) {
    if (thrown instanceof ReferenceError) throw invalid('the YAML expands its aliases too many times.');
    throw thrown;
  }
}

const firstLine = (message: string) => (message.split('\n')[0] ?? '').slice(0, 200);

/**
 * Whether an imported file's text is Dify's YAML rather than our JSON export: our files are JSON
 * objects; Dify's start with top-level keys such as `app:`, `kind:` or `version:`.
 */
export function looksLikeDifyDsl(content: string): boolean {
  const head = content.slice(0, 65_536);
  if (/^\s*[{[]/.test(head)) return false;
  return /^(app|kind|version|workflow|dependencies)\s*:/m.test(head);
}
