import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { clickWhenSettled, screenshot, settled } from './browser.ts';

export type Locale = 'zh-CN' | 'zh-TW' | 'en';

/** Switches the app's language with the header switcher and waits until the page speaks it. */
export async function switchLanguage(page: Page, locale: Locale) {
  await page.getByTestId('language-switcher').first().click();
  // The menu's zoom-in first: a click during it was lost under load.
  await clickWhenSettled(page, `language-option-${locale}`);
  await page.waitForFunction((lang) => document.documentElement.lang === lang, locale);
}

/** Waits until no toast shows, so a screenshot in one language carries none from another. */
export const noToasts = (page: Page) =>
  page.waitForFunction(() => document.querySelectorAll('.ant-message-notice').length === 0, null, { timeout: 5000 });

/** The trimmed text of the first element with this test id. */
export const text = async (page: Page, testId: string) =>
  (await page.getByTestId(testId).first().textContent())?.trim();

/**
 * One recharge through the fees center's dialog, paid on the dev cashier's page in a second tab
 * of the same browser (the way a payer's phone would), with screenshots of the QR step and the
 * cashier in `locale` (names start with `shotPrefix`). Leaves the dialog showing it paid; returns
 * the order number.
 */
export async function rechargeWithCashier(
  page: Page,
  amount: { preset: number } | { custom: string },
  shown: string,
  locale: Locale,
  shotPrefix = '',
) {
  await page.getByTestId('fees-recharge').click();
  await page.getByTestId('recharge-form').waitFor();
  // A click during the dialog's zoom-in was lost under load (the default ¥50 was ordered).
  await settled(page);
  if ('preset' in amount) await page.getByTestId(`recharge-preset-${amount.preset}`).click();
  else await page.getByTestId('recharge-custom').fill(amount.custom);
  await page.getByTestId('recharge-submit').click();
  const link = page.getByTestId('recharge-dev-link');
  await link.waitFor();
  const codeUrl = (await link.getAttribute('href')) ?? '';
  expect(codeUrl).toMatch(/\/dev-cashier\/ATH[0-9A-Z]{24}$/);
  const orderNo = (await text(page, 'recharge-order-no')) ?? '';
  expect(codeUrl.endsWith(orderNo)).toBe(true);
  expect(await text(page, 'recharge-order-amount')).toBe(shown);
  expect(await text(page, 'recharge-countdown')).toMatch(/^1[45]:\d\d$/);
  await screenshot(page, `${shotPrefix}fees-recharge-qr-${locale}`);

  // The cashier is a public page of its own; a phone-sized tab of the same browser.
  const cashier = await page.context().newPage();
  await cashier.setViewportSize({ width: 390, height: 760 });
  await cashier.goto(codeUrl);
  await cashier.getByTestId('dev-cashier-amount').filter({ hasText: shown }).waitFor();
  expect(await text(cashier, 'dev-cashier-order-no')).toBe(orderNo);
  await screenshot(cashier, `${shotPrefix}dev-cashier-${locale}`);
  await cashier.getByTestId('dev-cashier-pay').click();
  await cashier.getByTestId('dev-cashier-paid').waitFor();
  await cashier.close();

  // Nobody touches the first tab: the live stream (or its polling fallback) turns the dialog.
  await page.getByTestId('recharge-paid').waitFor();
  return orderNo;
}
