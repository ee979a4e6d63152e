import { type Block, type FileKind, KnowledgeFileError, type ParsedDocument, type ParsedTable } from '../types.ts';
import { hasHeaderRow } from './table-header.ts';

/**
 * Excel's own limit. A CSV line of a million columns is no table anyone reads: each row would
 * become a segment of a million "Column n: value" pairs, and the header a million column names.
 */
const MAX_TABLE_COLUMNS = 16_384;

/** Rows of cells (spreadsheet or CSV) → a table document; rows are trimmed and padded to one width. */
export function tableDocument(kind: FileKind, rawRows: string[][], encoding: string | null): ParsedDocument {
  const trimmed = rawRows.map((row) => row.map((cell) => cell.trim()));
  const rows = trimmed.filter((row) => row.some((cell) => cell !== ''));
  const width = rows.reduce((max, row) => Math.max(max, lastFilledIndex(row) + 1), 0);
  if (width > MAX_TABLE_COLUMNS) {
    throw new KnowledgeFileError(
      'FILE_TOO_COMPLEX',
      `The table has ${width} columns; at most ${MAX_TABLE_COLUMNS} are read.`,
    );
  }
  const padded = rows.map((row) => Array.from({ length: width }, (_, index) => row[index] ?? ''));
  const hasHeader = hasHeaderRow(padded);
  const columns = hasHeader ? padded[0] : Array.from({ length: width }, (_, index) => `Column ${index + 1}`);
  const table: ParsedTable = { columns, hasHeader, rows: hasHeader ? padded.slice(1) : padded };
  return { kind, blocks: table.rows.map((row) => rowBlock(columns, row)), table, pages: null, encoding };
}

function lastFilledIndex(row: string[]): number {
  for (let index = row.length - 1; index >= 0; index--) if (row[index] !== '') return index;
  return -1;
}

// "header: value; header: value" so a row read alone (as a search hit) still says what each value is.
function rowBlock(columns: string[], row: string[]): Block {
  const text = row
    .map((cell, index) => (cell === '' ? null : `${columns[index]}: ${cell}`))
    .filter((part) => part !== null)
    .join('; ');
  return { type: 'table_row', text };
}
