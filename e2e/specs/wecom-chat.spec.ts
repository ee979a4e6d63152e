import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { agentRoutes, type ChatSendType, modelKeyRoutes, teamRoutes } from '@athena/contract';
import { type FakeOpenAI, startFakeOpenAI } from '@athena/fake-openai';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi } from '../support/api.ts';
import { baseUrl, chooseOption, clickWhenSettled, launchChromium, newContext, screenshot } from '../support/browser.ts';
import { apiToken, TEST_CODE } from '../support/session.ts';
import { controlWecom, WECOM_AES_KEY, wecomApi, wecomKfAccount, wecomSeconds } from '../support/wecom-kf.ts';

const CREATOR_PHONE = '13800000008';
const AGENT_NAME = '售后助手';
/** What the team's admin makes up and pastes into WeCom's console next to the callback URL. */
const CALLBACK_TOKEN = 'AthenaE2eToken01';
/** The WeCom customer-service account (open_kfid) the customer writes to. */
const KF = 'wkAthenaE2eKf0001';
const CUSTOMER = { external_userid: 'wmE2eChenJing', nickname: '陈静' };
/** The account's name in WeCom's console, which the conversation's channel shows. */
const KF_NAME = '耳机售后客服';

const QUESTION = '你好，我上周买的耳机还没发货，能帮我查一下吗？';
const COLOUR_QUESTION = '另外，这款耳机有白色的吗？';
const HUMAN_REPLY = '您好，我马上帮您查询订单。';
/** The fake model answers "Echo: " and the customer's last message. */
const echoOf = (text: string) => `Echo: ${text}`;
const ASSISTED_REPLY = `${echoOf(COLOUR_QUESTION)} 白色有货，今天下单明天发。`;
const FOLLOW_UP = '好的，谢谢！耳机支持无线充电吗？';
const INVOICE_QUESTION = '请问怎么开发票？';
const INVOICE_SCRIPT = '发票请在订单详情页申请，我们会在 3 个工作日内开具。';

/** The texts WeCom accepted from the product through `kf/send_msg`, oldest first. */
async function textsSentToWecom(): Promise<string[]> {
  const res = await fetch(`${wecomApi().url}/__control/sent`);
  const { sent } = (await res.json()) as {
    sent: { touser?: string; open_kfid?: string; text?: { content: string } }[];
  };
  // The fake serves every spec: only what went through this spec's account is this spec's, and
  // every one of those goes to its one customer.
  const ours = sent.filter((message) => message.open_kfid === KF);
  for (const message of ours) expect(message).toMatchObject({ touser: CUSTOMER.external_userid });
  return ours.map((message) => message.text?.content ?? '');
}

const account = wecomKfAccount({ callbackToken: CALLBACK_TOKEN, openKfId: KF });

/** WeCom checking the callback URL the admin saved in its console: a signed, encrypted echostr (GET). */
async function checkCallbackUrl(callbackUrl: string) {
  const timestamp = String(wecomSeconds());
  const echo = '4930571294561385714';
  const sealed = account.crypt().seal(echo, timestamp, 'urlcheck');
  const query = new URLSearchParams({ msg_signature: sealed.msg_signature, timestamp, nonce: 'urlcheck' });
  query.set('echostr', sealed.encrypt);
  const res = await fetch(`${callbackUrl}?${query}`);
  expect(res.status).toBe(200);
  expect(await res.text()).toBe(echo);
}

let customerMessages = 0;
/** The customer sends a message in WeChat: WeCom queues it for `sync_msg` and pushes the callback. */
async function customerSends(callbackUrl: string, body: Record<string, unknown>) {
  customerMessages += 1;
  await controlWecom('receive', [
    {
      msgid: `e2e-in-${customerMessages}`,
      open_kfid: KF,
      external_userid: CUSTOMER.external_userid,
      send_time: wecomSeconds(),
      origin: 3,
      ...body,
    },
  ]);
  await account.announce(callbackUrl);
}

const customerWrites = (callbackUrl: string, content: string) =>
  customerSends(callbackUrl, { msgtype: 'text', text: { content } });

/** A voice message: a real AMR-NB recording, as WeCom's media/get serves it. */
async function customerSpeaks(callbackUrl: string) {
  const amr = readFileSync(createRequire(import.meta.url).resolve('benz-amr-recorder/res/mario.amr'));
  await controlWecom('media', { media_id: 'E2E_VOICE', base64: amr.toString('base64'), content_type: 'voice/amr' });
  await customerSends(callbackUrl, { msgtype: 'voice', voice: { media_id: 'E2E_VOICE' } });
}

/** A stored message of the open thread (not a placeholder still on its way), by send type and text. */
const storedMessage = (page: Page, sendType: ChatSendType, text: string) =>
  page
    .locator(`[data-testid="chat-message"][data-send-type="${sendType}"]:not([data-id^="pending-"])`)
    .filter({ hasText: text });

/**
 * Waits for a reply of ours to show in the thread, sent (no spinner, no failure mark), with its
 * send-type tag. An automatic reply is stored as sending before WeCom is asked, and the page may
 * read it then: it shows the spinner until the send's outcome reaches the page, live.
 */
async function expectSentReply(page: Page, sendType: ChatSendType, text: string, tag: string) {
  const message = storedMessage(page, sendType, text);
  await message.waitFor();
  await expect.poll(() => message.getAttribute('data-status')).toBe('sent');
  expect(await message.getByTestId('chat-sending').count()).toBe(0);
  expect(await message.getByTestId('chat-failed').count()).toBe(0);
  expect(await message.getByTestId('chat-send-type').textContent()).toBe(tag);
}

/** Opens the reply-settings drawer, lets `change` set fields, saves, and waits for it to close. */
async function changeReplySettings(page: Page, change: (drawer: Locator) => Promise<void>) {
  await page.getByTestId('chat-reply-settings').click();
  const drawer = page.getByTestId('chat-reply-drawer');
  await drawer.getByTestId('chat-reply-form').waitFor();
  await change(drawer);
  await clickWhenSettled(page, 'chat-reply-save');
  await page.getByText('回复设置已保存').waitFor();
  await drawer.getByTestId('chat-reply-form').waitFor({ state: 'detached' });
}

/** Shows the WeCom customer-service scene (5), unless the page shows it already. */
async function showWecomScene(page: Page) {
  await page.getByTestId('page-chatHistory').waitFor();
  const shown = await page.evaluate(() => localStorage.getItem('athena.sceneId'));
  if (shown !== '5') await chooseOption(page, page.getByTestId('chat-scene'), '企业微信客服');
  await expect.poll(() => page.evaluate(() => localStorage.getItem('athena.sceneId'))).toBe('5');
}

describe('WeCom customer service in chat history', () => {
  let browser: Browser;
  let openai: FakeOpenAI;
  let session: { token: string; spaceId: string };
  const chatHistoryPath = () => `/chat-history?token=${session.token}&spaceId=${session.spaceId}`;

  beforeAll(async () => {
    openai = await startFakeOpenAI({ tokenDelayMs: 0 });
    browser = await launchChromium();
    const token = await apiToken(CREATOR_PHONE, TEST_CODE);
    const team = await callApi(teamRoutes.create, { name: '耳机旗舰店' }, { token });
    session = { token, spaceId: team.id };
    // The AI modes need an agent of the team, which answers with the team's chat model key.
    const headers = { token, 'space-id': team.id };
    await callApi(
      modelKeyRoutes.create,
      { model_name: '测试模型', version: 'fake-chat', base_url: openai.url, api_key: openai.apiKey, purpose: 'chat' },
      headers,
    );
    await callApi(agentRoutes.create, { name: AGENT_NAME }, headers);
    // WeCom names the customer and the account when the product asks (kf/customer/batchget, kf/account/list).
    await controlWecom('customer', CUSTOMER);
    await controlWecom('account', { open_kfid: KF, name: KF_NAME });
  });
  afterAll(async () => {
    await browser?.close();
    await openai?.close();
  });

  it('connects an account, shows a customer live, and replies by hand, with the agent and by script', async () => {
    const page = await (await newContext(browser, 'zh-CN')).newPage();
    // The page opens the WeCom scene's live stream while it loads (after the scene is chosen); it
    // must be open before the customer writes.
    let liveRequested = false;
    page.on('request', (request) => {
      if (request.url().endsWith('/api/athena/v1/chat/live') && request.headers()['scene-id'] === '5') {
        liveRequested = true;
      }
    });
    await page.goto(chatHistoryPath());
    await showWecomScene(page);
    await page.getByTestId('chat-no-history').waitFor();

    // 1. The creator connects the account with the credentials from WeCom's console.
    await page.getByTestId('chat-connect').click();
    const connectDrawer = page.getByTestId('chat-connect-drawer');
    const form = connectDrawer.getByTestId('chat-wecom-form');
    await form.waitFor();
    await form.getByTestId('chat-wecom-corpid').fill(wecomApi().corpId);
    await form.getByTestId('chat-wecom-secret').fill(wecomApi().secret);
    await form.getByTestId('chat-wecom-token').fill(CALLBACK_TOKEN);
    await form.getByTestId('chat-wecom-aes-key').fill(WECOM_AES_KEY);
    await form.getByTestId('chat-wecom-connect').click();
    await connectDrawer.getByTestId('chat-wecom-connected').waitFor();
    const callbackUrl = await connectDrawer.getByTestId('chat-wecom-url').inputValue();
    expect(callbackUrl).toMatch(new RegExp(`^${baseUrl()}/hooks/wecom/[A-Za-z0-9_-]{32}$`));
    await connectDrawer.getByTestId('chat-wecom-unverified').waitFor();

    // The admin pastes the URL into WeCom, which checks it; the open drawer says so by itself.
    await checkCallbackUrl(callbackUrl);
    await connectDrawer.getByTestId('chat-wecom-verified').waitFor();
    expect(await connectDrawer.getByTestId('chat-wecom-state').textContent()).toBe('已接入');
    expect(await connectDrawer.getByTestId('chat-wecom-url').inputValue()).toBe(callbackUrl);
    await screenshot(page, 'wecom-connected-zh-CN');
    await page.keyboard.press('Escape');
    await connectDrawer.getByTestId('chat-wecom-connected').waitFor({ state: 'detached' });

    // 2. A customer writes; the open page shows the conversation by itself. A mark on the window
    // proves it was not reloaded.
    await expect.poll(() => liveRequested).toBe(true);
    // The live stream subscribes a moment after its request leaves the browser.
    await page.waitForTimeout(500);
    await page.evaluate(() => Object.assign(window, { __notReloaded: true }));
    await customerWrites(callbackUrl, QUESTION);
    const row = page.getByTestId('chat-conversation').filter({ hasText: CUSTOMER.nickname });
    await row.waitFor();
    expect(await row.getByTestId('chat-conversation-preview').textContent()).toContain(QUESTION);
    // The channel is the account, by the name WeCom's console gives it.
    await row.getByText(KF_NAME).waitFor();
    expect(await page.evaluate(() => '__notReloaded' in window)).toBe(true);
    await row.click();
    await page.getByTestId('chat-thread-title').filter({ hasText: CUSTOMER.nickname }).waitFor();
    await page.locator('[data-testid="chat-message"][data-send-type="user"]').filter({ hasText: QUESTION }).waitFor();
    await screenshot(page, 'wecom-live-conversation-zh-CN');

    // A voice message (WeCom sends AMR, which no browser plays): the page plays it, all 89 s.
    await customerSpeaks(callbackUrl);
    const voice = page.locator('[data-testid="chat-audio"] audio');
    await voice.waitFor();
    await voice.evaluate((audio: HTMLAudioElement) => audio.load());
    await expect.poll(() => voice.evaluate((audio: HTMLAudioElement) => audio.duration)).toBeGreaterThan(88);
    await screenshot(page, 'wecom-voice-zh-CN');

    // 3a. Human: typed and sent with Enter.
    const composer = page.getByTestId('chat-composer-input');
    await composer.fill(HUMAN_REPLY);
    await composer.press('Enter');
    await expectSentReply(page, 'human', HUMAN_REPLY, '人工');
    await expect.poll(textsSentToWecom).toEqual([HUMAN_REPLY]);

    // 3b. AI assisted, with the agent set: the customer's next message gets the agent's draft in the
    // composer by itself; the person edits and sends it.
    await changeReplySettings(page, async (drawer) => {
      await drawer.getByTestId('chat-reply-mode-ai_assisted').click();
      await chooseOption(page, drawer.getByTestId('chat-reply-agent'), AGENT_NAME);
    });
    await customerWrites(callbackUrl, COLOUR_QUESTION);
    await expect.poll(() => composer.inputValue()).toBe(echoOf(COLOUR_QUESTION));
    await page.getByTestId('chat-composer-assisted').waitFor();
    await composer.fill(ASSISTED_REPLY);
    await page.getByTestId('chat-composer-send').click();
    await expectSentReply(page, 'ai_assisted', ASSISTED_REPLY, 'AI 辅助');
    await expect.poll(textsSentToWecom).toEqual([HUMAN_REPLY, ASSISTED_REPLY]);
    expect(await composer.inputValue()).toBe('');

    // 3c. A draft asked for by hand replaces the box; AI manual: the agent answers now, as is.
    await page.getByTestId('chat-composer-draft').click();
    await expect.poll(() => composer.inputValue()).toBe(echoOf(COLOUR_QUESTION));
    await composer.fill('');
    await page.getByTestId('chat-composer-ai-reply').click();
    await expectSentReply(page, 'ai_manual', echoOf(COLOUR_QUESTION), 'AI 手动');
    await expect.poll(textsSentToWecom).toEqual([HUMAN_REPLY, ASSISTED_REPLY, echoOf(COLOUR_QUESTION)]);

    // 3d. AI full, with a keyword script: the agent answers the next message by itself...
    await changeReplySettings(page, async (drawer) => {
      await drawer.getByTestId('chat-reply-mode-ai_full').click();
      await drawer.getByTestId('chat-reply-keyword-add').click();
      const script = drawer.getByTestId('chat-reply-keyword-row');
      await script.locator('.ant-select input').fill('发票');
      await script.locator('.ant-select input').press('Enter');
      await script.locator('textarea').fill(INVOICE_SCRIPT);
    });
    await customerWrites(callbackUrl, FOLLOW_UP);
    await expectSentReply(page, 'ai_full', echoOf(FOLLOW_UP), 'AI 全托管');
    await expect.poll(textsSentToWecom).toContain(echoOf(FOLLOW_UP));

    // 3e. ...and a message with the script's keyword gets the script (fixed), not the agent.
    await customerWrites(callbackUrl, INVOICE_QUESTION);
    await expectSentReply(page, 'fixed', INVOICE_SCRIPT, '固定话术');
    await expect
      .poll(textsSentToWecom)
      .toEqual([HUMAN_REPLY, ASSISTED_REPLY, echoOf(COLOUR_QUESTION), echoOf(FOLLOW_UP), INVOICE_SCRIPT]);

    // The whole thread, in order, with each reply's send type.
    const thread = await page
      .locator('[data-testid="chat-message"]')
      .evaluateAll((items) => items.map((item) => item.getAttribute('data-send-type')));
    expect(thread).toEqual([
      'user',
      'user',
      'human',
      'user',
      'ai_assisted',
      'ai_manual',
      'user',
      'ai_full',
      'user',
      'fixed',
    ]);
    expect(await page.evaluate(() => '__notReloaded' in window)).toBe(true);
    await screenshot(page, 'wecom-thread-zh-CN');
    await page.context().close();
  });

  it('shows the same thread in English and Traditional Chinese', async () => {
    for (const [locale, tag] of [
      ['en', 'AI full'],
      ['zh-TW', 'AI 全託管'],
    ] as const) {
      const page = await (await newContext(browser, locale)).newPage();
      await page.goto(chatHistoryPath());
      await page.getByTestId('chat-conversation').filter({ hasText: CUSTOMER.nickname }).click();
      await storedMessage(page, 'fixed', INVOICE_SCRIPT).waitFor();
      expect(await storedMessage(page, 'ai_full', echoOf(FOLLOW_UP)).getByTestId('chat-send-type').textContent()).toBe(
        tag,
      );
      await screenshot(page, `wecom-thread-${locale}`);
      await page.context().close();
    }
  });
});
