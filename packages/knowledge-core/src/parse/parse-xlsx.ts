import type ExcelJS from 'exceljs';
import { KnowledgeFileError, type ParsedDocument } from '../types.ts';
import { cellText } from './cell-text.ts';
import { tableDocument } from './table-document.ts';

async function loadWorkbook(bytes: Uint8Array): Promise<ExcelJS.Workbook> {
  // Loaded on first use: exceljs is ~30 MB of a server's memory that may never read a spreadsheet.
  const { default: Excel } = await import('exceljs');
  const workbook = new Excel.Workbook();
  try {
    // exceljs accepts a Node Buffer (a view over the same memory, no copy) but types it as its own
    // `Buffer extends ArrayBuffer` interface, hence the cast.
    const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    await workbook.xlsx.load(buffer as unknown as Parameters<typeof workbook.xlsx.load>[0]);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new KnowledgeFileError('UNSUPPORTED_FILE_FORMAT', `The spreadsheet cannot be read: ${reason}`);
  }
  return workbook;
}

function sheetRows(sheet: ExcelJS.Worksheet): string[][] {
  const rows: string[][] = [];
  sheet.eachRow({ includeEmpty: false }, (row) => {
    const cells: string[] = [];
    // eachCell skips empty cells, so place each by its column number (1-based).
    row.eachCell({ includeEmpty: false }, (cell, column) => {
      cells[column - 1] = cellText(cell.value);
    });
    rows.push(Array.from(cells, (cell) => cell ?? ''));
  });
  return rows;
}

/** The first worksheet that has any text, as a table. */
export async function parseXlsx(bytes: Uint8Array): Promise<ParsedDocument> {
  const workbook = await loadWorkbook(bytes);
  for (const sheet of workbook.worksheets) {
    const rows = sheetRows(sheet);
    if (rows.some((row) => row.some((cell) => cell.trim() !== ''))) return tableDocument('xlsx', rows, null);
  }
  return tableDocument('xlsx', [], null);
}
