import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import en from '../locales/en.features.json';
import zhCN from '../locales/zh-CN.features.json';

// Counts are worded by the language's plural rules (i18next's `_one` / `_other` forms), never "(s)".
describe('plural forms', () => {
  it('says "1 result" and "5 results" in English, and the one Chinese form for both', async () => {
    const i18n = i18next.createInstance();
    await i18n.init({ lng: 'en', resources: { en: { translation: en }, 'zh-CN': { translation: zhCN } } });
    const summary = (count: number) => i18n.t('knowledge.hitTest.summary', { count, mode: 'hybrid', ms: 12 });
    expect(summary(1)).toBe('1 result · hybrid · 12 ms');
    expect(summary(5)).toBe('5 results · hybrid · 12 ms');
    expect(i18n.t('billing.usage.calls', { count: 1 })).toBe('1 call');
    expect(i18n.t('workflows.total', { count: 2 })).toBe('2 workflows');
    await i18n.changeLanguage('zh-CN');
    expect(i18n.t('workflows.total', { count: 1 })).toBe(i18n.t('workflows.total', { count: 2 }).replace('2', '1'));
    for (const text of Object.values(en).flatMap(function strings(value): string[] {
      return typeof value === 'string' ? [value] : Object.values(value as object).flatMap(strings);
    })) {
      expect(text.replaceAll('http(s)', 'https')).not.toMatch(/\w\(s\)/);
    }
  });
});
