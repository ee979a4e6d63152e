/**
 * What the app shell loads on demand after sign-in (applying settings from user/info, saving the
 * header's language choice): one small entry, apart from the pages, so it stays off /login.
 */
export { applySettings } from './apply-settings.ts';
export { saveLanguage } from './settings-api.ts';
