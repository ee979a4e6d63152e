import { describe, expect, it } from 'vitest';
import { csvCell, csvDocument } from './csv.ts';

describe('csv', () => {
  it('quotes what must be quoted and defuses text that starts like a formula', () => {
    expect(csvCell('plain 中文')).toBe('plain 中文');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"\r\nbye')).toBe('"say ""hi""\r\nbye"');
    expect(csvCell('=HYPERLINK("http://x")')).toBe('"\'=HYPERLINK(""http://x"")"');
    for (const lead of ['+1', '-1', '@SUM(A1)', '\tx']) expect(csvCell(lead)).toBe(`'${lead}`);
    // Numbers are figures, never text a spreadsheet could evaluate: -3 stays a number.
    expect(csvCell(-3)).toBe('-3');
  });

  it('makes one document: BOM, CRLF, a line ending the last row', () => {
    expect(
      csvDocument([
        ['day', 'n'],
        ['2026-11-27', 3],
      ]),
    ).toBe('\uFEFFday,n\r\n2026-11-27,3\r\n');
  });
});
