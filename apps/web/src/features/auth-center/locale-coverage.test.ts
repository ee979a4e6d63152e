import { MODEL_PURPOSES, TEST_FAILURE_KINDS } from '@athena/contract';
import { describe, expect, it } from 'vitest';
import en from '../../locales/en.features.json';
import zhCN from '../../locales/zh-CN.features.json';
import zhTW from '../../locales/zh-TW.features.json';
import { PROVIDER_PRESETS } from './presets.ts';

// The page builds these keys from contract values (t(`authCenter.failure.${kind}.title`)), which
// scripts/check-locales.mjs cannot follow; a new failure kind or purpose must come with its words.
describe.each([
  ['zh-CN', zhCN.authCenter],
  ['zh-TW', zhTW.authCenter],
  ['en', en.authCenter],
] as const)('%s authCenter texts', (locale, texts) => {
  it('explain every failure kind the server can report', () => {
    for (const kind of TEST_FAILURE_KINDS) {
      expect(texts.failure[kind].title.length).toBeGreaterThan(0);
      expect(texts.failure[kind].text.length).toBeGreaterThan(20);
    }
  });

  it('name every purpose and provider', () => {
    for (const purpose of MODEL_PURPOSES) {
      expect(texts.purpose[purpose]).toBeTruthy();
      expect(texts.purposeHelp[purpose]).toBeTruthy();
      expect(texts.test.okText[purpose]).toBeTruthy();
    }
    for (const preset of PROVIDER_PRESETS) expect(texts.presets[preset.id]).toBeTruthy();
  });

  it('use the required “Test failed” wording for a failed test', () => {
    const failed = { 'zh-CN': '测试失败', 'zh-TW': '測試失敗', en: 'Test failed' }[locale];
    expect(texts.test.failedTitle.startsWith(failed)).toBe(true);
  });
});
