/**
 * One lazy entry for the account, real-name and settings pages. Separate entries per page made
 * the bundler split many small chunks out of the /login path (modules shared with these pages),
 * which cost ~5 KB gzipped of /login's budget; one entry keeps that split to a minimum.
 */
export { DevFaceidPage } from '../faceid/dev-faceid-page.tsx';
export { FaceidPage } from '../faceid/faceid-page.tsx';
export { SettingsPage } from '../settings/settings-page.tsx';
export { AccountPage } from './account-page.tsx';
