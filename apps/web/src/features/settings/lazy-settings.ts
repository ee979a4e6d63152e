/**
 * What the app shell loads on demand after sign-in (applying settings from user/info): one small
 * entry, apart from the pages, so it stays off /login.
 */
export { applySettings } from './apply-settings.ts';
