import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastSmsCode, launchChromium, newContext, screenshot } from '../support/browser.ts';

describe('WeChat QR sign-in with the dev provider', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(() => browser.close());

  it('signs in a first-time WeChat user who binds a phone, then a returning one directly', async () => {
    const context = await newContext(browser, 'en-US');
    const page = await context.newPage();
    await page.goto('/');
    await page.getByTestId('login-mode-wechat').click();
    await page.getByTestId('wechat-qr').waitFor();
    await screenshot(page, 'login-wechat-en');

    // The "phone": the QR's link opens the simulated scan page.
    const href = await page.getByTestId('wechat-dev-scan-link').getAttribute('href');
    const phone = await context.newPage();
    await phone.goto(href!);
    await phone.getByTestId('dev-wechat-new').click();
    await phone.getByTestId('dev-wechat-done').waitFor();

    // Polling (every 2 s) notices the scan and asks for a phone.
    await page.getByTestId('bind-phone-form').waitFor({ timeout: 10_000 });
    await page.getByTestId('phone-input').fill('13912340001');
    await page.getByTestId('send-code-button').click();
    await expect.poll(() => lastSmsCode('13912340001'), { timeout: 10_000 }).toMatch(/^\d{6}$/);
    await page.getByTestId('code-input').fill(lastSmsCode('13912340001')!);
    await page.getByTestId('login-submit').click();
    await page.getByTestId('dashboard-nickname').waitFor();
    expect(await page.getByTestId('dashboard-wechat').textContent()).toContain('WeChat linked');

    // Sign out and come back as the same WeChat user: no phone step this time.
    await page.getByTestId('user-menu').click();
    await page.getByTestId('sign-out').click();
    await page.getByTestId('login-mode-wechat').click();
    const again = await page.getByTestId('wechat-dev-scan-link').getAttribute('href');
    await phone.goto(again!);
    await phone.getByTestId('dev-wechat-returning').click();
    await phone.getByTestId('dev-wechat-done').waitFor();
    await page.getByTestId('dashboard-nickname').waitFor({ timeout: 10_000 });
    await context.close();
  });

  it('stops polling when the person leaves WeChat mode', async () => {
    const context = await newContext(browser, 'zh-CN');
    const page = await context.newPage();
    const checks: number[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/check_wechat_url')) checks.push(Date.now());
    });
    await page.goto('/');
    await page.getByTestId('login-mode-wechat').click();
    await page.getByTestId('wechat-qr').waitFor();
    await expect.poll(() => checks.length, { timeout: 8000 }).toBeGreaterThanOrEqual(2);
    const gap = checks[1] - checks[0];
    expect(gap).toBeGreaterThanOrEqual(1500);
    expect(gap).toBeLessThanOrEqual(3500);
    await page.getByTestId('login-mode-sms').click();
    const seen = checks.length;
    await page.waitForTimeout(4500);
    expect(checks.length).toBe(seen);
    await context.close();
  });
});
