import { type Settings, THEMES } from '@athena/contract';
import { create } from 'zustand';
import { STORAGE_KEYS } from '../lib/storage-keys.ts';

export type ThemeMode = Settings['theme'];

const DARK_QUERY = '(prefers-color-scheme: dark)';

/** light / dark as the person chose, or the system's answer for 'system'. */
export const resolveTheme = (mode: ThemeMode, systemDark: boolean): 'light' | 'dark' =>
  mode === 'system' ? (systemDark ? 'dark' : 'light') : mode;

const isThemeMode = (value: unknown): value is ThemeMode => (THEMES as readonly unknown[]).includes(value);

const media =
  typeof window !== 'undefined' && typeof window.matchMedia === 'function' ? window.matchMedia(DARK_QUERY) : null;
const stored = typeof localStorage === 'undefined' ? null : localStorage.getItem(STORAGE_KEYS.theme);

interface AppearanceState {
  /** The person's theme setting; kept on this device so a reload paints in it before user/info. */
  mode: ThemeMode;
  /** The operating system's colour scheme, followed live. */
  systemDark: boolean;
  setMode: (mode: ThemeMode) => void;
}

export const useAppearanceStore = create<AppearanceState>((set) => ({
  mode: isThemeMode(stored) ? stored : 'system',
  systemDark: media?.matches ?? false,
  setMode: (mode) => {
    localStorage.setItem(STORAGE_KEYS.theme, mode);
    set({ mode });
  },
}));

media?.addEventListener('change', (event) => useAppearanceStore.setState({ systemDark: event.matches }));

/** True while the app paints dark. */
export const useIsDark = () => useAppearanceStore((s) => resolveTheme(s.mode, s.systemDark) === 'dark');
