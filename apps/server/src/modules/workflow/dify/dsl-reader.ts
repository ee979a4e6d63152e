import { parseDocument } from 'yaml';
import { AppError } from '../../../platform/http/app-error.ts';
import { DIFY_FILE_MAX_BYTES } from './dsl-sniff.ts';

/**
 * Expanding an alias costs what the anchored value holds, so a few hundred bytes of nested
 * aliases ("billion laughs") can grow into gigabytes. Dify never writes aliases; a hand-edited
 * file may hold a few.
 */
const MAX_ALIAS_COUNT = 100;

const invalid = (detail: string) => new AppError('WORKFLOW_IMPORT_INVALID', { detail });

/**
 * The YAML parser nests a call per level: at ~100 000 levels of `[` it does not fail cleanly but
 * runs out of memory compiling a pattern, which no thread limit catches. Real files nest a few
 * dozen levels, so nesting is bounded before the parser sees the text. Brackets inside strings
 * count too; a real file never leaves hundreds of them unclosed.
 */
const MAX_NESTING = 500;
const LINE_NESTING = /^[ \t]*(?:[-?:][ \t]+)*/;

function nestsTooDeeply(content: string): boolean {
  let depth = 0;
  for (let index = 0; index < content.length; index++) {
    const char = content.charCodeAt(index);
    if (char === 0x5b || char === 0x7b) {
      if (++depth > MAX_NESTING) return true;
    } else if ((char === 0x5d || char === 0x7d) && depth > 0) depth--;
  }
  // Block nesting: indentation and `- - -` on one line each open a level.
  for (const line of content.split('\n')) if ((LINE_NESTING.exec(line)?.[0].length ?? 0) > MAX_NESTING * 2) return true;
  return false;
}

/**
 * The YAML of a Dify DSL file as plain data. Runs in a file-reader thread, never on the server's
 * own: refuses a file over the size cap, malformed YAML (with its line), duplicate keys and alias
 * bombs, each with a catalogue error.
 */
export function readDifyDsl(content: string): unknown {
  if (content.length > DIFY_FILE_MAX_BYTES || Buffer.byteLength(content) > DIFY_FILE_MAX_BYTES)
    throw new AppError('WORKFLOW_TOO_LARGE');
  if (nestsTooDeeply(content)) throw invalid(`the YAML is nested more than ${MAX_NESTING} levels deep.`);
  const doc = parseDocument(content, { uniqueKeys: true, prettyErrors: true, schema: 'core', merge: false });
  const error = doc.errors[0];
  if (error) throw invalid(`the YAML is malformed: ${firstLine(error.message)}`);
  try {
    return doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (thrown) {
    if (thrown instanceof ReferenceError) throw invalid('the YAML expands its aliases too many times.');
    throw thrown;
  }
}

const firstLine = (message: string) => (message.split('\n')[0] ?? '').replace(/:$/, '').slice(0, 200);
