import type { Settings } from '@athena/contract';
import { changeLocale, currentLocale } from '../../lib/i18n.ts';
import { detectLocale } from '../../lib/locale.ts';
import { STORAGE_KEYS } from '../../lib/storage-keys.ts';
import { applyTimezone } from '../../lib/user-time.ts';
import { useAppearanceStore } from '../../stores/appearance-store.ts';
import { localeForSetting } from './settings-logic.ts';

/**
 * Puts the person's settings into effect on this device: theme (Ant Design algorithm), time zone
 * (request header and dayjs.tz) and language. Idempotent; runs after every user/info and after
 * each change on /settings.
 */
export async function applySettings(settings: Settings): Promise<void> {
  if (useAppearanceStore.getState().mode !== settings.theme) useAppearanceStore.getState().setMode(settings.theme);
  applyTimezone(settings.timezone);
  const locale = localeForSetting(settings.language, localStorage.getItem(STORAGE_KEYS.language), navigator.languages);
  if (settings.language && locale !== currentLocale()) await changeLocale(locale);
}

/** "Follow the browser": forget this device's stored language and use the browser's. */
export async function followBrowserLanguage(): Promise<void> {
  await changeLocale(detectLocale(null, navigator.languages), { remember: false });
}
