import { describe, expect, it } from 'vitest';
import { cleanFileName, contentDisposition, sniffAttachment, zipEntryNames } from './file-check.ts';
import { makeDocx, makeJpeg, makePdf, makePng, makeXlsx, makeZip } from './test-files.ts';

describe('sniffAttachment', () => {
  it('recognises each accepted type by its bytes', () => {
    expect(sniffAttachment(makePdf())).toBe('application/pdf');
    expect(sniffAttachment(makePng())).toBe('image/png');
    expect(sniffAttachment(makeJpeg())).toBe('image/jpeg');
    expect(sniffAttachment(makeDocx())).toBe('application/vnd.openxmlformats-officedocument.wordprocessingml.document');
    expect(sniffAttachment(makeXlsx())).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
  });

  it('refuses everything else, whatever it is called', () => {
    expect(sniffAttachment(Buffer.from('just some text pretending to be a PDF'))).toBeNull();
    expect(sniffAttachment(Buffer.from('GIF89a........'))).toBeNull();
    // A ZIP that is not an Office document, and a legacy (OLE) .doc.
    expect(sniffAttachment(makeZip({ 'readme.txt': 'hi' }))).toBeNull();
    expect(sniffAttachment(Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0]))).toBeNull();
    expect(sniffAttachment(Buffer.alloc(0))).toBeNull();
    expect(sniffAttachment(Buffer.from('%PDF-'))).toBeNull();
  });

  it('reads entry names from the central directory and rejects truncated archives', () => {
    const zip = makeDocx();
    expect(zipEntryNames(zip)).toEqual(['[Content_Types].xml', '_rels/.rels', 'word/document.xml']);
    expect(zipEntryNames(zip.subarray(0, zip.length - 30))).toBeNull();
    expect(sniffAttachment(zip.subarray(0, 200))).toBeNull();
  });
});

describe('cleanFileName', () => {
  it('decodes the percent-encoded header', () => {
    expect(cleanFileName(encodeURIComponent('需求说明 v2.pdf'))).toBe('需求说明 v2.pdf');
  });

  it('drops directories, control and direction-override characters', () => {
    expect(cleanFileName(encodeURIComponent('../../etc/passwd'))).toBe('passwd');
    expect(cleanFileName(encodeURIComponent('C:\\Users\\me\\plan.xlsx'))).toBe('plan.xlsx');
    expect(cleanFileName(encodeURIComponent('inv\u202Efdp.exe\r\n.pdf'))).toBe('invfdp.exe.pdf');
  });

  it('refuses missing, empty or malformed names', () => {
    expect(cleanFileName(undefined)).toBeNull();
    expect(cleanFileName('')).toBeNull();
    expect(cleanFileName('%E4%BD')).toBeNull();
    expect(cleanFileName(encodeURIComponent('   '))).toBeNull();
    expect(cleanFileName(encodeURIComponent('a/..'))).toBeNull();
  });

  it('shortens long names but keeps the extension', () => {
    const name = cleanFileName(encodeURIComponent(`${'长'.repeat(300)}.docx`));
    expect(name).toMatch(/^长+\.docx$/);
    expect([...(name ?? '')].length).toBe(200);
  });
});

describe('contentDisposition', () => {
  it('keeps quotes and line breaks out of the header and carries the exact name in UTF-8', () => {
    const header = contentDisposition('报价"; filename=evil.html\r\n.pdf');
    expect(header).not.toMatch(/[\r\n]/);
    expect(header.startsWith('attachment; filename="')).toBe(true);
    const [, fallback] = /filename="([^"]*)"/.exec(header) ?? [];
    expect(fallback).not.toContain('"');
    const [, encoded] = /filename\*=UTF-8''(.+)$/.exec(header) ?? [];
    expect(decodeURIComponent(encoded)).toBe('报价"; filename=evil.html\r\n.pdf');
  });
});
