import { createHmac } from 'node:crypto';
import {
  behaviourRoutes,
  chatHistoryRoutes,
  type SatisfactionSurvey,
  teamRoutes,
  WORKFLOW_SIGNATURE_HEADER,
} from '@athena/contract';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi } from '../support/api.ts';
import { chooseOption, launchChromium, newContext, screenshot } from '../support/browser.ts';
import { apiToken, TEST_CODE } from '../support/session.ts';
import { controlWecom, until, wecomKfAccount, wecomSeconds } from '../support/wecom-kf.ts';

const CREATOR_PHONE = '13800000014';
/** This spec's own customer-service account: the fake WeCom is shared by the whole suite. */
const KF = 'wkAthenaE2eBehaviour01';
const account = wecomKfAccount({ callbackToken: 'AthenaBehaviour01', openKfId: KF });
const CUSTOMER = { external_userid: 'wmE2eZhouMin', nickname: '周敏' };

/** WeCom queues the entries and announces them (`kf_msg_or_event`); the product then pulls them. */
async function wecomSends(callbackUrl: string, entries: Record<string, unknown>[]) {
  await controlWecom('receive', entries);
  await account.announce(callbackUrl);
}

const RUN = Date.now().toString(36);
let entries = 0;
const nextId = () => {
  entries += 1;
  return `beh-${RUN}-${entries}`;
};
const base = (origin: number) => ({
  msgid: nextId(),
  open_kfid: KF,
  external_userid: CUSTOMER.external_userid,
  send_time: wecomSeconds(),
  origin,
});
const text = (content: string, menuId?: string) => ({
  ...base(3),
  msgtype: 'text',
  text: { content, ...(menuId ? { menu_id: menuId } : {}) },
});
const event = (body: Record<string, unknown>) => ({
  ...base(4),
  msgtype: 'event',
  event: { open_kfid: KF, external_userid: CUSTOMER.external_userid, ...body },
});

/** Opens the customer's drawer on the user-profile page. */
async function openCustomer(page: Page, session: { token: string; spaceId: string }) {
  await page.goto(`/user-profile?token=${session.token}&spaceId=${session.spaceId}`);
  await page.locator(`[data-testid="profile-customer-row"][data-name="${CUSTOMER.nickname}"]`).click();
  await page.getByTestId('profile-customer').waitFor();
}

describe('customer behaviour and satisfaction', () => {
  let browser: Browser;
  let session: { token: string; spaceId: string };

  beforeAll(async () => {
    browser = await launchChromium();
    const token = await apiToken(CREATOR_PHONE, TEST_CODE);
    const team = await callApi(teamRoutes.create, { name: '行为团队' }, { token });
    session = { token, spaceId: team.id };
    const headers = { token, 'space-id': team.id, 'scene-id': '5' };
    await controlWecom('customer', CUSTOMER);
    const connected = await callApi(chatHistoryRoutes.wecomConnect, account.credentials(), headers);
    const callbackUrl = connected.callback_url ?? '';
    await callApi(
      behaviourRoutes.satisfactionSettingsUpdate,
      {
        enabled: true,
        head: '请对本次服务进行评价',
        options: ['非常满意', '满意', '一般', '不满意', '非常不满意'].map((label, i) => ({ score: 5 - i, label })),
      },
      headers,
    );

    // A session: the customer enters, taps a menu, a servicer takes it, the session ends.
    await wecomSends(callbackUrl, [
      event({ event_type: 'enter_session', welcome_code: 'WELCOME-E2E' }),
      text('你好，我想看看年卡'),
      text('会员权益', 'menu-benefits'),
      event({ event_type: 'session_status_change', change_type: 1, new_servicer_userid: 'wangfang' }),
      event({ event_type: 'session_status_change', change_type: 3, msg_code: 'END-E2E-1' }),
    ]);
    const surveys = async () =>
      (await callApi(behaviourRoutes.satisfactionList, {}, headers)).items as SatisfactionSurvey[];
    await until(async () => (await surveys()).length === 1);
    const [survey] = await surveys();
    // The customer taps "满意" in the menu WeCom showed them.
    await wecomSends(callbackUrl, [text('满意', `sat:${survey.id}:4`)]);
    await until(async () => (await surveys())[0].state === 'rated');

    // The channel reports a purchase and a link opened through the scene's ingest URL.
    const ingest = await callApi(chatHistoryRoutes.ingestRotate, {}, headers);
    const body = JSON.stringify({
      events: [
        {
          event_id: 'e2e-buy-1',
          customer_id: CUSTOMER.external_userid,
          kind: 'purchase',
          name: '年卡',
          occurred_at: Date.now(),
          amount_fen: 29_900,
        },
        {
          event_id: 'e2e-link-1',
          customer_id: CUSTOMER.external_userid,
          kind: 'link_open',
          name: '年卡介绍',
          occurred_at: Date.now() - 60_000,
          url: 'https://shop.example.com/annual',
        },
      ],
    });
    const t = wecomSeconds();
    const v1 = createHmac('sha256', ingest.secret).update(`${t}.`).update(body).digest('hex');
    const res = await fetch(`${ingest.url}/behaviour`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [WORKFLOW_SIGNATURE_HEADER]: `t=${t},v1=${v1}` },
      body,
    });
    expect(await res.json()).toEqual({ stored: 2, duplicates: 0, unknown_customers: [] });
  });
  afterAll(() => browser.close());

  for (const [locale, names] of [
    [
      'zh-CN',
      { behaviour: '行为数据', satisfaction: '满意度', purchase: '购买', rated: '满意', settings: '满意度设置' },
    ],
    [
      'zh-TW',
      { behaviour: '行為資料', satisfaction: '滿意度', purchase: '購買', rated: '满意', settings: '滿意度設定' },
    ],
    [
      'en',
      {
        behaviour: 'Behaviour',
        satisfaction: 'Satisfaction',
        purchase: 'Purchase',
        rated: '满意',
        settings: 'Satisfaction',
      },
    ],
  ] as const) {
    it(`shows the behaviour timeline and the rating (${locale})`, async () => {
      const page = await (await newContext(browser, locale)).newPage();
      await openCustomer(page, session);
      await page.getByRole('tab', { name: names.behaviour }).click();
      await page.getByTestId('behaviour').waitFor();
      const kinds = () =>
        page.getByTestId('behaviour-event').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-kind')).sort());
      // Entering, the menu tap, the end and the rating's tap from WeCom; the purchase and the link from the channel.
      await expect
        .poll(kinds)
        .toEqual(['link_open', 'menu_click', 'menu_click', 'purchase', 'session_end', 'session_start']);
      await page.getByText('¥299.00').waitFor();
      await screenshot(page, `behaviour-${locale}`);
      await page.getByRole('tab', { name: names.satisfaction }).click();
      await page.locator('[data-testid="satisfaction-survey"][data-state="rated"]').waitFor();
      await page.getByTestId('satisfaction-list').getByText(names.rated, { exact: true }).waitFor();
      await screenshot(page, `satisfaction-${locale}`);
      await page.locator('.ant-drawer-open .ant-drawer-close').last().click();
      await page.getByTestId('satisfaction-open').click();
      await page.getByTestId('satisfaction-head').waitFor();
      await screenshot(page, `satisfaction-settings-${locale}`);
      await page.context().close();
    });
  }
  for (const [locale, words] of [
    [
      'zh-CN',
      { satisfied: '满意（4–5 分）', unsatisfied: '不满意（1–2 分）', reports: '报表', noAgent: '未设置智能体' },
    ],
    ['en', { satisfied: 'Satisfied (4–5)', unsatisfied: 'Unsatisfied (1–2)', reports: 'Reports', noAgent: 'No agent' }],
    [
      'zh-TW',
      { satisfied: '滿意（4–5 分）', unsatisfied: '不滿意（1–2 分）', reports: '報表', noAgent: '未設定智慧體' },
    ],
  ] as const) {
    it(`finds the customer by their rating and shows the ratings per servicer in the report (${locale})`, async () => {
      const page = await (await newContext(browser, locale)).newPage();
      await page.goto(`/user-profile?token=${session.token}&spaceId=${session.spaceId}`);
      const rows = page.getByTestId('profile-customer-row');
      await rows.first().waitFor();
      // The customer's rating was 4: satisfied, not unsatisfied.
      const pick = (label: string) => chooseOption(page, page.getByTestId('profile-filter-satisfaction'), label);
      await pick(words.unsatisfied);
      await expect.poll(() => rows.count()).toBe(0);
      await pick(words.satisfied);
      await expect
        .poll(() => rows.evaluateAll((list) => list.map((row) => row.getAttribute('data-name'))))
        .toEqual([CUSTOMER.nickname]);
      if (locale === 'zh-CN') await screenshot(page, 'profile-satisfaction-filter-zh-CN');

      await page.getByRole('tab', { name: words.reports }).click();
      const section = page.getByTestId('satisfaction-report');
      await section.getByTestId('satisfaction-servicer-row').first().waitFor();
      // One rating of 4, by the servicer who took the session; no reply agent was set.
      const servicer = page.locator('[data-testid="satisfaction-servicer-row"][data-key="wangfang"]');
      expect(await servicer.locator('td').allTextContents()).toEqual(['wangfang', '1', '4.00', '', '100%']);
      const agent = page.locator('[data-testid="satisfaction-agent-row"]');
      expect(await agent.locator('td').first().textContent()).toBe(words.noAgent);
      await expect.poll(() => page.getByTestId('satisfaction-latest-row').count()).toBe(1);
      expect(await page.getByTestId('satisfaction-latest-row').getAttribute('data-state')).toBe('rated');
      // settled() watches CSS animations, not ECharts' canvas ones: let the bars finish growing.
      await page.locator('[data-testid="report-chart-volume"] canvas').waitFor();
      await page.waitForTimeout(1000);
      await screenshot(page, `satisfaction-report-${locale}`);

      // The latest rating's customer opens their profile.
      await page.getByTestId('satisfaction-latest-customer').click();
      await expect.poll(() => page.getByTestId('profile-customer-name').textContent()).toBe(CUSTOMER.nickname);
      // Each test's page goes with it: open pages keep reading (live lists, reports) and slow the next.
      await page.context().close();
    });
  }
});
