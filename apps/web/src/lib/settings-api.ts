import { accountRoutes, type Settings } from '@athena/contract';
import { api } from './api-client.ts';
import type { Locale } from './locale.ts';
import { queryClient } from './query-client.ts';
import { queryKeys } from './query-keys.ts';
import { patchUserInfo } from './session.ts';

/** Saves part of the settings on the server and mirrors the answer into user/info. */
export async function saveSettings(patch: Partial<Settings>): Promise<Settings> {
  const settings = await api(accountRoutes.settingsUpdate, patch);
  queryClient.setQueryData(queryKeys.account.settings(), settings);
  patchUserInfo({ settings });
  return settings;
}

/** The header's language switcher, signed in: the choice follows the person to other devices. */
export const saveLanguage = (locale: Locale) => saveSettings({ language: locale });
