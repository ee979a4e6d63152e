import { describe, expect, it } from 'vitest';
import { makeBig5Text, makeGbkText } from './fixtures/make-fixtures.ts';
import { decodeText } from './index.ts';

const SIMPLIFIED = '第一章 总则\n知识库检索系统支持全文检索和向量检索，员工应当遵守公司的规章制度。';
const TRADITIONAL = '第一章 總則\n知識庫檢索系統支持全文檢索和向量檢索，員工應當遵守公司的規章制度。';

describe('decodeText', () => {
  it('reads UTF-8 strictly', () => {
    expect(decodeText(new TextEncoder().encode(SIMPLIFIED))).toEqual({ text: SIMPLIFIED, encoding: 'utf-8' });
  });

  it('lets a BOM decide and strips it', () => {
    const utf8Bom = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode('abc 中文')]);
    expect(decodeText(utf8Bom)).toEqual({ text: 'abc 中文', encoding: 'utf-8' });
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('中文 text', 'utf16le')]);
    expect(decodeText(new Uint8Array(le))).toEqual({ text: '中文 text', encoding: 'utf-16le' });
    const be = Buffer.from('中文 text', 'utf16le').swap16();
    expect(decodeText(new Uint8Array(Buffer.concat([Buffer.from([0xfe, 0xff]), be])))).toEqual({
      text: '中文 text',
      encoding: 'utf-16be',
    });
  });

  it('decodes GBK as gb18030', () => {
    expect(decodeText(makeGbkText(SIMPLIFIED))).toEqual({ text: SIMPLIFIED, encoding: 'gb18030' });
  });

  it('decodes Big5 as big5', () => {
    expect(decodeText(makeBig5Text(TRADITIONAL))).toEqual({ text: TRADITIONAL, encoding: 'big5' });
  });

  it('prefers gb18030 for short ambiguous input', () => {
    expect(decodeText(makeGbkText('中文')).encoding).toBe('gb18030');
  });
});
