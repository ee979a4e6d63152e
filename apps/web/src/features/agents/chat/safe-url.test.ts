import { describe, expect, it } from 'vitest';
import { safeUrl } from './safe-url.ts';

describe('safeUrl (markdown link and image URLs)', () => {
  it.each([
    'javascript:alert(1)',
    'JavaScript:alert(document.cookie)',
    '  javascript:alert(1)',
    'java\tscript:alert(1)',
    'java\nscript:alert(1)',
    'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
    'DATA:image/svg+xml,<svg onload=alert(1)>',
    'vbscript:msgbox(1)',
    'VBScript:msgbox(1)',
    'file:///etc/passwd',
    'ftp://example.com/file',
    '/dashboard',
    '//evil.example.com/x',
    '#top',
    '',
    'not a url',
  ])('drops %j', (url) => {
    expect(safeUrl(url)).toBeUndefined();
  });

  it.each([
    ['http://example.com', 'http://example.com/'],
    ['https://example.com/a?b=1#c', 'https://example.com/a?b=1#c'],
    ['HTTPS://Example.com/path', 'https://example.com/path'],
    [' https://example.com/x ', 'https://example.com/x'],
    ['mailto:someone@example.com', 'mailto:someone@example.com'],
    ['https://例子.测试/路径', 'https://xn--fsqu00a.xn--0zwm56d/%E8%B7%AF%E5%BE%84'],
  ])('keeps %j', (url, expected) => {
    expect(safeUrl(url)).toBe(expected);
  });
});
