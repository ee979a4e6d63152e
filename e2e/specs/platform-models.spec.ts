import {
  billingUsageRoutes,
  ERRORS,
  formatFen,
  formatMillifen,
  spaceRoutes,
  teamRoutes,
  type UsageRecord,
} from '@athena/contract';
import { type FakeOpenAI, startFakeOpenAI } from '@athena/fake-openai';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi } from '../support/api.ts';
import { noToasts, rechargeWithCashier, switchLanguage, text } from '../support/billing.ts';
import { clickWhenSettled, launchChromium, newContext, screenshot } from '../support/browser.ts';
import { apiToken, TEST_CODE, TEST_PHONE } from '../support/session.ts';

// A team of its own, so its balance starts at ¥0.00 whatever other specs do.
const CREATOR_PHONE = '13800000010';
const MODEL_NAME = '平台通义';
const MODEL_VERSION = 'fake-chat';
const AGENT_NAME = '报价助手';

/** Answers in the conversation (not the opening message, which is not part of it). */
const answers = (page: Page) =>
  page.locator('[data-testid="chat-messages"] > div > [data-testid="chat-message"][data-role="assistant"]');

/**
 * Waits until the daily-fees chart stops drawing: ECharts grows its bars on a canvas (about a
 * second, again after a language switch), which settled() cannot see, and a screenshot taken
 * during it shows a bar of the wrong height.
 */
async function chartDrawn(page: Page) {
  const canvas = page.getByTestId('usage-daily').locator('canvas').first();
  await canvas.waitFor();
  let last = '';
  await expect
    .poll(async () => {
      await page.waitForTimeout(250);
      const now = await canvas.evaluate((node) => (node as HTMLCanvasElement).toDataURL());
      const still = now === last;
      last = now;
      return still;
    })
    .toBe(true);
}

async function send(page: Page, question: string) {
  await page.getByTestId('chat-input').fill(question);
  await page.getByTestId('chat-input').press('Enter');
}

describe('platform models: an operator prices a model, a team pays for its calls', () => {
  let browser: Browser;
  let fake: FakeOpenAI;
  let operator: Page;
  let page: Page;
  let team: { token: string; spaceId: string };
  let operatorToken = '';
  let modelId = '';
  let agentId = '';

  beforeAll(async () => {
    fake = await startFakeOpenAI({ apiKey: 'sk-platform-models' });
    browser = await launchChromium();
  });
  afterAll(async () => {
    // The catalogue is the whole platform's: switched off, the model is offered to no team, so the
    // specs that expect a team without keys to have nothing to pick still find it so.
    if (modelId) {
      await callApi(
        billingUsageRoutes.platformModelUpdate,
        {
          id: modelId,
          model_name: MODEL_NAME,
          version: MODEL_VERSION,
          base_url: fake.url,
          input_price: 2000,
          output_price: 5000,
          enabled: false,
        },
        { token: operatorToken },
      );
    }
    await browser?.close();
    await fake?.close();
  });

  it('lets the operator add a priced platform model in the fees center', async () => {
    operatorToken = await apiToken(TEST_PHONE, TEST_CODE);
    const { items } = await callApi(spaceRoutes.list, {}, { token: operatorToken });
    const own = items.find((space) => space.personal) ?? items[0];
    operator = await (await newContext(browser, 'zh-CN')).newPage();
    await operator.goto(`/fees-center?token=${operatorToken}&spaceId=${own.id}`);
    await operator.getByTestId('fees-tab-operator').click();
    await operator.getByTestId('platform-models').waitFor();

    await operator.getByTestId('platform-model-add').click();
    const form = operator.getByTestId('platform-model-form');
    await form.waitFor();
    await operator.getByTestId('platform-model-name').fill(MODEL_NAME);
    await operator.getByTestId('platform-model-version').fill(MODEL_VERSION);
    await operator.getByTestId('platform-model-base-url').fill(fake.url);
    await operator.getByTestId('platform-model-key').fill(fake.apiKey);
    await operator.getByTestId('platform-model-input-price').fill('0.02');
    await operator.getByTestId('platform-model-output-price').fill('0.05');
    expect(await operator.getByTestId('platform-model-enabled').getAttribute('aria-checked')).toBe('true');
    await clickWhenSettled(operator, 'platform-model-save');
    await form.waitFor({ state: 'detached' });

    const row = operator.locator('[data-testid="platform-model-row"]', { hasText: MODEL_NAME });
    await row.waitFor();
    modelId = (await row.getAttribute('data-id')) ?? '';
    expect(modelId).not.toBe('');
    const rowText = (await row.textContent()) ?? '';
    expect(rowText).toContain(MODEL_VERSION);
    expect(rowText).toContain('¥0.02 / 千 tokens');
    expect(rowText).toContain('¥0.05 / 千 tokens');
    expect(rowText).toContain(fake.url);
    expect(await row.getByTestId('platform-model-toggle').getAttribute('aria-checked')).toBe('true');
    await noToasts(operator);
    await screenshot(operator, 'platform-models-operator-zh-CN');
  });

  it('lets a team pick the platform model for an agent; with ¥0.00 the call is refused with a way to recharge', async () => {
    const token = await apiToken(CREATOR_PHONE, TEST_CODE);
    const created = await callApi(teamRoutes.create, { name: '平台模型测试' }, { token });
    team = { token, spaceId: created.id };
    page = await (await newContext(browser, 'zh-CN')).newPage();
    await page.goto(`/agents?token=${token}&spaceId=${team.spaceId}`);
    await page.getByTestId('agents-empty').waitFor();
    expect(await text(page, 'header-balance')).toBe('¥0.00');

    await page.getByTestId('agents-empty-create').click();
    await page.getByTestId('agent-create-modal').waitFor();
    await page.getByTestId('agent-create-name').fill(AGENT_NAME);
    await clickWhenSettled(page, 'agent-create-submit');
    await page.getByTestId('page-agentDetail').waitFor();
    agentId = (await page.getByTestId('page-agentDetail').getAttribute('data-agent-id')) ?? '';
    await page.getByTestId('agent-editor').waitFor();
    // A platform model is something to pick: no "no key" warning for a team without keys.
    expect(await page.getByTestId('agent-no-model-key').count()).toBe(0);

    await page.getByTestId('agent-model-select').click();
    const dropdown = page.locator('.ant-select-dropdown:visible');
    const option = dropdown.getByTestId(`agent-model-option-${modelId}`);
    await option.waitFor();
    await dropdown.getByText('平台模型（从团队余额扣费）').waitFor();
    expect(await option.textContent()).toBe(`${MODEL_NAME} 输入 ¥0.02 · 输出 ¥0.05 / 千 tokens`);
    await screenshot(page, 'platform-models-agent-select-zh-CN');
    await option.click();
    await page.getByTestId('agent-editor-dirty').waitFor();
    await page.getByTestId('agent-save').click();
    await page.getByTestId('agent-editor-clean').waitFor();
    expect(await page.getByTestId('agent-model-select').textContent()).toContain(MODEL_NAME);

    await send(page, '你好，平台模型');
    const notice = page.getByTestId('chat-notice');
    await notice.waitFor();
    expect(await notice.getAttribute('data-code')).toBe(String(ERRORS.MODEL_BALANCE_INSUFFICIENT.code));
    expect(await notice.textContent()).toContain('团队余额不足以支付本次平台模型调用（当前可用 ¥0.00');
    await page.getByTestId('chat-notice-recharge').waitFor();
    // Refused before it started: nothing reached the model, no fee record.
    expect(fake.requests.filter((r) => r.path === '/v1/chat/completions')).toEqual([]);
    await screenshot(page, 'platform-models-refused-zh-CN');

    await page.getByTestId('chat-notice-recharge').click();
    await page.getByTestId('page-feesCenter').waitFor();
    expect(new URL(page.url()).pathname).toBe('/fees-center');
  });

  it('after a ¥10 recharge the call is answered and charged to the team, to the milli-fen', async () => {
    await page.getByTestId('fees-balance-card').waitFor();
    await rechargeWithCashier(page, { preset: 1000 }, '¥10.00', 'zh-CN', 'platform-models-');
    await expect.poll(() => text(page, 'header-balance')).toBe('¥10.00');
    await page.getByTestId('recharge-done').click();

    // Back to the playground the Recharge button came from (in the app: no reload).
    await page.goBack();
    await page.getByTestId('page-agentDetail').waitFor();
    expect(await page.getByTestId('page-agentDetail').getAttribute('data-agent-id')).toBe(agentId);
    await page.evaluate(() => {
      (window as unknown as { feesMark: boolean }).feesMark = true;
    });
    const question = 'how much does this answer cost';
    await send(page, question);
    await expect.poll(() => answers(page).last().getAttribute('data-status'), { timeout: 15_000 }).toBe('complete');
    expect(await answers(page).last().getByTestId('chat-message-content').textContent()).toBe(`Echo: ${question}`);
    const call = fake.requests.filter((r) => r.path === '/v1/chat/completions').at(-1);
    expect((call?.body as { model?: string } | undefined)?.model).toBe(MODEL_VERSION);

    // The fee as the records have it; the balance is debited the whole fen it reached.
    let record: UsageRecord | undefined;
    await expect
      .poll(async () => {
        const usage = await callApi(billingUsageRoutes.usageList, {}, { token: team.token, 'space-id': team.spaceId });
        record = usage.items[0];
        return usage.total;
      })
      .toBe(1);
    const fee = record?.fee_millifen ?? 0;
    expect(record).toMatchObject({ platform: true, kind: 'agent', outcome: 'ok', subject: { name: AGENT_NAME } });
    expect(fee).toBeGreaterThan(0);
    const balance = 1000 - Math.floor(fee / 1000);
    await expect.poll(() => text(page, 'header-balance')).toBe(formatFen(balance));
    expect(await page.getByTestId('header-balance').getAttribute('data-balance')).toBe(String(balance));
    expect(await page.evaluate(() => (window as unknown as { feesMark?: boolean }).feesMark)).toBe(true);

    await page.getByTestId('header-balance').click();
    await page.getByTestId('usage-tab').waitFor();
    const row = page.getByTestId(`usage-row-${record?.id}`);
    await row.waitFor();
    const rowText = (await row.textContent()) ?? '';
    await row.getByText('平台模型', { exact: true }).waitFor();
    expect(rowText).toContain(record?.model ?? '?');
    // Named as the agent's model picker named it, not by its version alone.
    expect(await row.getByTestId('usage-model-name').textContent()).toBe(MODEL_NAME);
    expect(rowText).toContain(AGENT_NAME);
    const shown = (await row.getByTestId('usage-fee').textContent())?.trim();
    expect(shown).toBe(formatMillifen(fee));
    expect(shown).toMatch(/^¥0\.\d{3,5}$/);
    expect(shown).not.toBe('¥0.00');
    // The balance moved by whole fen only; the page says what waits to be debited.
    if (fee % 1000 > 0) {
      expect(await text(page, 'usage-unsettled')).toContain(formatMillifen(fee % 1000));
    }
    // At 1280 px the fee and the result, what the page is for, stay in view.
    const size = page.viewportSize();
    await page.setViewportSize({ width: 1280, height: 800 });
    try {
      const table = await page.getByTestId('usage-table').boundingBox();
      for (const cell of [row.getByTestId('usage-fee'), row.locator('.ant-tag').last()]) {
        // Fixed to the table's end (sticky), and inside the table on screen.
        expect(await cell.locator('xpath=ancestor::td[1]').getAttribute('class')).toMatch(
          /ant-table-cell-fix-(end|right)/,
        );
        const box = await cell.boundingBox();
        expect(box && table ? box.x + box.width <= table.x + table.width : false).toBe(true);
      }
    } finally {
      if (size) await page.setViewportSize(size);
    }
    expect(await text(page, 'usage-total')).toBe(shown);
    await noToasts(page);
    await chartDrawn(page);
    await screenshot(page, 'platform-models-usage-zh-CN');

    // The record filters: another model finds nothing, this one (exact) and paid-only find the call.
    const model = page.getByTestId('usage-filter-model');
    await model.fill('no-such-model');
    await page.getByTestId('usage-empty').waitFor();
    await model.fill(record?.model ?? '');
    await row.waitFor();
    // The words toggle the switch too, not only the switch itself.
    await page.getByTestId('usage-filter-paid-text').click();
    await expect.poll(() => page.getByTestId('usage-filter-paid').getAttribute('aria-checked')).toBe('true');
    await row.waitFor();
    expect(await text(page, 'usage-total')).toBe(shown);
    await page.getByTestId('usage-filter-paid').click();
    await expect.poll(() => page.getByTestId('usage-filter-paid').getAttribute('aria-checked')).toBe('false');
    await model.fill('');
    await row.waitFor();

    for (const locale of ['en', 'zh-TW'] as const) {
      await switchLanguage(page, locale);
      await row.getByText(locale === 'en' ? 'Platform' : '平台模型', { exact: true }).waitFor();
      expect(await text(page, 'header-balance')).toBe(formatFen(balance, locale));
      expect((await row.getByTestId('usage-fee').textContent())?.trim()).toBe(formatMillifen(fee, locale));
      await noToasts(page);
      await chartDrawn(page);
      await screenshot(page, `platform-models-usage-${locale}`);
    }

    // A fee record opens what made the call: here the agent.
    await row.getByTestId('usage-subject-link').click();
    await page.getByTestId('page-agentDetail').waitFor();
    expect(await page.getByTestId('page-agentDetail').getAttribute('data-agent-id')).toBe(agentId);
  });
});
