import { readFileSync } from 'node:fs';
import { billingRoutes, teamRoutes } from '@athena/contract';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi } from '../support/api.ts';
import { noToasts, rechargeWithCashier, switchLanguage, text } from '../support/billing.ts';
import { launchChromium, newContext, screenshot, settled } from '../support/browser.ts';
import { apiToken, TEST_CODE } from '../support/session.ts';

// A team of its own, so its balance starts at ¥0.00 whatever other specs do.
const CREATOR_PHONE = '13800000009';

describe('fees center', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    browser = await launchChromium();
    const token = await apiToken(CREATOR_PHONE, TEST_CODE);
    const team = await callApi(teamRoutes.create, { name: '费用中心测试' }, { token });
    context = await newContext(browser, 'zh-CN');
    page = await context.newPage();
    const live = page.waitForRequest((request) => request.url().endsWith('/api/athena/v1/billing/live'));
    await page.goto(`/fees-center?token=${token}&spaceId=${team.id}`);
    await live;
  });

  afterAll(() => browser.close());

  it('recharges a preset through the dev cashier; dialog and header follow without a reload', async () => {
    await page.getByTestId('fees-balance-card').waitFor();
    expect(await text(page, 'fees-balance')).toBe('¥0.00');
    expect(await text(page, 'header-balance')).toBe('¥0.00');
    await page.getByTestId('fees-threshold').getByText('余额提醒：未开启').waitFor();
    await screenshot(page, 'fees-center-zh-CN');

    // A reload would lose this mark: the figures must change in the page as it is.
    await page.evaluate(() => {
      (window as unknown as { feesMark: boolean }).feesMark = true;
    });
    await page.getByTestId('fees-recharge').click();
    await page.getByText('开发收银台（测试支付）').waitFor();
    await page.getByTestId('recharge-dev-explain').getByText('不涉及真实资金').waitFor();
    await screenshot(page, 'fees-recharge-form-zh-CN');
    await page.keyboard.press('Escape');
    await page.getByTestId('recharge-form').waitFor({ state: 'detached' });

    const orderNo = await rechargeWithCashier(page, { preset: 5000 }, '¥50.00', 'zh-CN');
    await page.getByTestId('recharge-paid').getByText('¥50.00 已充入团队余额。').waitFor();
    await expect.poll(() => text(page, 'header-balance')).toBe('¥50.00');
    await expect.poll(() => text(page, 'recharge-new-balance')).toBe('当前余额：¥50.00');
    expect(await page.evaluate(() => (window as unknown as { feesMark?: boolean }).feesMark)).toBe(true);
    await screenshot(page, 'fees-recharge-paid-zh-CN');
    await page.getByTestId('recharge-done').click();
    expect(await text(page, 'fees-balance')).toBe('¥50.00');

    // The recharge is in the records, and in the statement as a credit with the balance after it.
    await page.getByTestId('fees-tab-recharges').click();
    const row = page.locator(`[data-testid="recharge-row"][data-no="${orderNo}"][data-status="paid"]`);
    await row.waitFor();
    expect(await row.getByTestId('recharge-row-amount').textContent()).toBe('¥50.00');
    await page.getByTestId('fees-tab-ledger').click();
    const entry = page.locator('[data-testid="ledger-row"][data-kind="recharge"]').first();
    await entry.waitFor();
    expect(await entry.getByTestId('ledger-amount').textContent()).toBe('+¥50.00');
    expect(await entry.getByTestId('ledger-balance-after').textContent()).toBe('¥50.00');
    expect(await entry.getByTestId('ledger-reference').textContent()).toContain(orderNo);
    await screenshot(page, 'fees-ledger-zh-CN');
  });

  it('takes a custom amount to the fen, checked like the server; a higher threshold shows the notice', async () => {
    await page.getByTestId('fees-recharge').click();
    await page.getByTestId('recharge-custom').fill('12.345');
    await page.getByTestId('recharge-submit').click();
    await page.getByTestId('recharge-amount-hint').getByText('最多两位小数').waitFor();
    await page.getByTestId('recharge-custom').fill('0.99');
    await page.getByTestId('recharge-submit').click();
    expect(await page.getByTestId('recharge-amount-hint').getAttribute('class')).toContain('danger');
    await page.getByTestId('recharge-custom').fill('12.34');
    expect(await text(page, 'recharge-submit')).toBe('支付 ¥12.34');
    await page.getByTestId('recharge-submit').click();
    const orderNo = (await page.getByTestId('recharge-order-no').textContent())?.trim() ?? '';
    // Paid the way a phone would, from outside the browser.
    expect(await callApi(billingRoutes.devCashierPay, { order_no: orderNo }, {})).toEqual({ status: 'paid' });
    await page.getByTestId('recharge-paid').waitFor();
    await expect.poll(() => text(page, 'header-balance')).toBe('¥62.34');
    await page.getByTestId('recharge-done').click();
    await expect.poll(() => text(page, 'fees-balance')).toBe('¥62.34');

    await page.getByTestId('fees-threshold-edit').click();
    await page.getByTestId('fees-threshold-input').fill('100');
    await page.getByTestId('fees-threshold-save').click();
    await page.getByTestId('fees-low-balance').getByText('余额已低于 ¥100.00。').waitFor();
    await page.getByTestId('fees-threshold').getByText('余额提醒：低于 ¥100.00 时提醒').waitFor();
    // The header warns on every page, not only here.
    await expect.poll(() => page.getByTestId('header-balance').getAttribute('data-low')).toBe('true');
    await screenshot(page, 'fees-low-balance-zh-CN');
  });

  it('lists no fee records yet and exports them as CSV', async () => {
    await page.getByTestId('fees-tab-usage').click();
    await page.getByTestId('usage-explainer').getByText('使用团队自己的模型密钥调用免费', { exact: false }).waitFor();
    await page.getByTestId('usage-empty').waitFor();
    expect(await text(page, 'usage-total')).toBe('¥0.00');
    await page.getByTestId('usage-chart-empty').waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('usage-export').click()]);
    expect(download.suggestedFilename()).toMatch(/\.csv$/);
    const csv = readFileSync(await download.path(), 'utf8');
    // UTF-8 with a BOM (spreadsheets read the Chinese headers right), headers in the reader's language.
    expect(csv.charCodeAt(0)).toBe(0xfeff);
    const [header, ...rows] = csv.slice(1).split(/\r?\n/).filter(Boolean);
    expect(header).toBe('时间,类型,对象,成员,模型,计费,输入 tokens,输出 tokens,费用（元）,结果');
    expect(rows).toEqual([]);
  });

  it('speaks English and Traditional Chinese, and cancels an order', async () => {
    await noToasts(page);
    await switchLanguage(page, 'en');
    await page.getByTestId('page-title').getByText('Fees').waitFor();
    // Saving the language re-applies user/info: the live balance must not fall back to sign-in time's.
    expect(await text(page, 'header-balance')).toBe('¥62.34');
    expect(await text(page, 'fees-balance')).toBe('¥62.34');
    await page.getByTestId('fees-low-balance').getByText('The balance is below ¥100.00.').waitFor();
    await page.getByTestId('fees-tab-recharges').getByText('Recharges').waitFor();
    await page.getByTestId('fees-tab-recharges').click();
    await page.locator('[data-testid="recharge-row"] [data-status="paid"]').first().getByText('Paid').waitFor();
    await screenshot(page, 'fees-center-en');

    // An order cancelled from the dialog closes, and offers a new start.
    await page.getByTestId('fees-recharge').click();
    await page.getByTestId('recharge-form').getByText('Dev cashier (test payments)').waitFor();
    await page.getByTestId('recharge-preset-1000').click();
    await page.getByTestId('recharge-submit').click();
    await page.getByTestId('recharge-cancel').click();
    await page
      .locator('[data-testid="recharge-ended"][data-status="closed"]')
      .getByText('This order is closed')
      .waitFor();
    await page.getByTestId('recharge-restart').click();
    await page.getByTestId('recharge-form').waitFor();
    await page.keyboard.press('Escape');
    await page.getByTestId('recharge-form').waitFor({ state: 'detached' });

    await rechargeWithCashier(page, { preset: 1000 }, '¥10.00', 'en');
    await page.getByTestId('recharge-paid').getByText('Payment received').waitFor();
    await expect.poll(() => text(page, 'header-balance')).toBe('¥72.34');
    await screenshot(page, 'fees-recharge-paid-en');
    await page.getByTestId('recharge-done').click();

    await noToasts(page);
    await switchLanguage(page, 'zh-TW');
    await page.getByTestId('page-title').getByText('費用中心').waitFor();
    expect(await text(page, 'fees-balance')).toBe('¥72.34');
    await page.getByTestId('fees-balance-card').getByText('團隊餘額').waitFor();
    await page.getByTestId('fees-tab-usage').getByText('費用明細').waitFor();
    await screenshot(page, 'fees-center-zh-TW');
    await rechargeWithCashier(page, { custom: '100' }, '¥100.00', 'zh-TW');
    await page.getByTestId('recharge-paid').getByText('付款成功').waitFor();
    await expect.poll(() => text(page, 'header-balance')).toBe('¥172.34');
    await screenshot(page, 'fees-recharge-paid-zh-TW');
    await page.getByTestId('recharge-done').click();
    // Above the threshold again: the notice goes by itself.
    await page.getByTestId('fees-low-balance').waitFor({ state: 'detached' });
    await expect.poll(() => page.getByTestId('header-balance').getAttribute('data-low')).toBe('false');
    await settled(page);
  });
});
