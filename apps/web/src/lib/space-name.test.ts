import type { TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';
import { spaceDisplayName } from './space-name.ts';

const english = ((key: string, values: { nickname: string }) =>
  key === 'header.personalSpaceName' ? `${values.nickname}'s space` : key) as unknown as TFunction;

describe('a space’s name in the reader’s language', () => {
  it('names a personal space that kept its sign-up default in the current language', () => {
    expect(spaceDisplayName({ name: '用户0002HU的空间', personal: true }, english)).toBe("用户0002HU's space");
    expect(spaceDisplayName({ name: '用戶0002HU的空間', personal: true }, english)).toBe("用戶0002HU's space");
  });

  it('follows the owner’s current nickname', () => {
    expect(spaceDisplayName({ name: '用户0002HU的空间', personal: true }, english, 'Athena')).toBe("Athena's space");
  });

  it('shows a team’s name, and a chosen personal name, as stored', () => {
    expect(spaceDisplayName({ name: '星辰研发部的空间', personal: false }, english)).toBe('星辰研发部的空间');
    expect(spaceDisplayName({ name: '我的实验室', personal: true }, english)).toBe('我的实验室');
  });
});
