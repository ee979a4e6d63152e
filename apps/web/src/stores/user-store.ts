import type { SpaceSummary, UserInfo } from '@athena/contract';
import { create } from 'zustand';
import { STORAGE_KEYS } from '../lib/storage-keys.ts';

const read = (key: string) => (typeof localStorage === 'undefined' ? null : localStorage.getItem(key));

export interface UserState {
  /** The session token; null means signed out (the login modal shows). */
  token: string | null;
  userinfo: UserInfo | null;
  /** The current space, carrying my role in it. */
  team: SpaceSummary | null;
  spaceId: string | null;
  /** Balance of the current space, in fen. */
  balance: number | null;
  /** Set while a media player plays, so global shortcuts and polling can hold back. */
  isPlayingVideo: boolean;
  /** Re-reads token and space from storage (after main.tsx took them from the URL). */
  hydrate: () => void;
  signIn: (token: string) => void;
  setUser: (userinfo: UserInfo) => void;
  setTeam: (team: SpaceSummary) => void;
  /** A newer balance of the current space (the billing stream's news), kept in `team` too. */
  setBalance: (balance: number) => void;
  setPlayingVideo: (playing: boolean) => void;
  /** Forgets the session and the space (the language choice stays). */
  signOut: () => void;
}

export const useUserStore = create<UserState>((set) => ({
  token: read(STORAGE_KEYS.token),
  userinfo: null,
  team: null,
  spaceId: read(STORAGE_KEYS.spaceId),
  balance: null,
  isPlayingVideo: false,
  hydrate: () => set({ token: read(STORAGE_KEYS.token), spaceId: read(STORAGE_KEYS.spaceId) }),
  signIn: (token) => {
    localStorage.setItem(STORAGE_KEYS.token, token);
    set({ token });
  },
  setUser: (userinfo) => {
    set({ userinfo });
    if (userinfo.space) useUserStore.getState().setTeam(userinfo.space);
  },
  setTeam: (team) => {
    localStorage.setItem(STORAGE_KEYS.spaceId, team.id);
    set({ team, spaceId: team.id, balance: team.balance });
  },
  // userinfo's copy too: patchUserInfo (a settings change) re-applies userinfo.space through
  // setTeam, which would otherwise put back the balance of sign-in time.
  setBalance: (balance) =>
    set((s) => ({
      balance,
      team: s.team ? { ...s.team, balance } : s.team,
      userinfo:
        s.userinfo?.space && s.userinfo.space.id === s.team?.id
          ? { ...s.userinfo, space: { ...s.userinfo.space, balance } }
          : s.userinfo,
    })),
  setPlayingVideo: (isPlayingVideo) => set({ isPlayingVideo }),
  signOut: () => {
    localStorage.removeItem(STORAGE_KEYS.token);
    localStorage.removeItem(STORAGE_KEYS.spaceId);
    set({ token: null, userinfo: null, team: null, spaceId: null, balance: null });
  },
}));
