import { readFileSync } from 'node:fs';
import { type ChatSendType, chatHistoryRoutes, type IngestMessage, platformRoutes, teamRoutes } from '@athena/contract';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi } from '../support/api.ts';
import { launchChromium, newContext, screenshot, settled } from '../support/browser.ts';
import { ingestMessage, pushSigned } from '../support/chat-ingest.ts';
import { inFramingSite } from '../support/embed.ts';
import { apiToken, TEST_CODE } from '../support/session.ts';

const CREATOR_PHONE = '13800000016';
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/** One message of customer `id`'s private chat, `ago` ms before now. */
const message = (id: string, type: ChatSendType, ago: number): IngestMessage =>
  ingestMessage(ago, {
    msg_id: `report-${id}-${type}-${ago}`,
    conversation: { id: `conv-${id}`, chat_type: 'private', name: '' },
    customer: { id: `cust-${id}`, name: `客户${id}`, avatar_url: null },
    sender_name: type === 'user' ? `客户${id}` : '客服',
    send_type: type,
    content: type === 'user' ? '你好，请问发货了吗？' : '已经发货了。',
  });

/** A few days of service: answered by AI, handed to a person, or left unanswered. */
function history(): IngestMessage[] {
  const out: IngestMessage[] = [];
  for (let day = 0; day < 5; day += 1) {
    for (let i = 0; i < 3 + day; i += 1) {
      const id = `${day}-${i}`;
      const at = day * DAY + 2 * 60 * MINUTE + i * 40 * MINUTE;
      out.push(message(id, 'user', at));
      if (i % 3 === 0) out.push(message(id, 'human', at - 3 * MINUTE));
      else if (i % 3 === 1) out.push(message(id, 'ai_full', at - 20_000));
    }
  }
  return out;
}

/** Opens the Reports tab and waits until its charts are drawn. */
async function openReports(page: Page, reportsTab: string) {
  await page.getByRole('tab', { name: reportsTab }).click();
  await page.getByTestId('report-figures').waitFor();
  await page.locator('[data-testid="report-chart-messages"] canvas').waitFor();
  await page.getByTestId('report-chart-distribution-empty').waitFor();
  await settled(page);
}

describe('service reports', () => {
  let browser: Browser;
  let session: { token: string; spaceId: string };

  beforeAll(async () => {
    browser = await launchChromium();
    const token = await apiToken(CREATOR_PHONE, TEST_CODE);
    const team = await callApi(teamRoutes.create, { name: '报表团队' }, { token });
    session = { token, spaceId: team.id };
    const scenes = await callApi(platformRoutes.sceneList, {}, {});
    const headers = { token, 'space-id': team.id, 'scene-id': String(scenes.default_scene_id) };
    const ingest = await callApi(chatHistoryRoutes.ingestRotate, {}, headers);
    await pushSigned(ingest.url, ingest.secret, history());
  });
  afterAll(() => browser.close());

  it('draws the charts and figures of the last 7 days and exports them as CSV (zh-CN)', async () => {
    const page = await (await newContext(browser, 'zh-CN')).newPage();
    await page.goto(`/user-profile?token=${session.token}&spaceId=${session.spaceId}`);
    await openReports(page, '报表');
    // 3 + 4 + 5 + 6 + 7 sessions over five days, one a customer each.
    await expect
      .poll(() => page.getByTestId('report-kpi-sessions').locator('.ant-statistic-content').textContent())
      .toBe('25');
    await expect
      .poll(() => page.getByTestId('report-kpi-newCustomers').locator('.ant-statistic-content').textContent())
      .toBe('25');
    await page.getByTestId('report-updated').waitFor();
    // No survey was asked in this scene: the satisfaction section says so under the charts.
    await page.getByTestId('satisfaction-report-empty').getByText('这个时间范围内还没有评价').waitFor();
    await screenshot(page, 'reports-zh-CN');

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('report-export').click()]);
    expect(download.suggestedFilename()).toMatch(/^athena-report-.*\.csv$/);
    const csv = readFileSync(await download.path(), 'utf8');
    expect(csv.startsWith('\uFEFF日期,会话数,新客户,客户消息')).toBe(true);
    // A header and one line per day of the window (7 days reach into an eighth calendar day).
    expect(csv.trim().split('\r\n').length).toBeGreaterThanOrEqual(8);

    // A custom range with nothing in it says so instead of drawing empty charts.
    await page.getByTestId('report-time').click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: '1 小时' }).click();
    await page.getByTestId('report-empty').waitFor();
    await screenshot(page, 'reports-empty-zh-CN');
  });

  it('reads in English and Traditional Chinese', async () => {
    const en = await (await newContext(browser, 'en')).newPage();
    await en.goto(`/user-profile?token=${session.token}&spaceId=${session.spaceId}`);
    await openReports(en, 'Reports');
    await en.getByText('AI resolution rate').first().waitFor();
    await en.getByTestId('satisfaction-report').getByText('No ratings in this time range').waitFor();
    await screenshot(en, 'reports-en');

    const tw = await (await newContext(browser, 'zh-TW')).newPage();
    await tw.goto(`/user-profile?token=${session.token}&spaceId=${session.spaceId}`);
    await openReports(tw, '報表');
    await tw.getByText('轉人工率').first().waitFor();
    await screenshot(tw, 'reports-zh-TW');
  });

  it('works embedded in another site’s page', async () => {
    const target = { path: '/only-user-profile', pageId: 'onlyUserProfile', session };
    await inFramingSite(browser, target, async (page, frame) => {
      await frame.getByRole('tab', { name: '报表' }).click();
      await frame.locator('[data-testid="report-chart-volume"] canvas').waitFor();
      await page.waitForTimeout(500);
      await screenshot(page, 'reports-embedded-zh-CN');
    });
  });
});
