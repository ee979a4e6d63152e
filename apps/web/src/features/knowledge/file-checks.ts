import {
  ERRORS,
  formatMessage,
  KNOWLEDGE_FILE_KINDS,
  KNOWLEDGE_MAX_FILE_BYTES,
  type KnowledgeFileKind,
  type Language,
} from '@athena/contract';
import { formatBytes } from '../../lib/format.ts';

/** The file picker's filter; dropped files are checked by `checkFile` instead (it can say why). */
export const KNOWLEDGE_ACCEPT = KNOWLEDGE_FILE_KINDS.map((kind) => `.${kind}`).join(',');

/** The contract's messages a file can be refused with before it leaves the browser. */
export type FileProblem = 'UNSUPPORTED_FILE_FORMAT' | 'FILE_SIZE_EXCEEDED' | 'FILE_EMPTY';

/** The kind a file name claims (the server decides by content; this only filters obvious mistakes). */
export function kindOfName(name: string): KnowledgeFileKind | null {
  const dot = name.lastIndexOf('.');
  if (dot <= 0 && !name.startsWith('.')) return null;
  const extension = name.slice(dot + 1).toLowerCase();
  return (KNOWLEDGE_FILE_KINDS as readonly string[]).includes(extension) ? (extension as KnowledgeFileKind) : null;
}

/**
 * The checks before an upload starts: a supported extension and at most 20 MB. An empty
 * file has nothing to index. The server checks the bytes again and has the last word.
 */
export function checkFile(file: { name: string; size: number }): FileProblem | null {
  if (!kindOfName(file.name)) return 'UNSUPPORTED_FILE_FORMAT';
  if (file.size > KNOWLEDGE_MAX_FILE_BYTES) return 'FILE_SIZE_EXCEEDED';
  if (file.size === 0) return 'FILE_EMPTY';
  return null;
}

/** The contract's words for a problem, in the UI language (the same text the server would send). */
export const problemText = (problem: FileProblem | 'TOO_MANY_FILES', language: Language) =>
  ERRORS[problem].msg[language];

/** "Upload failed: <why>" in the contract's words, for failures the server could not word itself. */
export const uploadFailedText = (language: Language, detail: string) =>
  formatMessage('UPLOAD_FAILED', language, { detail });

export const isSpreadsheet = (kind: KnowledgeFileKind) => kind === 'xlsx' || kind === 'csv';

// One formatter for every file size the app shows (lib/format.ts); re-exported for this feature's callers.
export { formatBytes };
