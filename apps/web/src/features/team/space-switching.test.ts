import { describe, expect, it } from 'vitest';
import { isOtherSpaceQuery } from './space-switching.ts';

describe('isOtherSpaceQuery', () => {
  it('picks out the queries of spaces other than the new current one', () => {
    expect(isOtherSpaceQuery(['space', 'old'], 'new')).toBe(true);
    expect(isOtherSpaceQuery(['team', 'old', 'members', { page: 1 }], 'new')).toBe(true);
    expect(isOtherSpaceQuery(['space', 'new'], 'new')).toBe(false);
    expect(isOtherSpaceQuery(['team', 'new', 'audit'], 'new')).toBe(false);
    expect(isOtherSpaceQuery(['userInfo', 'token'], 'new')).toBe(false);
    expect(isOtherSpaceQuery(['spaces'], 'new')).toBe(false);
  });
});
