import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { switchLanguage } from '../support/billing.ts';
import { clickWhenSettled, launchChromium, newContext, screenshot } from '../support/browser.ts';
import { resetSettings, signInWithTestNumber } from '../support/session.ts';

/** A one-page PDF that viewers open. */
const pdf = (text: string) =>
  Buffer.from(
    `%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 300 144]/Contents 4 0 R/Resources<</Font<</F1 5 0 R>>>>>>endobj\n4 0 obj<</Length ${text.length + 35}>>stream\nBT /F1 18 Tf 20 70 Td (${text}) Tj ET\nendstream endobj\n5 0 obj<</Type/Font/Subtype/Type1/BaseFont/Helvetica>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n`,
    'latin1',
  );

const TITLE = `网店售后客服机器人 ${Date.now().toString(36)}`;
const FILE_NAME = '需求说明.pdf';

/** Picks an option of an antd Select by the test id on its label. */
async function choose(page: Page, selectId: string, optionId: string) {
  await page.getByTestId(selectId).click();
  await page.locator('.ant-select-dropdown:visible').getByTestId(optionId).click();
}

describe('custom AI business', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let requestId = '';
  const row = () => page.locator(`[data-testid="cab-row"][data-id="${requestId}"]`);

  beforeAll(async () => {
    browser = await launchChromium();
    context = await newContext(browser, 'zh-CN');
    page = await context.newPage();
    await page.goto('/dashboard');
    await signInWithTestNumber(page);
  });

  afterAll(async () => {
    await browser.close();
    // The language switch below is saved for the shared test number: a failure before it switches
    // back must not leave the next spec signing in to English.
    await resetSettings();
  });

  it('explains the service and validates the form with the contract messages', async () => {
    await page.getByTestId('nav-customAiBusiness').click();
    await page.getByTestId('page-customAiBusiness').waitFor();
    await page.getByTestId('cab-intro').waitFor();
    await page.locator('[data-testid="cab-list"], [data-testid="cab-empty"]').first().waitFor();

    await page.getByTestId('cab-new-request').click();
    await page.getByTestId('cab-form').waitFor();
    await clickWhenSettled(page, 'cab-submit');
    await page.getByText('请填写需求标题（最多 100 个字符）。').waitFor();
    await page.getByText('请用 10 到 5000 个字符描述您的需求。').waitFor();
    await page.getByText('请至少填写手机号或邮箱中的一项，以便我们联系您。').waitFor();
    await page.getByTestId('cab-contact-phone').fill('1380000');
    await page.getByTestId('cab-contact-phone').blur();
    await page.getByText('请输入正确的 11 位中国大陆手机号。').waitFor();
  });

  it('submits a request with an attachment; it is listed as submitted', async () => {
    await page.getByTestId('cab-title').fill(TITLE);
    await choose(page, 'cab-scenario', 'cab-scenario-customer_service');
    await page
      .getByTestId('cab-requirements')
      .fill('在企业微信客服中回答订单、物流和退换货问题；不确定时转人工。每天约 2000 次会话，需要对接我们的订单系统。');
    await page.getByTestId('cab-budget').getByText('5–20 万元').click();
    await page.getByTestId('cab-contact-name').fill('王经理');
    await page.getByTestId('cab-contact-phone').fill('13912345678');
    await page.getByTestId('cab-contact-email').fill('ops@example.com');

    // A file that only pretends to be a PDF is refused before it uploads; a real one uploads.
    await page.getByTestId('cab-file-input').setInputFiles([
      { name: 'not-really.pdf', mimeType: 'application/pdf', buffer: Buffer.from('plain text, not a PDF') },
      { name: FILE_NAME, mimeType: 'application/pdf', buffer: pdf('Athena requirements') },
    ]);
    await page.locator('[data-testid="cab-file"][data-name="not-really.pdf"][data-status="error"]').waitFor();
    await page.getByTestId('cab-file-error').getByText('附件仅支持 PDF、DOCX、XLSX、PNG 或 JPG 文件。').waitFor();
    const uploaded = page.locator(`[data-testid="cab-file"][data-name="${FILE_NAME}"][data-status="done"]`);
    await uploaded.waitFor();
    expect(await uploaded.getByTestId('cab-file-progress').getAttribute('data-percent')).toBe('100');
    await page.locator('[data-testid="cab-file"][data-name="not-really.pdf"]').getByTestId('cab-file-remove').click();
    await screenshot(page, 'custom-business-form-zh-CN');

    await page.getByTestId('cab-submit').click();
    // The new request opens in the drawer at once.
    const drawer = page.getByTestId('cab-drawer');
    await drawer.waitFor();
    expect(await page.getByTestId('cab-detail-title').textContent()).toBe(TITLE);
    expect(await page.getByTestId('cab-detail-status').getAttribute('data-status')).toBe('submitted');
    await drawer.getByTestId('cab-attachment').getByText(FILE_NAME).waitFor();
    requestId = (await drawer.getAttribute('data-id')) ?? '';
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);

    // Downloading needs the session, and keeps the original name.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      drawer.getByTestId('cab-attachment-download').click(),
    ]);
    expect(download.suggestedFilename()).toBe(FILE_NAME);

    await page.keyboard.press('Escape');
    await row().waitFor();
    expect(await row().getAttribute('data-status')).toBe('submitted');
    await screenshot(page, 'custom-business-list-zh-CN');
  });

  it('lets the operator review the request and send a quote', async () => {
    await page.getByTestId('cab-tab-operator').click();
    await page.getByTestId('cab-operator').waitFor();
    await page.locator(`[data-testid="cab-op-list"] [data-testid="cab-row"][data-id="${requestId}"]`).click();
    const drawer = page.getByTestId('cab-op-drawer');
    await drawer.getByTestId('cab-op-form').waitFor();

    await choose(page, 'cab-op-status', 'cab-op-status-in_review');
    await drawer.getByTestId('cab-op-note').fill('已安排方案顾问评估。');
    await drawer.getByTestId('cab-op-submit').click();
    await page.locator('[data-testid="cab-detail-status"][data-status="in_review"]').waitFor();

    await choose(page, 'cab-op-status', 'cab-op-status-quoted');
    await drawer.getByTestId('cab-op-amount').fill('12800');
    await drawer.getByTestId('cab-op-note').fill('含方案设计、部署上线与三个月维护。');
    await drawer.getByTestId('cab-op-submit').click();
    await page.locator('[data-testid="cab-detail-status"][data-status="quoted"]').waitFor();
    expect(await drawer.getByTestId('cab-quote-amount').textContent()).toBe('¥12,800.00');
    await screenshot(page, 'custom-business-operator-zh-CN');
    await page.keyboard.press('Escape');
  });

  it('lets the requester accept the quote', async () => {
    await page.getByTestId('cab-tab-mine').click();
    await row().waitFor();
    expect(await row().getAttribute('data-status')).toBe('quoted');
    await row().click();
    const drawer = page.getByTestId('cab-drawer');
    await drawer.getByTestId('cab-quote').waitFor();
    expect(await drawer.getByTestId('cab-quote-amount').textContent()).toBe('¥12,800.00');
    // The requester's timeline names the platform's team, not the operator's account.
    await drawer.getByText('Athena 方案团队').first().waitFor();
    await screenshot(page, 'custom-business-quote-zh-CN');

    await drawer.getByTestId('cab-accept').click();
    await clickWhenSettled(page, 'cab-accept-confirm');
    await page.locator('[data-testid="cab-detail-status"][data-status="accepted"]').waitFor();
    const steps = await drawer
      .getByTestId('cab-timeline-item')
      .evaluateAll((items) => items.map((item) => item.getAttribute('data-to')));
    expect(steps).toEqual(['submitted', 'in_review', 'quoted', 'accepted']);
    expect(await drawer.getByTestId('cab-accept').count()).toBe(0);
    await screenshot(page, 'custom-business-accepted-zh-CN');
  });

  it('reads well in English', async () => {
    await page.keyboard.press('Escape');
    await page.getByTestId('cab-drawer').waitFor({ state: 'detached' });
    // Let the last confirmation toast (in Chinese) go before the English screenshots.
    await page.locator('.ant-message-notice').first().waitFor({ state: 'detached' });
    await switchLanguage(page, 'en');
    await row().waitFor();
    expect(await row().getByTestId('cab-status').textContent()).toBe('Accepted');
    await screenshot(page, 'custom-business-list-en');

    await row().click();
    const drawer = page.getByTestId('cab-drawer');
    await drawer.getByText('Quote accepted', { exact: true }).waitFor();
    await drawer.getByText('Athena solution team').first().waitFor();
    await screenshot(page, 'custom-business-accepted-en');
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'detached' });

    await page.getByTestId('cab-new-request').click();
    await page.getByTestId('cab-form').waitFor();
    // A click while the drawer still slides in can land before the form listens (seen in CI).
    await clickWhenSettled(page, 'cab-submit');
    await page.getByText('Please enter a title (at most 100 characters).').waitFor();
    await screenshot(page, 'custom-business-form-en');
    await page.getByTestId('cab-form-cancel').click();
    await switchLanguage(page, 'zh-CN');
  });
});
