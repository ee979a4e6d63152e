import { agentRoutes, chatHistoryRoutes, type IngestMessage, teamRoutes } from '@athena/contract';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi } from '../support/api.ts';
import { baseUrl, chooseOption, launchChromium, newContext, screenshot } from '../support/browser.ts';
import { ingestMessage, pushSigned } from '../support/chat-ingest.ts';
import { inFramingSite } from '../support/embed.ts';
import { apiToken, TEST_CODE } from '../support/session.ts';

const CREATOR_PHONE = '13800000007';
const CUSTOMER = '王小明';
const GROUP = '售后交流群';

const wang = { id: 'cust-wang', name: CUSTOMER, avatar_url: null };
const privateChat = { id: 'conv-wang', chat_type: 'private', name: '' } as const;
const groupChat = { id: 'conv-group', chat_type: 'group', name: GROUP } as const;

/** One message of a batch, as a channel sends it (sent `ago` ms before now). */
const message = (id: string, ago: number, fields: Partial<IngestMessage>): IngestMessage =>
  ingestMessage(ago, { msg_id: id, conversation: privateChat, customer: wang, sender_name: CUSTOMER, ...fields });

/** Two conversations: a private one with a picture and a kind nobody knows, and a group chat. */
const batch = (): IngestMessage[] => [
  message('e2e-1', 60_000, { content: '你好，我想咨询一下退货流程' }),
  message('e2e-2', 50_000, { send_type: 'human', sender_name: '客服小美', content: '您好，请在订单详情里申请售后。' }),
  // Same-origin picture: the page's Content-Security-Policy allows it, and it really loads.
  message('e2e-3', 40_000, { kind: 11042, payload: { url: `${baseUrl()}/favicon.svg`, width: 64, height: 64 } }),
  message('e2e-4', 30_000, { kind: 99999 }),
  message('e2e-5', 20_000, {
    conversation: groupChat,
    customer: { id: 'cust-li', name: '李雷', avatar_url: null },
    sender_name: '李雷',
    content: '群里有人知道发票怎么开吗',
  }),
  message('e2e-6', 10_000, {
    conversation: groupChat,
    customer: null,
    send_type: 'ai_full',
    sender_name: 'AI 助手',
    content: '发票可以在订单页面申请。',
  }),
];

const rows = (page: Page) => page.getByTestId('chat-conversation');
const titles = async (page: Page) =>
  (await rows(page).evaluateAll((items) => items.map((item) => item.getAttribute('data-title')))).sort();

describe('chat history', () => {
  let browser: Browser;
  let session: { token: string; spaceId: string };

  beforeAll(async () => {
    browser = await launchChromium();
    const token = await apiToken(CREATOR_PHONE, TEST_CODE);
    const team = await callApi(teamRoutes.create, { name: '客服中心' }, { token });
    session = { token, spaceId: team.id };
  });
  afterAll(() => browser.close());

  it('connects a channel, shows its messages live, opens and filters them', async () => {
    const page = await (await newContext(browser, 'zh-CN')).newPage();
    const live = page.waitForRequest((request) => request.url().endsWith('/api/athena/v1/chat/live'));
    await page.goto(`/chat-history?token=${session.token}&spaceId=${session.spaceId}`);

    // A new team's scene has nothing yet: the creator turns the ingest address on from the page.
    await page.getByTestId('chat-no-history').waitFor();
    await page.getByTestId('chat-ingest-create').click();
    const secret = await page.getByTestId('chat-ingest-secret').inputValue();
    const url = await page.getByTestId('chat-ingest-url').inputValue();
    expect(secret).toMatch(/^athena_chat_/);
    expect(url).toMatch(/\/hooks\/chat\/[\w-]+$/);
    await page.getByText('请立即复制：密钥只显示这一次').waitFor();

    // The page follows the scene's live changes: the batch shows up without a reload.
    await live;
    // The live stream subscribes a moment after its request leaves the browser.
    await page.waitForTimeout(500);
    expect(await pushSigned(url, secret, batch())).toEqual({ stored: 6, duplicates: 0 });
    await rows(page).first().waitFor();
    await expect.poll(() => titles(page)).toEqual([GROUP, CUSTOMER].sort());

    // Opening the private chat: the picture loads, the unknown kind is said, not dropped.
    await rows(page).filter({ hasText: CUSTOMER }).click();
    await page.getByTestId('chat-thread').waitFor();
    const image = page.locator('[data-testid="chat-image"] img');
    await image.waitFor();
    await expect.poll(() => image.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
    const unknown = page.getByTestId('chat-unknown');
    expect(await unknown.getAttribute('data-kind')).toBe('99999');
    expect(await unknown.textContent()).toContain('99999');
    await page.getByTestId('chat-thread-title').filter({ hasText: CUSTOMER }).waitFor();
    await screenshot(page, 'chat-history-thread-zh-CN');

    // Keyword (Chinese): only the conversation that said it, the hit marked, kept in the address.
    await page.getByTestId('chat-filter-keyword').fill('退货');
    await expect.poll(() => titles(page)).toEqual([CUSTOMER]);
    await page.getByTestId('chat-conversation-preview').getByTestId('chat-keyword-hit').first().waitFor();
    expect(new URL(page.url()).searchParams.get('q')).toBe('退货');
    await page.getByTestId('chat-filters-clear').click();
    await expect.poll(() => titles(page)).toEqual([GROUP, CUSTOMER].sort());

    // Send type: the group's only reply of ours was the AI's.
    await chooseOption(page, page.getByTestId('chat-filter-send-type'), 'AI 全托管');
    await expect.poll(() => titles(page)).toEqual([GROUP]);
    await chooseOption(page, page.getByTestId('chat-filter-send-type'), '人工');
    await expect.poll(() => titles(page)).toEqual([CUSTOMER]);
    await page.getByTestId('chat-filters-clear').click();

    // Chat type.
    await chooseOption(page, page.getByTestId('chat-filter-chat-type'), '群聊');
    await expect.poll(() => titles(page)).toEqual([GROUP]);
    await chooseOption(page, page.getByTestId('chat-filter-chat-type'), '私聊');
    await expect.poll(() => titles(page)).toEqual([CUSTOMER]);
    await screenshot(page, 'chat-history-filtered-zh-CN');
    await page.getByTestId('chat-filters-clear').click();

    // Time: the batch is a minute old, so the last hour holds both; a day of last year, neither.
    await chooseOption(page, page.getByTestId('chat-filter-time'), '最近 1 小时');
    await expect.poll(() => titles(page)).toEqual([GROUP, CUSTOMER].sort());
    await chooseOption(page, page.getByTestId('chat-filter-time'), '自定义时间…');
    const [start, end] = [page.getByPlaceholder('开始时间'), page.getByPlaceholder('结束时间')];
    await start.click();
    await start.fill('2025-01-01 00:00');
    await start.press('Enter');
    await end.fill('2025-01-02 00:00');
    await end.press('Enter');
    // The range is applied (and kept in the address), not merely typed.
    await expect.poll(() => new URL(page.url()).searchParams.get('to')).not.toBeNull();
    expect(new URL(page.url()).searchParams.get('from')).not.toBeNull();
    await expect.poll(() => titles(page)).toEqual([]);
    await page.getByTestId('chat-filters-clear').click();

    // Customer: found by part of the name.
    await page.getByTestId('chat-filter-customer').click();
    await page.keyboard.type('小明');
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: CUSTOMER }).click();
    await expect.poll(() => titles(page)).toEqual([CUSTOMER]);
  });

  it('works embedded in another site’s page, signed in by the address', async () => {
    const target = { path: '/only-chat-history', pageId: 'onlyChatHistory', session };
    await inFramingSite(browser, target, async (page, frame) => {
      await frame.getByTestId('chat-conversation').filter({ hasText: CUSTOMER }).click();
      await frame.getByTestId('chat-unknown').waitFor();
      // The session left the visible address once stored.
      expect(page.frames()[1].url()).not.toContain('token=');
      await screenshot(page, 'chat-history-embedded-zh-CN');
    });
  });
  it('sets how replies are made: the AI modes need an agent of the team', async () => {
    const page = await (await newContext(browser, 'en')).newPage();
    await page.goto(`/chat-history?token=${session.token}&spaceId=${session.spaceId}`);
    await page.getByTestId('chat-reply-settings').click();
    await page.getByTestId('chat-reply-mode-ai_full').click();
    await page.getByTestId('chat-reply-save').click();
    // No agent: the server refuses (40520) and says so under the agent field.
    await page.getByText('Pick an agent in Reply settings first').waitFor();

    const headers = { token: session.token, 'space-id': session.spaceId };
    const agent = await callApi(agentRoutes.create, { name: 'Support bot' }, headers);
    await page.keyboard.press('Escape');
    await page.reload();
    await page.getByTestId('chat-reply-settings').click();
    await page.getByTestId('chat-reply-mode-ai_full').click();
    await page.getByTestId('chat-reply-agent').click();
    await page.locator('.ant-select-item-option').filter({ hasText: 'Support bot' }).click();
    await page.getByTestId('chat-reply-save').click();
    await page.getByText('Reply settings saved').waitFor();
    const sceneHeader = await page.evaluate(() => localStorage.getItem('athena.sceneId'));
    const settings = await callApi(chatHistoryRoutes.settingsGet, {}, { ...headers, 'scene-id': sceneHeader ?? '' });
    expect(settings.reply).toMatchObject({ mode: 'ai_full', agent_id: agent.id });
  });
});
