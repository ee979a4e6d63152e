import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { makeChinesePdf, makeEnglishPdf, makeLargeText } from './fixtures/make-fixtures.ts';
import { sniffFileKind } from './index.ts';

describe('fixtures', () => {
  it('makeLargeText gives exactly the requested number of bytes of valid UTF-8 text', () => {
    for (const size of [1, 1000, 4097]) {
      const bytes = makeLargeText(size);
      expect(bytes.length).toBe(size);
      expect(() => new TextDecoder('utf-8', { fatal: true }).decode(bytes)).not.toThrow();
    }
    expect(sniffFileKind(makeLargeText(64 * 1024), 'big.txt')).toBe('txt');
  });

  it('makes PDFs with the requested number of pages', async () => {
    const count = async (bytes: Uint8Array) => (await PDFDocument.load(bytes)).getPageCount();
    expect(await count(await makeChinesePdf(7))).toBe(7);
    expect(await count(await makeEnglishPdf(3))).toBe(3);
  });
});
