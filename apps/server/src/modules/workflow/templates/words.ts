import type { Localized } from './template-types.ts';

// Titles that most templates share, so they read the same on every canvas.
export const START: Localized = { 'zh-CN': '开始', 'zh-TW': '開始', en: 'Start' };
export const END: Localized = { 'zh-CN': '结束', 'zh-TW': '結束', en: 'End' };
