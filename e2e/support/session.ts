import type { authRoutes, Envelope, RouteData } from '@athena/contract';
import type { Page } from 'playwright-core';
import { baseUrl } from './browser.ts';
import { TEST_CODE, TEST_PHONE } from './test-number.ts';

export { TEST_CODE, TEST_PHONE };

/** Signs in through the login form with the designated test number. */
export async function signInWithTestNumber(page: Page) {
  await page.getByTestId('login-panel').waitFor();
  await page.getByTestId('phone-input').fill(TEST_PHONE);
  await page.getByTestId('code-input').fill(TEST_CODE);
  await page.getByTestId('login-submit').click();
  await page.getByTestId('dashboard-nickname').waitFor();
}

/**
 * Puts the test number's server-side settings back to "the device decides": the language switch
 * is saved per user, and specs share the number, so one spec's choice must not leak into the next.
 */
export async function resetSettings(phone = TEST_PHONE) {
  const token = await apiToken(phone);
  await fetch(`${baseUrl()}/accountv2/user/settings/update`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', token },
    body: JSON.stringify({ language: null, theme: 'system', timezone: null }),
  });
}

/** A session token through the real sign-in API, for tests that start signed in. */
export async function apiToken(phone = TEST_PHONE, code = TEST_CODE) {
  const res = await fetch(`${baseUrl()}/accountv2/login/by_sms`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ phone, code }),
  });
  const body = (await res.json()) as Envelope<RouteData<typeof authRoutes.bySms>>;
  return body.data.login_token;
}
