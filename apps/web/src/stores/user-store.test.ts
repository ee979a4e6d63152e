import type { SpaceSummary, UserInfo } from '@athena/contract';
import { beforeAll, describe, expect, it } from 'vitest';

// The store remembers the space in localStorage; Node has none.
beforeAll(() => {
  const items = new Map<string, string>();
  globalThis.localStorage = {
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, value),
    removeItem: (key) => void items.delete(key),
    clear: () => items.clear(),
    key: () => null,
    length: 0,
  };
});

const space: SpaceSummary = {
  id: 's1',
  name: '研发部',
  role: 1,
  balance: 0,
  personal: false,
  member_count: 1,
  created_at: '2025-01-01T00:00:00Z',
};
const user: UserInfo = {
  id: 'u1',
  nickname: '张三',
  avatar_url: null,
  phone_masked: null,
  has_wechat: false,
  real_name_verified: false,
  settings: { language: null, theme: 'system', timezone: null, default_space_id: null },
  created_at: '2025-01-01T00:00:00Z',
  space,
};

describe('the live balance in the user store', () => {
  it('survives a later settings change that re-applies user/info', async () => {
    const { useUserStore } = await import('./user-store.ts');
    const { patchUserInfo } = await import('../lib/session.ts');
    useUserStore.getState().setUser(user);
    useUserStore.getState().setBalance(5000);
    expect(useUserStore.getState().team?.balance).toBe(5000);
    // The language switcher saves the setting, which patches user/info and so sets the team again.
    patchUserInfo({ settings: { ...user.settings, language: 'en' } });
    expect(useUserStore.getState().balance).toBe(5000);
    expect(useUserStore.getState().team?.balance).toBe(5000);
  });
});
