import { KNOWLEDGE_MAX_FILE_BYTES } from '@athena/contract';
import { describe, expect, it } from 'vitest';
import { checkFile, formatBytes, KNOWLEDGE_ACCEPT, kindOfName, problemText, uploadFailedText } from './file-checks.ts';

describe('client-side file checks', () => {
  it.each([
    ['report.pdf', 'pdf'],
    ['NOTES.TXT', 'txt'],
    ['手册 v2.docx', 'docx'],
    ['qa.sheet.xlsx', 'xlsx'],
    ['faq.csv', 'csv'],
    ['old.xls', null],
    ['image.png', null],
    ['pdf', null],
    ['archive.pdf.zip', null],
    ['.csv', 'csv'],
  ])('%s claims %s', (name, kind) => {
    expect(kindOfName(name)).toBe(kind);
  });

  it('refuses by extension, then size, then emptiness', () => {
    expect(checkFile({ name: 'a.exe', size: KNOWLEDGE_MAX_FILE_BYTES + 1 })).toBe('UNSUPPORTED_FILE_FORMAT');
    expect(checkFile({ name: 'a.pdf', size: KNOWLEDGE_MAX_FILE_BYTES + 1 })).toBe('FILE_SIZE_EXCEEDED');
    expect(checkFile({ name: 'a.pdf', size: KNOWLEDGE_MAX_FILE_BYTES })).toBeNull();
    expect(checkFile({ name: 'a.txt', size: 0 })).toBe('FILE_EMPTY');
  });

  it('words problems as the server does, in each language', () => {
    expect(problemText('FILE_SIZE_EXCEEDED', 'en')).toBe('File size exceeded: each file must be 20 MB or smaller.');
    expect(problemText('UNSUPPORTED_FILE_FORMAT', 'zh-CN')).toContain('不支持的文件格式');
    expect(uploadFailedText('zh-TW', '連線中斷')).toBe('上傳失敗：連線中斷');
  });

  it('lists the five kinds for the file picker and formats sizes', () => {
    expect(KNOWLEDGE_ACCEPT).toBe('.pdf,.txt,.docx,.xlsx,.csv');
    expect(formatBytes(20 * 1024 * 1024)).toBe('20.0 MB');
    expect(formatBytes(2048)).toBe('2 KB');
    expect(formatBytes(12)).toBe('12 B');
  });
});
