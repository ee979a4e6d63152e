/**
 * The public shapes of the knowledge engine. Framework-free: no database, no HTTP. The server's
 * knowledge module stores what these functions return.
 */

/** Decided from the bytes (magic numbers, zip entries, decodability), never from the file name alone. */
export type FileKind = 'pdf' | 'txt' | 'docx' | 'xlsx' | 'csv';

/** A piece of a parsed document, in reading order. */
export type Block =
  | { type: 'heading'; level: number; text: string }
  | { type: 'paragraph'; text: string }
  /** One table row as text ("cell | cell | cell"); chunking never splits inside one. */
  | { type: 'table_row'; text: string }
  | { type: 'page_break'; page: number };

export interface ParsedTable {
  /** The header row if one was detected, else generated names ("Column 1", …). */
  columns: string[];
  hasHeader: boolean;
  /** Data rows (without the header), cells as trimmed strings. */
  rows: string[][];
}

export interface ParsedDocument {
  kind: FileKind;
  blocks: Block[];
  /** Spreadsheets and CSV: the first sheet with data. */
  table: ParsedTable | null;
  /** PDF page count; null for other kinds. */
  pages: number | null;
  /** TXT/CSV: the encoding the bytes were decoded from (utf-8, utf-16le, gb18030, big5). */
  encoding: string | null;
}

/** Same shape as the contract's chunkingSchema (kept structural so this package needs no zod). */
export type ChunkingOptions =
  | { mode: 'auto' }
  | { mode: 'custom'; size: number; overlap: number; separators: string[] };

/** Same shape as the contract's tableModeSchema. */
export type TableModeOptions = { mode: 'row' } | { mode: 'qa'; question_column: number; answer_column: number };

export interface Chunk {
  /** Q&A segments only. */
  question: string;
  answer: string;
  /** The text of non-Q&A segments; empty for Q&A segments. */
  content: string;
  /** Approximate model tokens (CJK character ≈ 1, English word ≈ 1.3). */
  tokens: number;
}

/** Why a file cannot be used; `code` is a key of the contract's error catalogue. */
export class KnowledgeFileError extends Error {
  constructor(
    readonly code:
      | 'UNSUPPORTED_FILE_FORMAT'
      | 'FILE_TOO_COMPLEX'
      | 'FILE_EMPTY'
      | 'UPLOAD_FAILED'
      | 'TABLE_COLUMNS_INVALID',
    readonly detail: string,
  ) {
    super(`${code}: ${detail}`);
    this.name = 'KnowledgeFileError';
  }
}
