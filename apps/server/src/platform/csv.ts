/**
 * CSV as spreadsheet programs read it safely, for every export (fee records, reports): UTF-8 with
 * a BOM so Excel reads Chinese, CRLF line ends, a cell quoted when it must be, and text that starts
 * like a formula (= + - @, tab, CR) prefixed with ' so it is never evaluated (CSV injection).
 */
export function csvCell(value: string | number) {
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** Rows of cells as one CSV document (see csvCell). */
export function csvDocument(rows: (string | number)[][]) {
  return `\uFEFF${rows.map((row) => row.map(csvCell).join(',')).join('\r\n')}\r\n`;
}
