import { describe, expect, it } from 'vitest';
import { dispositionOf, parseRange } from './delivery.ts';
import { cleanFileName, describeType } from './media-files.ts';

describe('media delivery and names', () => {
  it('parses one byte range like RFC 9110', () => {
    expect(parseRange(undefined, 10)).toBeNull();
    expect(parseRange('bytes=0-0', 10)).toEqual({ start: 0, end: 0 });
    expect(parseRange('bytes=5-', 10)).toEqual({ start: 5, end: 9 });
    expect(parseRange('bytes=-20', 10)).toEqual({ start: 0, end: 9 });
    expect(parseRange('bytes=3-100', 10)).toEqual({ start: 3, end: 9 });
    // Several ranges: the whole file.
    expect(parseRange('bytes=0-1,4-5', 10)).toBeNull();
    expect(parseRange('bytes=-0', 10)).toBe('unsatisfiable');
    expect(parseRange('bytes=10-', 10)).toBe('unsatisfiable');
    expect(parseRange('bytes=4-3', 10)).toBe('unsatisfiable');
    expect(parseRange('items=0-1', 10)).toBe('unsatisfiable');
  });

  it('writes a Content-Disposition no name can break', () => {
    expect(dispositionOf('attachment', 'a"b;c\r\n.pdf')).toBe(
      `attachment; filename="a_b_c__.pdf"; filename*=UTF-8''a%22b%3Bc%0D%0A.pdf`,
    );
    expect(dispositionOf('inline', '视频 (1).mp4')).toBe(
      `inline; filename="__ (1).mp4"; filename*=UTF-8''%E8%A7%86%E9%A2%91%20%281%29.mp4`,
    );
  });

  it('keeps only a harmless last segment of a file name', () => {
    expect(cleanFileName('../../etc/passwd')).toBe('passwd');
    expect(cleanFileName('C:\\Users\\x\\clip.mp4')).toBe('clip.mp4');
    expect(cleanFileName('..')).toBe('file');
    expect(cleanFileName('a\u0000b\u202e.exe')).toBe('ab.exe');
    expect(cleanFileName('x'.repeat(300))).toHaveLength(255);
  });

  it('names the kind from the sniffed type', () => {
    expect(describeType(undefined)).toEqual({ mime: 'application/octet-stream', kind: 'other' });
    expect(describeType({ mime: 'video/mp4' })).toEqual({ mime: 'video/mp4', kind: 'video' });
    expect(describeType({ mime: 'application/pdf' }).kind).toBe('document');
    expect(describeType({ mime: 'application/zip' }).kind).toBe('other');
  });

  it('takes text without magic bytes for a document: UTF-8, GBK, UTF-16; binaries not', () => {
    const text = (head: Buffer) => describeType(undefined, head);
    expect(text(Buffer.from('退货政策：七天无理由\n'))).toEqual({ mime: 'text/plain', kind: 'document' });
    // "退货政策" in GBK: high bytes, no NUL.
    expect(text(Buffer.from([0xcd, 0xcb, 0xbb, 0xf5, 0xd5, 0xfe, 0xb2, 0xdf, 0x0a])).kind).toBe('document');
    // UTF-16 without a byte order mark has NUL bytes in every ASCII character: not recognised.
    expect(text(Buffer.from('name,city\n', 'utf16le')).kind).toBe('other');
    expect(text(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('a,b', 'utf16le')])).kind).toBe('document');
    expect(text(Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x01, 0x00]))).toEqual({
      mime: 'application/octet-stream',
      kind: 'other',
    });
    expect(text(Buffer.alloc(0)).kind).toBe('other');
  });
});
