import type ExcelJS from 'exceljs';
import { KnowledgeFileError, type ParsedDocument } from '../types.ts';
import type { ZipLimits } from './bounded-zip.ts';
import { cellText } from './cell-text.ts';
import { openOfficeZip } from './office-zip.ts';
import { tableDocument } from './table-document.ts';

async function loadWorkbook(bytes: Uint8Array, limits?: ZipLimits): Promise<ExcelJS.Workbook> {
  // Checked and unpacked within limits first: exceljs's own unzip would inflate anything.
  const buffer = openOfficeZip(bytes, limits);
  // Loaded on first use: exceljs is ~30 MB of a server's memory that may never read a spreadsheet.
  const { default: Excel } = await import('exceljs');
  const workbook = new Excel.Workbook();
  try {
    // exceljs accepts a Node Buffer but types it as its own `Buffer extends ArrayBuffer`
    // interface, hence the cast.
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
export async function parseXlsx(bytes: Uint8Array, limits?: ZipLimits): Promise<ParsedDocument> {
  const workbook = await loadWorkbook(bytes, limits);
  for (const sheet of workbook.worksheets) {
    const rows = sheetRows(sheet);
    if (rows.some((row) => row.some((cell) => cell.trim() !== ''))) return tableDocument('xlsx', rows, null);
  }
  return tableDocument('xlsx', [], null);
}
