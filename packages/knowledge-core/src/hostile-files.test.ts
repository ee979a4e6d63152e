import { describe, expect, it } from 'vitest';
import {
  makeBillionLaughsDocx,
  makeDocx,
  makeDocxBomb,
  makeLyingDocx,
  makeManyEntryDocx,
  makePdfFlateBomb,
  makeSmallDocx,
  makeWideCsv,
  makeXlsxBomb,
  makeXxeDocx,
  makeZip,
} from './fixtures/hostile-files.ts';
import { type FileKind, KnowledgeFileError, parseDocument, sniffFileKind, ZIP_LIMITS } from './index.ts';
import { checkPdfStreams } from './parse/pdf-streams.ts';

const MB = 1024 * 1024;
let bomb: Uint8Array | null = null;
/** 342 KB inflating to 120 MB, like the probe's: made once (it takes ~0.4 s). */
const bigBomb = () => {
  bomb ??= makeDocxBomb(120 * MB);
  return bomb;
};

async function refusal(bytes: Uint8Array, kind: FileKind, options?: Parameters<typeof parseDocument>[2]) {
  const error = await parseDocument(bytes, kind, options).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(KnowledgeFileError);
  return error as KnowledgeFileError;
}

describe('hostile files', () => {
  it('the upload check names a zip’s kind from its central directory alone, never inflating it', async () => {
    // Not deflate data at all: any reader that inflated it would fail.
    const garbage = makeDocx('<w:document/>', {
      extra: [
        { name: 'word/styles.xml', data: new Uint8Array(64).fill(0xff), preDeflated: true, claimedSize: 99 * MB },
      ],
    });
    expect(sniffFileKind(garbage, 'x.docx')).toBe('docx');
    expect(sniffFileKind(bigBomb(), 'bomb.docx')).toBe('docx');
    expect(sniffFileKind(makeManyEntryDocx(60_000), 'many.docx')).toBe('docx');
    // It claims 99 MB for a part 64 bytes long: past the ratio before anything is inflated.
    expect((await refusal(garbage, 'docx')).code).toBe('FILE_TOO_COMPLEX');
  });

  it('refuses zip bombs from their headers, before inflating anything', async () => {
    const big = await refusal(bigBomb(), 'docx');
    expect(big).toMatchObject({ code: 'FILE_TOO_COMPLEX', detail: expect.stringContaining('more than 100 MB') });
    const dense = await refusal(makeDocxBomb(30 * MB), 'docx');
    expect(dense).toMatchObject({
      code: 'FILE_TOO_COMPLEX',
      detail: expect.stringContaining('inflates more than 200 times'),
    });
    expect((await refusal(makeXlsxBomb(30 * MB), 'xlsx')).detail).toContain('xl/worksheets/sheet1.xml');
  });

  it('stops inflating an entry at the size its header declares, and within the whole budget', async () => {
    // The headers claim 2 KB; the entry holds 30 MB.
    const lying = await refusal(makeLyingDocx(30 * MB), 'docx');
    expect(lying.detail).toContain('more than the 2048 bytes its header declares');
    // Honest headers, but more than the budget allows: refused before inflating.
    const limits = { ...ZIP_LIMITS, maxInflatedBytes: MB, maxRatio: 10_000 };
    expect((await refusal(makeDocxBomb(2 * MB), 'docx', { zip: limits })).detail).toContain('more than 1 MB');
  });

  it('refuses an archive of 60 000 entries, and one that names an entry twice', async () => {
    expect(await refusal(makeManyEntryDocx(60_000), 'docx')).toMatchObject({
      code: 'FILE_TOO_COMPLEX',
      detail: expect.stringContaining('60003 entries'),
    });
    const twice = makeZip([
      { name: 'word/document.xml', data: new TextEncoder().encode('<a/>') },
      { name: 'word/document.xml', data: new TextEncoder().encode('<b/>') },
    ]);
    expect((await refusal(twice, 'docx')).detail).toContain('twice');
  });

  it('refuses XML parts that declare a DTD: XXE and billion laughs are never expanded', async () => {
    for (const bytes of [makeXxeDocx(), makeBillionLaughsDocx()]) {
      const error = await refusal(bytes, 'docx');
      expect(error.detail).toContain('declares a DTD');
      expect(error.detail).not.toContain('root:');
    }
    // Judged by content, not by name: here the package's relationships name word/doc.bin as the
    // main part, which the Word parser reads (below, without the DTD) as XML.
    const text = (value: string) => new TextEncoder().encode(value);
    const rels =
      '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
      '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/doc.bin"/></Relationships>';
    const renamed = (prolog: string) =>
      makeZip([
        { name: '_rels/.rels', data: text(rels) },
        {
          name: 'word/doc.bin',
          data: text(
            `\ufeff \n<?xml version="1.0"?>${prolog}<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">` +
              '<w:body><w:p><w:r><w:t>Main part by another name.</w:t></w:r></w:p></w:body></w:document>',
          ),
        },
      ]);
    const dtd = await refusal(renamed('<!DOCTYPE w:document [<!ENTITY lol "lol">]>'), 'docx');
    expect(dtd.detail).toBe('“word/doc.bin” declares a DTD or entities.');
    expect((await parseDocument(renamed(''), 'docx')).blocks).toEqual([
      { type: 'paragraph', text: 'Main part by another name.' },
    ]);
    // The same document without its DTD reads.
    expect((await parseDocument(makeSmallDocx(['secret: none']), 'docx')).blocks).toEqual([
      { type: 'paragraph', text: 'secret: none' },
    ]);
  });

  it('refuses a PDF whose stream inflates hundreds of times its size, before pdfjs reads it', async () => {
    const started = performance.now();
    const error = await refusal(makePdfFlateBomb(70 * MB), 'pdf');
    expect(error).toMatchObject({ code: 'FILE_TOO_COMPLEX', detail: expect.stringContaining('decompression bomb') });
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('finds a PDF bomb whose filter is a reference, or whose stream another stream’s /Length spans', () => {
    const latin1 = (bytes: Uint8Array) => Buffer.from(bytes).toString('latin1');
    const pdf = latin1(makePdfFlateBomb(30 * MB));
    // Padded to the same length: nothing after it moves.
    const indirect = pdf.replace('/Filter /FlateDecode', '/Filter 6 0 R'.padEnd(20));
    const bomb = pdf.indexOf('4 0 obj');
    const cover = `6 0 obj\n<< /Length ${pdf.length - bomb} >>\nstream\n`;
    const spanned = pdf.slice(0, bomb) + cover + pdf.slice(bomb);
    for (const text of [indirect, spanned]) {
      expect(() => checkPdfStreams(Buffer.from(text, 'latin1'))).toThrow(/decompression bomb/);
    }
  });

  it('refuses a table of a million columns', async () => {
    const error = await refusal(makeWideCsv(), 'csv');
    expect(error).toMatchObject({ code: 'FILE_TOO_COMPLEX', detail: expect.stringContaining('1000000 columns') });
  });
});
