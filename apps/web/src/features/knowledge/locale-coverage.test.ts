import { KNOWLEDGE_TYPES, RETRIEVAL_MODES, RETRIEVERS, SCORE_KINDS, UNIT_STATUSES } from '@athena/contract';
import { describe, expect, it } from 'vitest';
import en from '../../locales/en.features.json';
import zhCN from '../../locales/zh-CN.features.json';
import zhTW from '../../locales/zh-TW.features.json';

// The pages build these keys from contract values (t(`knowledge.status.${status}`)), which
// scripts/check-locales.mjs cannot follow; a new status, mode or retriever must come with its words.
describe.each([
  ['zh-CN', zhCN.knowledge],
  ['zh-TW', zhTW.knowledge],
  ['en', en.knowledge],
] as const)('%s knowledge texts', (locale, texts) => {
  it('name every unit status, in the table and in summaries', () => {
    for (const status of UNIT_STATUSES) {
      expect(texts.status[status]).toBeTruthy();
      expect(texts.summary[status]).toContain('{{count}}');
    }
  });

  it('name every type, retrieval mode and retriever', () => {
    for (const type of KNOWLEDGE_TYPES) expect(texts.type[type]).toBeTruthy();
    for (const mode of RETRIEVAL_MODES) expect(texts.retrieval.modes[mode]).toBeTruthy();
    for (const retriever of RETRIEVERS) expect(texts.hitTest.retrievers[retriever]).toBeTruthy();
  });

  it('name the hit test’s score after what it is, with an explanation', () => {
    for (const kind of SCORE_KINDS) {
      expect(texts.hitTest.scoreLabel[kind]).toContain('{{score}}');
      expect(texts.hitTest.scoreHelp[kind]).toBeTruthy();
    }
  });

  it('use the required words for the six states', () => {
    const words = {
      'zh-CN': ['未索引', '等待索引', '索引中', '已索引', '索引失败', '已取消索引'],
      'zh-TW': ['未索引', '等待索引', '索引中', '已索引', '索引失敗', '已取消索引'],
      en: ['Not indexed', 'Waiting for indexing', 'Indexing', 'Indexed', 'Indexing failed', 'Indexing canceled'],
    }[locale];
    expect(UNIT_STATUSES.map((status) => texts.status[status])).toEqual(words);
  });
});
