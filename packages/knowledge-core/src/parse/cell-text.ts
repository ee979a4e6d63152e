import type { CellValue } from 'exceljs';

/** An exceljs cell value as the text a reader sees in the cell. */

type FormulaResult = number | string | boolean | Date | { error: string } | undefined;

function dateText(date: Date): string {
  const iso = date.toISOString();
  // Excel dates are stored as UTC midnight when they carry no time of day.
  return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso.slice(0, 19);
}

function scalarText(value: FormulaResult | null): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? '' : dateText(value);
  if (typeof value === 'object') return value.error;
  return String(value);
}

export function cellText(value: CellValue): string {
  if (value === null || value === undefined || typeof value !== 'object' || value instanceof Date) {
    return scalarText(value);
  }
  if ('richText' in value) return value.richText.map((run) => run.text).join('');
  if ('hyperlink' in value) {
    // The link's text may itself be rich text.
    const text: unknown = value.text;
    return typeof text === 'string' ? text : cellText(text as CellValue);
  }
  if ('formula' in value || 'sharedFormula' in value) return scalarText(value.result);
  if ('error' in value) return value.error;
  return '';
}
