import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, newContext } from '../support/browser.ts';
import { apiToken } from '../support/session.ts';

describe('token in the URL query', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(() => browser.close());

  it('signs in with ?token=, stores it and removes it from the visible URL', async () => {
    const token = await apiToken();
    const page = await (await newContext(browser)).newPage();
    await page.goto(`/dashboard?token=${encodeURIComponent(token)}&tab=1`);
    await page.getByTestId('dashboard-nickname').waitFor();
    expect(page.url()).not.toContain('token=');
    expect(page.url()).toContain('tab=1');
    expect(await page.evaluate(() => localStorage.getItem('athena.token'))).toBe(token);
  });

  it('falls back to the login modal when the stored session was revoked', async () => {
    const token = await apiToken();
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto(`/dashboard?token=${encodeURIComponent(token)}`);
    await page.getByTestId('dashboard-nickname').waitFor();
    await page.evaluate(
      (t) =>
        fetch('/accountv2/login/logout', {
          method: 'POST',
          headers: { token: t, 'content-type': 'application/json' },
          body: '{}',
        }),
      token,
    );
    await page.reload();
    await page.getByTestId('login-modal').waitFor();
  });
});
