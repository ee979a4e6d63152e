import { accountRoutes, type Settings } from '@athena/contract';
import { queryClient } from '../../app/query-client.ts';
import { api } from '../../lib/api-client.ts';
import type { Locale } from '../../lib/locale.ts';
import { patchUserInfo } from '../account/patch-user-info.ts';

export const SETTINGS_QUERY_KEY = ['settings'] as const;

/** Saves part of the settings on the server and mirrors the answer into user/info. */
export async function saveSettings(patch: Partial<Settings>): Promise<Settings> {
  const settings = await api(accountRoutes.settingsUpdate, patch);
  queryClient.setQueryData(SETTINGS_QUERY_KEY, settings);
  patchUserInfo({ settings });
  return settings;
}

/** The header's language switcher, signed in: the choice follows the person to other devices. */
export const saveLanguage = (locale: Locale) => saveSettings({ language: locale });
