import { describe, expect, it } from 'vitest';
import { detectLocale } from './locale.ts';

describe('detectLocale (stored choice, then the browser language, then zh-CN)', () => {
  it.each([
    [['zh-CN'], 'zh-CN'],
    [['zh-TW'], 'zh-TW'],
    [['zh-HK'], 'zh-TW'],
    [['zh-SG'], 'zh-TW'],
    [['zh'], 'zh-TW'],
    [['en-US'], 'en'],
    [['en'], 'en'],
    [['fr-FR'], 'zh-CN'],
    [[], 'zh-CN'],
  ])('browser %j → %s', (languages, expected) => {
    expect(detectLocale(null, languages)).toBe(expected);
  });

  it('falls back to zh-CN with no browser languages at all', () => {
    expect(detectLocale(undefined)).toBe('zh-CN');
  });

  it('a stored choice wins over the browser', () => {
    expect(detectLocale('en', ['zh-CN'])).toBe('en');
    expect(detectLocale('zh-TW', ['en-US'])).toBe('zh-TW');
  });

  it('ignores a stored value that is not a supported locale', () => {
    expect(detectLocale('de', ['en-US'])).toBe('en');
  });
});
