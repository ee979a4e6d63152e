import { describe, expect, it } from 'vitest';
import { teamNameError } from './team-name.ts';

describe('teamNameError', () => {
  it('accepts a name, ignoring surrounding spaces', () => {
    expect(teamNameError('  增长团队 ', 'zh-CN')).toBeNull();
    expect(teamNameError('x'.repeat(50), 'en')).toBeNull();
  });

  it.each([
    [undefined, 'zh-CN', '团队名称不能为空。'],
    ['', 'en', 'Team name cannot be empty.'],
    ['    ', 'zh-TW', '團隊名稱不能為空。'],
    ['x'.repeat(51), 'en', 'Team name can be at most 50 characters.'],
    [` ${'名'.repeat(51)} `, 'zh-CN', '团队名称最多 50 个字符。'],
  ] as const)('%j in %s → %s', (value, language, message) => {
    expect(teamNameError(value, language)).toBe(message);
  });
});
