import { describe, expect, it } from 'vitest';
import {
  EMPTY_FILE,
  makeCsvQa,
  makeDocxWithHeadingsAndTable,
  makeEnglishPdf,
  makeGbkText,
  makeStoredZip,
  makeXlsxQa,
  RENAMED_PNG,
} from './fixtures/make-fixtures.ts';
import { sniffFileKind } from './index.ts';

const utf8 = (text: string) => new TextEncoder().encode(text);

describe('sniffFileKind', () => {
  it('recognises PDF, DOCX and XLSX by content, whatever the name', async () => {
    expect(sniffFileKind(await makeEnglishPdf(1, 5), 'report.txt')).toBe('pdf');
    expect(sniffFileKind(await makeDocxWithHeadingsAndTable(), 'notes.pdf')).toBe('docx');
    expect(sniffFileKind(await makeXlsxQa([['问', '答']]), 'qa.docx')).toBe('xlsx');
  });

  it('uses the name only to choose between csv and txt', () => {
    const csv = makeCsvQa([['如何请假？', '在系统中提交申请。']]);
    expect(sniffFileKind(csv, 'qa.csv')).toBe('csv');
    expect(sniffFileKind(csv, 'QA.CSV')).toBe('csv');
    expect(sniffFileKind(csv, 'qa.txt')).toBe('txt');
    expect(sniffFileKind(utf8('name\tcity\nAlice\tParis\n'), 'people.tsv')).toBe('csv');
  });

  it('treats a .csv that is not delimited rows as txt', () => {
    expect(sniffFileKind(utf8('just one column\nof plain lines\n'), 'list.csv')).toBe('txt');
  });

  it('accepts UTF-8 and GBK text', () => {
    expect(sniffFileKind(utf8('知识库检索系统。\nPlain text.'), 'a.txt')).toBe('txt');
    expect(sniffFileKind(makeGbkText('第一章 总则\n本手册适用于公司全体员工。'), 'a.txt')).toBe('txt');
  });

  it('sniffs an empty file as txt so that parsing reports FILE_EMPTY', () => {
    expect(sniffFileKind(EMPTY_FILE.bytes, EMPTY_FILE.fileName)).toBe('txt');
  });

  it('rejects binaries, whatever they are named', () => {
    expect(sniffFileKind(RENAMED_PNG.bytes, RENAMED_PNG.fileName)).toBeNull();
    const exe = new Uint8Array([0x4d, 0x5a, 0x90, 0x00, 0x03, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00, 0xff, 0xff]);
    expect(sniffFileKind(exe, 'setup.txt')).toBeNull();
    // Old binary Word/Excel (OLE compound file).
    const ole = new Uint8Array(512);
    ole.set([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
    expect(sniffFileKind(ole, 'old.doc')).toBeNull();
    expect(sniffFileKind(ole, 'old.xls')).toBeNull();
  });

  it('rejects zips that are not Word or Excel documents', () => {
    expect(sniffFileKind(makeStoredZip({ 'readme.txt': 'hello' }), 'archive.docx')).toBeNull();
    expect(sniffFileKind(makeStoredZip({ 'word/document.xml': '<w:document/>' }), 'a.docx')).toBe('docx');
  });

  it('does not mistake text that mentions %PDF- for a PDF', () => {
    expect(sniffFileKind(utf8('A file that starts with %PDF- is a PDF.'), 'notes.pdf')).toBe('txt');
  });
});
