import {
  type ActivationEvent,
  activationRoutes,
  agentRoutes,
  chatHistoryRoutes,
  modelKeyRoutes,
  type ProfileCustomer,
  profileRoutes,
  teamRoutes,
} from '@athena/contract';
import { type FakeOpenAI, startFakeOpenAI } from '@athena/fake-openai';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi } from '../support/api.ts';
import { chooseOption, launchChromium, newContext, screenshot } from '../support/browser.ts';
import { apiToken, TEST_CODE } from '../support/session.ts';
import { controlWecom, until, wecomApi, wecomKfAccount, wecomSeconds } from '../support/wecom-kf.ts';

const CREATOR_PHONE = '13800000015';
/** This spec's own customer-service account: the fake WeCom is shared by the whole suite. */
const KF = 'wkAthenaE2eActivation01';
const account = wecomKfAccount({ callbackToken: 'AthenaActivation1', openKfId: KF });
/** A servicer has this customer's session in WeCom's own client, so WeCom refuses the API's messages (95018). */
const REFUSED = { external_userid: 'wmE2eLiLei', nickname: '李雷' };
const REACHED = { external_userid: 'wmE2eWangFang', nickname: '王芳' };
const AGENT_TEXT = '王芳您好！年卡活动本周开始，欢迎回来看看～';

/**
 * Messages of WeCom customers, queued at the fake and announced to the product, which pulls them;
 * then a servicer takes `servedCustomer`'s session in WeCom's client, which WeCom reports as an event.
 */
async function customersWrite(
  callbackUrl: string,
  customers: { external_userid: string }[],
  servedCustomer: { external_userid: string },
) {
  const run = Date.now().toString(36);
  await controlWecom('receive', [
    ...customers.map((customer, i) => ({
      msgid: `act-${run}-${i}`,
      open_kfid: KF,
      external_userid: customer.external_userid,
      send_time: wecomSeconds(),
      origin: 3,
      msgtype: 'text',
      text: { content: '你好，想了解一下年卡' },
    })),
    {
      msgid: `act-${run}-served`,
      open_kfid: KF,
      send_time: wecomSeconds(),
      origin: 4,
      msgtype: 'event',
      event: {
        event_type: 'session_status_change',
        open_kfid: KF,
        external_userid: servedCustomer.external_userid,
        change_type: 1,
        new_servicer_userid: 'hanmeimei',
      },
    },
  ]);
  await account.announce(callbackUrl);
}

async function openActivation(page: Page, session: { token: string; spaceId: string }) {
  await page.goto(`/user-profile?token=${session.token}&spaceId=${session.spaceId}`);
  await page.getByTestId('profile-tab-activation').click();
  await page.getByTestId('activation-tab').waitFor();
}

describe('activation events', () => {
  let browser: Browser;
  let session: { token: string; spaceId: string };
  let headers: Record<string, string>;

  beforeAll(async () => {
    browser = await launchChromium();
    const token = await apiToken(CREATOR_PHONE, TEST_CODE);
    const team = await callApi(teamRoutes.create, { name: '激活团队' }, { token });
    session = { token, spaceId: team.id };
    headers = { token, 'space-id': team.id, 'scene-id': '5' };
    await controlWecom('customer', REFUSED);
    await controlWecom('customer', REACHED);
    const connected = await callApi(chatHistoryRoutes.wecomConnect, account.credentials(), headers);
    await customersWrite(connected.callback_url ?? '', [REFUSED, REACHED], REFUSED);
    const customers = async () => (await callApi(profileRoutes.customerList, {}, headers)).items as ProfileCustomer[];
    await until(async () => (await customers()).length === 2);
    const city = await callApi(profileRoutes.fieldCreate, { name: '城市', type: 'text' }, headers);
    const wang = (await customers()).find((c) => c.name === REACHED.nickname);
    await callApi(profileRoutes.valueSet, { customer_id: wang?.id ?? '', field_id: city.id, value: '杭州' }, headers);
    const template = await callApi(
      activationRoutes.templateCreate,
      {
        name: '年卡回访',
        mode: 'template',
        body: '{{customer_name}}您好，{{城市|您所在城市}}的年卡活动本周开始，回复"年卡"了解详情。',
      },
      headers,
    );
    // WeCom refuses the send to the customer a servicer has (the session state forbids it): that
    // customer fails with the reason. Only this spec's customer: the fake serves every spec.
    const event = await callApi(
      activationRoutes.eventCreate,
      { name: '年卡回访 · 三月', template_id: template.id, audience: {} },
      headers,
    );
    await until(
      async () =>
        ((await callApi(activationRoutes.eventGet, { id: event.id }, headers)) as ActivationEvent).status === 'done',
    );
  });
  afterAll(() => browser.close());

  for (const [locale, names] of [
    [
      'zh-CN',
      {
        done: '已完成',
        sent: '已发送',
        failed: '失败',
        refused: '企业微信拒绝了这条消息',
        refusedWhy: '企业微信不允许在该会话当前状态下发送',
        notDelivered: '未送达',
        count: '将发送给 2 位客户。',
        one: '将发送给 1 位客户。',
      },
    ],
    [
      'zh-TW',
      {
        done: '已完成',
        sent: '已發送',
        failed: '失敗',
        refused: '企業微信拒絕了這則訊息',
        refusedWhy: '企業微信不允許在此對話目前的狀態下發送',
        notDelivered: '未送達',
        count: '將發送給 2 位客戶。',
        one: '將發送給 1 位客戶。',
      },
    ],
    [
      'en',
      {
        done: 'Done',
        sent: 'Sent',
        failed: 'Failed',
        refused: 'WeCom refused the message',
        refusedWhy: "WeCom does not allow sending in this conversation's current state",
        notDelivered: 'Not delivered',
        count: 'Customers receiving it: 2',
        one: 'Customers receiving it: 1',
      },
    ],
  ] as const) {
    it(`lists events, shows each customer's state and reason, and counts a new audience (${locale})`, async () => {
      const page = await (await newContext(browser, locale)).newPage();
      // Every call the tab makes is answered with code 0: before an event is opened there is no
      // event whose sends to read (it asked with an empty id and was refused, 40000).
      const refusals: string[] = [];
      page.on('response', async (response) => {
        if (!response.url().includes('/api/athena/v1/profile/activation/')) return;
        const body = (await response.json().catch(() => null)) as { code?: number } | null;
        if (body?.code !== 0) refusals.push(`${new URL(response.url()).pathname}: ${JSON.stringify(body)}`);
      });
      await openActivation(page, session);
      await page.getByTestId('activation-events').getByText('年卡回访 · 三月').waitFor();
      await page.getByTestId('activation-status-done').first().waitFor();
      await screenshot(page, `activation-list-${locale}`);
      expect(refusals).toEqual([]);

      await page.getByTestId('activation-events').getByText('年卡回访 · 三月').click();
      const sends = page.getByTestId('activation-sends');
      await sends.getByText(REACHED.nickname, { exact: true }).waitFor();
      await sends.getByText(names.refused, { exact: false }).waitFor();
      await sends.getByText(names.refusedWhy, { exact: false }).waitFor();
      // What each customer got, and what WeCom refused, as it stands in the chat.
      await sends
        .getByTestId('activation-send-text')
        .getByText('的年卡活动本周开始', { exact: false })
        .first()
        .waitFor();
      expect(await sends.getByTestId('activation-send-text').count()).toBe(2);
      expect(
        await sends.getByTestId('activation-send-text').getByText(names.notDelivered, { exact: false }).count(),
      ).toBe(1);
      expect(await sends.getByText(names.sent, { exact: true }).count()).toBe(1);
      expect(await sends.getByText(names.failed, { exact: true }).count()).toBe(1);
      await screenshot(page, `activation-event-${locale}`);
      await page.locator('.ant-drawer-open .ant-drawer-close').last().click();

      await page.getByTestId('activation-new').click();
      await page.getByTestId('activation-event-name').fill('周末提醒');
      await chooseOption(page, page.getByTestId('activation-event-template'));
      await expect.poll(() => page.getByTestId('activation-audience-count').textContent()).toBe(names.count);
      await screenshot(page, `activation-create-${locale}`);
      // Chosen customers are found by the customer list's search, not only among the page's rows.
      await page.getByTestId('activation-audience-kind').locator('label').nth(1).click();
      await page.getByTestId('activation-event-customers').locator('input').fill('王');
      await page
        .locator('.ant-select-dropdown:visible .ant-select-item-option')
        .filter({ hasText: REACHED.nickname })
        .click();
      await expect.poll(() => page.getByTestId('activation-audience-count').textContent()).toBe(names.one);
      await screenshot(page, `activation-choose-${locale}`);
      await page.getByTestId('activation-event-name').click();
      await page.locator('.ant-modal-close').click();
      await page.getByTestId('activation-event-name').waitFor({ state: 'hidden' });

      await page.getByTestId('activation-templates-open').click();
      await page.getByTestId('activation-template-row').first().waitFor();
      await screenshot(page, `activation-templates-${locale}`);
      await page.locator('.ant-drawer-open .ant-drawer-close').last().click();

      // The customer's own sends, in their drawer.
      await page.getByRole('tab').first().click();
      await page.locator(`[data-testid="profile-customer-row"][data-name="${REACHED.nickname}"]`).click();
      await page.getByTestId('customer-activation-tab').click();
      await page.getByTestId('customer-activation-sends').getByText('年卡回访 · 三月').waitFor();
      await screenshot(page, `activation-customer-${locale}`);
      await page.close();
    });
  }

  it("has the scene's agent write the message of an event made in the dialog, and shows what the customer got", async () => {
    const fake: FakeOpenAI = await startFakeOpenAI({ tokenDelayMs: 0 });
    try {
      const key = { model_name: '测试模型', version: 'fake-chat', base_url: fake.url, api_key: fake.apiKey };
      await callApi(modelKeyRoutes.create, { ...key, purpose: 'chat' }, headers);
      const agent = await callApi(agentRoutes.create, { name: '回访助手' }, headers);
      await callApi(chatHistoryRoutes.replyUpdate, { mode: 'human', agent_id: agent.id }, headers);
      await callApi(
        activationRoutes.templateCreate,
        { name: '智能回访', mode: 'agent', body: '邀请客户回来看看年卡活动，语气亲切' },
        headers,
      );
      fake.queueReplies(AGENT_TEXT);
      const page = await (await newContext(browser, 'zh-CN')).newPage();
      await openActivation(page, session);
      await page.getByTestId('activation-new').click();
      await page.getByTestId('activation-event-name').fill('智能回访 · 王芳');
      await chooseOption(page, page.getByTestId('activation-event-template'), '智能回访');
      await page.getByTestId('activation-audience-kind').locator('label').nth(1).click();
      await page.getByTestId('activation-event-customers').locator('input').fill('王芳');
      await page
        .locator('.ant-select-dropdown:visible .ant-select-item-option')
        .filter({ hasText: REACHED.nickname })
        .click();
      await page.getByTestId('activation-event-name').click();
      await page.locator('#activation-create-confirm').click();
      // The new event's drawer opens; it shows the agent's message once it is sent.
      const sends = page.getByTestId('activation-sends');
      await sends.getByText(AGENT_TEXT).waitFor({ timeout: 30_000 });
      await screenshot(page, 'activation-agent-zh-CN');
      await page.close();
    } finally {
      await fake.close();
    }
  });

  it('sends what was composed: one message to the customer WeCom accepted, none twice', async () => {
    const res = await fetch(`${wecomApi().url}/__control/sent`);
    const { sent } = (await res.json()) as { sent: { touser?: string; text?: { content: string } }[] };
    const ours = sent.filter((m) => m.touser === REACHED.external_userid || m.touser === REFUSED.external_userid);
    // WeCom took none to the customer a servicer has, and each message to the other once.
    expect(ours.map((m) => m.touser)).toEqual([REACHED.external_userid, REACHED.external_userid]);
    expect(ours[0]?.text?.content).toBe('王芳您好，杭州的年卡活动本周开始，回复"年卡"了解详情。');
    expect(ours[1]?.text?.content).toBe(AGENT_TEXT);
  });
});
