import {
  agentRoutes,
  chatHistoryRoutes,
  formatMessage,
  type IngestMessage,
  modelKeyRoutes,
  PROFILE_EXPECTED_LABELS,
  platformRoutes,
  profileRoutes,
  teamRoutes,
} from '@athena/contract';
import { type FakeOpenAI, startFakeOpenAI } from '@athena/fake-openai';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi } from '../support/api.ts';
import { chooseOption, clickWhenSettled, launchChromium, newContext, screenshot, settled } from '../support/browser.ts';
import { ingestMessage, pushSigned } from '../support/chat-ingest.ts';
import { inFramingSite } from '../support/embed.ts';
import { apiToken, TEST_CODE } from '../support/session.ts';

const CREATOR_PHONE = '13800000013';
const [WANG, LI, ALICE] = ['王小明', '李雷', 'Alice'];

/** One message from a customer in their private chat, `ago` ms before now. */
const fromCustomer = (id: string, name: string, ago: number): IngestMessage =>
  ingestMessage(ago, {
    msg_id: `profile-${id}-${ago}`,
    conversation: { id: `conv-${id}`, chat_type: 'private', name: '' },
    customer: { id: `cust-${id}`, name, avatar_url: null },
    sender_name: name,
    content: '你好',
  });

const rowNames = async (page: Page) =>
  (
    await page
      .getByTestId('profile-customer-row')
      .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-name') ?? ''))
  ).sort();

/** Defines a field through the modal. */
async function defineField(page: Page, field: { name: string; type: string; options?: string[]; required?: boolean }) {
  await page.getByTestId('profile-field-create').click();
  await page.getByTestId('profile-field-name').fill(field.name);
  await page.locator('.ant-modal .ant-radio-button-wrapper').filter({ hasText: field.type }).click();
  for (const option of field.options ?? []) {
    await page.getByTestId('profile-field-options').click();
    await page.keyboard.type(option);
    await page.keyboard.press('Enter');
  }
  if (field.required) await page.getByTestId('profile-field-required').click();
  await clickWhenSettled(page, 'profile-field-save');
}

/** Closes the drawer on top (the fields, or a customer's profile). */
async function closeDrawer(page: Page) {
  await page.locator('.ant-drawer-open .ant-drawer-close').last().click();
  await expect.poll(() => page.locator('.ant-drawer-open').count()).toBe(0);
}

/** Edits one value in the open profile; the page answers with the value shown, or an error under it. */
async function setText(page: Page, field: string, text: string) {
  await page.getByTestId(`profile-value-${field}-edit`).click();
  await page.getByTestId(`profile-value-${field}-input`).fill(text);
  await page.getByTestId(`profile-value-${field}-save`).click();
}

describe('user profiles', () => {
  let browser: Browser;
  let session: { token: string; spaceId: string };
  let headers: Record<string, string>;

  beforeAll(async () => {
    browser = await launchChromium();
    const token = await apiToken(CREATOR_PHONE, TEST_CODE);
    const team = await callApi(teamRoutes.create, { name: '画像团队' }, { token });
    session = { token, spaceId: team.id };
    // Customers arrive the way a channel brings them: messages through the scene's ingest address.
    const scenes = await callApi(platformRoutes.sceneList, {}, {});
    headers = { token, 'space-id': team.id, 'scene-id': String(scenes.default_scene_id) };
    const ingest = await callApi(chatHistoryRoutes.ingestRotate, {}, headers);
    await pushSigned(ingest.url, ingest.secret, [
      fromCustomer('wang', WANG, 60_000),
      fromCustomer('li', LI, 120_000),
      fromCustomer('alice', ALICE, 180_000),
    ]);
  });
  afterAll(() => browser.close());

  it('defines fields, edits values with their checks, undoes a change and finds customers by a value', async () => {
    const page = await (await newContext(browser, 'zh-CN')).newPage();
    await page.goto(`/user-profile?token=${session.token}&spaceId=${session.spaceId}`);
    await expect.poll(() => rowNames(page)).toEqual([WANG, LI, ALICE].sort());
    // No fields yet: the page says what would fill the profile column, and leads to defining one.
    await page.getByTestId('profile-no-fields').getByText('还没有画像字段').waitFor();
    await screenshot(page, 'user-profile-no-fields-zh-CN');

    // Fields: a required text, a choice and a number.
    await page.getByTestId('profile-no-fields').getByRole('button').click();
    await defineField(page, { name: '城市', type: '文本', required: true });
    await page.getByTestId('profile-field-item').first().waitFor();
    await defineField(page, { name: '会员等级', type: '选项', options: ['金卡', '银卡'] });
    await page.getByTestId('profile-field-item').nth(1).waitFor();
    expect(await page.getByTestId('profile-no-fields').count()).toBe(0);
    await defineField(page, { name: '年龄', type: '数字' });
    await page.getByTestId('profile-field-item').nth(2).waitFor();
    // A second "城市": only the server knows names are taken, and its words show under the name.
    await page.getByTestId('profile-field-create').click();
    await page.getByTestId('profile-field-name').fill('城市');
    await clickWhenSettled(page, 'profile-field-save');
    await page.getByText('已有同名的字段，字段名称不能重复。').waitFor();
    await screenshot(page, 'profile-field-modal-zh-CN');
    await page.keyboard.press('Escape');
    // Reorder: the number field moves above the choice.
    await page.locator('[data-testid="profile-field-item"][data-name="年龄"] [data-testid="profile-field-up"]').click();
    await expect
      .poll(() =>
        page
          .getByTestId('profile-field-item')
          .evaluateAll((items) => items.map((item) => item.getAttribute('data-name'))),
      )
      .toEqual(['城市', '年龄', '会员等级']);
    await closeDrawer(page);

    // Values: a wrong type is refused in the server's words before anything is sent.
    await page.locator(`[data-testid="profile-customer-row"][data-name="${WANG}"]`).click();
    await page.getByTestId('profile-values').waitFor();
    await setText(page, '年龄', '三十');
    const ageError = formatMessage('PROFILE_VALUE_INVALID', 'zh-CN', {
      field: '年龄',
      expected: PROFILE_EXPECTED_LABELS.number['zh-CN'],
    });
    expect(await page.getByTestId('profile-value-年龄-error').textContent()).toBe(ageError);
    await page.getByTestId('profile-value-年龄-input').fill('30');
    await page.getByTestId('profile-value-年龄-save').click();
    await expect.poll(() => page.getByTestId('profile-value-年龄').textContent()).toBe('30');
    await setText(page, '城市', '上海');
    await expect.poll(() => page.getByTestId('profile-value-城市').textContent()).toBe('上海');
    // A required field, once set, cannot be emptied.
    await setText(page, '城市', '');
    expect(await page.getByTestId('profile-value-城市-error').textContent()).toBe('「城市」是必填字段，内容不能为空。');
    await page.getByTestId('profile-value-城市-input').fill('北京');
    await page.getByTestId('profile-value-城市-save').click();
    await expect.poll(() => page.getByTestId('profile-value-城市').textContent()).toBe('北京');
    await page.getByTestId('profile-value-会员等级-edit').click();
    await chooseOption(page, page.getByTestId('profile-value-会员等级-input'), '金卡');
    await page.getByTestId('profile-value-会员等级-save').click();
    await expect.poll(() => page.getByTestId('profile-value-会员等级').textContent()).toBe('金卡');
    await screenshot(page, 'profile-customer-zh-CN');

    // The city's history: newest first; undoing 上海 → 北京 puts 上海 back.
    await page.getByTestId('profile-value-城市-history').click();
    await page.getByTestId('profile-history').waitFor();
    await expect.poll(() => page.getByTestId('profile-change').count()).toBe(2);
    await page.getByTestId('profile-change-undo').click();
    await page.locator('.ant-popover:visible .ant-btn-primary').click();
    await page.getByTestId('profile-change-reverted').waitFor();
    await expect.poll(() => page.getByTestId('profile-change').count()).toBe(3);
    await screenshot(page, 'profile-history-zh-CN');
    await page.getByRole('tab', { name: '画像' }).click();
    await expect.poll(() => page.getByTestId('profile-value-城市').textContent()).toBe('上海');
    await closeDrawer(page);

    // Found by a text value, then by a field condition.
    await page.getByTestId('profile-filter-keyword').fill('上海');
    await expect.poll(() => rowNames(page)).toEqual([WANG]);
    await page.getByTestId('profile-filters-clear').click();
    await expect.poll(() => rowNames(page)).toEqual([WANG, LI, ALICE].sort());
    await page.getByTestId('profile-condition-add').click();
    await chooseOption(page, page.getByTestId('profile-condition-field-0'), '会员等级');
    await chooseOption(page, page.getByTestId('profile-condition-value-0'), '金卡');
    await expect.poll(() => rowNames(page)).toEqual([WANG]);
    await screenshot(page, 'profile-list-zh-CN');
    await chooseOption(page, page.getByTestId('profile-condition-op-0'), /^为空$/);
    await expect.poll(() => rowNames(page)).toEqual([LI, ALICE].sort());
    // Quiet for a week: everyone here wrote minutes ago, so nobody; clearing brings them all back.
    await chooseOption(page, page.getByTestId('profile-filter-inactive'), '7 天以上未发言');
    await page.getByTestId('profile-list-no-match').waitFor();
    await screenshot(page, 'profile-quiet-zh-CN');
    await page.getByTestId('profile-filters-clear').click();
    await expect.poll(() => rowNames(page)).toEqual([WANG, LI, ALICE].sort());
  });

  it('reads in English and Traditional Chinese', async () => {
    const en = await (await newContext(browser, 'en')).newPage();
    await en.goto(`/user-profile?token=${session.token}&spaceId=${session.spaceId}`);
    await en.getByText('Profile fields (3)').waitFor();
    await expect.poll(() => rowNames(en)).toEqual([WANG, LI, ALICE].sort());
    await screenshot(en, 'profile-list-en');
    await en.locator(`[data-testid="profile-customer-row"][data-name="${WANG}"]`).click();
    await en.getByTestId('profile-values').waitFor();
    await en.getByTestId('profile-customer-conversations').filter({ hasText: 'View conversations' }).waitFor();
    await setText(en, '年龄', '12,5');
    await en.getByText('The value of "年龄" is not right: a number.').waitFor();
    await screenshot(en, 'profile-customer-en');
    await en.getByRole('tab', { name: 'History' }).click();
    await en.getByTestId('profile-change').first().waitFor();
    await screenshot(en, 'profile-history-en');
    await closeDrawer(en);
    await en.getByTestId('profile-fields-open').click();
    await en
      .locator('[data-testid="profile-field-item"][data-name="会员等级"] [data-testid="profile-field-edit"]')
      .click();
    await en.getByText('The type is fixed; to use another type, create a new field.').waitFor();
    await settled(en);
    await screenshot(en, 'profile-field-modal-en');

    const tw = await (await newContext(browser, 'zh-TW')).newPage();
    await tw.goto(`/user-profile?token=${session.token}&spaceId=${session.spaceId}`);
    await tw.getByText('畫像欄位（3）').waitFor();
    await expect.poll(() => rowNames(tw)).toEqual([WANG, LI, ALICE].sort());
    await screenshot(tw, 'profile-list-zh-TW');
  });

  it('counts exactly what the list only estimates, beyond 5 000 customers', async () => {
    // 5 100 customers in a scene of their own (小红书), so the other tests' list stays as it is.
    const scene = { ...headers, 'scene-id': '7' };
    const ingest = await callApi(chatHistoryRoutes.ingestRotate, {}, scene);
    const many = Array.from({ length: 5_100 }, (_, i) => fromCustomer(`many-${i}`, `客户${i}`, 60_000 + i));
    for (let at = 0; at < many.length; at += 1_000)
      await pushSigned(ingest.url, ingest.secret, many.slice(at, at + 1_000));
    const page = await (await newContext(browser, 'zh-CN')).newPage();
    await page.goto(`/user-profile?token=${session.token}&spaceId=${session.spaceId}&scene=7`);
    // The list estimates (it counts up to 5 000); the page asks for the count and shows it instead.
    await page.getByText('共 5100 位客户').waitFor({ timeout: 20_000 });
    await screenshot(page, 'profile-counted-zh-CN');
  });

  it('leads from a customer to their conversations and from a conversation back to the profile', async () => {
    const page = await (await newContext(browser, 'zh-CN')).newPage();
    await page.setViewportSize({ width: 1280, height: 860 });
    await page.goto(`/user-profile?token=${session.token}&spaceId=${session.spaceId}`);
    await page.locator(`[data-testid="profile-customer-row"][data-name="${WANG}"]`).waitFor();
    await screenshot(page, 'profile-list-links-zh-CN');
    await page
      .locator(`[data-testid="profile-customer-row"][data-name="${WANG}"] [data-testid="profile-row-conversations"]`)
      .click();
    // Chat history, filtered to the customer by the address (shareable, and Back returns).
    await page.waitForURL(/\/chat-history\?.*customer=\d+/);
    const conversations = page.getByTestId('chat-conversation');
    await expect
      .poll(() => conversations.evaluateAll((rows) => rows.map((row) => row.getAttribute('data-title'))))
      .toEqual([WANG]);
    expect(await page.getByTestId('chat-filter-customer').textContent()).toContain(WANG);
    await conversations.click();
    await page.getByTestId('chat-thread-title').filter({ hasText: WANG }).waitFor();
    await settled(page);
    await screenshot(page, 'chat-thread-profile-link-zh-CN');
    // The thread's profile button opens the customer's profile.
    await page.getByTestId('chat-thread-profile').click();
    await page.waitForURL(/\/user-profile\?.*customer=\d+/);
    await expect.poll(() => page.getByTestId('profile-customer-name').textContent()).toBe(WANG);
    await settled(page);
    await screenshot(page, 'chat-to-profile-zh-CN');
    await page.goBack();
    await page.getByTestId('chat-thread-title').filter({ hasText: WANG }).waitFor();
  });

  it('works embedded in another site’s page, signed in by the address', async () => {
    const target = { path: '/only-user-profile', pageId: 'onlyUserProfile', session };
    await inFramingSite(browser, target, async (page, frame) => {
      // Its links stay among the embeddable pages, never the app with its navigation.
      const toChat = frame.locator(
        `[data-testid="profile-customer-row"][data-name="${WANG}"] [data-testid="profile-row-conversations"]`,
      );
      expect(await toChat.getAttribute('href')).toMatch(/^\/only-chat-history\?/);
      await frame.locator(`[data-testid="profile-customer-row"][data-name="${WANG}"]`).click();
      await expect.poll(() => frame.getByTestId('profile-value-城市').textContent()).toBe('上海');
      expect(page.frames()[1].url()).not.toContain('token=');
      // settled() watches the top page's animations, not the frame's: let the drawer finish sliding in.
      await page.waitForTimeout(500);
      await screenshot(page, 'profile-embedded-zh-CN');
    });
  });
  it('lets the AI read a conversation: the values come in as AI changes, the last reading shows, a change is undone', async () => {
    // The scene's reply agent reads, with a chat key on the fake model; the city and the age are fields AI fills.
    const fake: FakeOpenAI = await startFakeOpenAI({ tokenDelayMs: 0 });
    try {
      const key = { model_name: '测试模型', version: 'fake-chat', base_url: fake.url, api_key: fake.apiKey };
      await callApi(modelKeyRoutes.create, { ...key, purpose: 'chat' }, headers);
      const agent = await callApi(agentRoutes.create, { name: '资料助手' }, headers);
      await callApi(chatHistoryRoutes.replyUpdate, { mode: 'human', agent_id: agent.id }, headers);
      const { items } = await callApi(profileRoutes.fieldList, {}, headers);
      for (const field of items.filter((f) => f.name === '城市' || f.name === '年龄')) {
        const { id, name, type, options, required, ai_overwrite, description } = field;
        await callApi(
          profileRoutes.fieldUpdate,
          { id, name, type, options, required, ai_extract: true, ai_overwrite, description },
          headers,
        );
      }
      const ingest = await callApi(chatHistoryRoutes.ingestRotate, {}, headers);
      await pushSigned(ingest.url, ingest.secret, [
        ingestMessage(10_000, {
          msg_id: 'profile-li-city',
          conversation: { id: 'conv-li', chat_type: 'private', name: '' },
          customer: { id: 'cust-li', name: LI, avatar_url: null },
          sender_name: LI,
          content: '我在杭州，今年 28 岁',
        }),
      ]);

      const page = await (await newContext(browser, 'zh-CN')).newPage();
      await page.goto(`/user-profile?token=${session.token}&spaceId=${session.spaceId}`);
      await page.locator(`[data-testid="profile-customer-row"][data-name="${LI}"]`).click();
      await page.getByTestId('profile-values').waitFor();
      const status = page.getByTestId('profile-extract-status');
      await expect.poll(() => status.textContent()).toBe('AI 尚未读取过该客户的会话');

      fake.queueReplies(JSON.stringify({ 城市: '杭州', 年龄: 28 }));
      await page.getByTestId('profile-extract').click();
      await expect.poll(() => page.getByTestId('profile-value-城市').textContent()).toBe('杭州');
      expect(await page.getByTestId('profile-value-年龄').textContent()).toBe('28');
      const cityRow = page.locator('[data-testid="profile-field-row"][data-field="城市"] [data-source]');
      expect(await cityRow.getAttribute('data-source')).toBe('ai');
      expect(await cityRow.textContent()).toContain('AI');
      await expect.poll(() => status.getAttribute('data-status')).toBe('ok');
      expect(await status.textContent()).toMatch(/^AI 上次读取于\S+前：修改 2 项，保留人工填写 0 项$/);
      // What the model was given: the customer's words.
      const request = fake.requests.filter((r) => r.path === '/v1/chat/completions').at(-1);
      expect(JSON.stringify(request?.body)).toContain('我在杭州');
      await settled(page);
      await screenshot(page, 'profile-extracted-zh-CN');

      // The age the AI read is undone from its history; the city stays.
      await page.getByTestId('profile-value-年龄-history').click();
      await page.locator('[data-testid="profile-change"][data-field="年龄"]').first().waitFor();
      await page.getByTestId('profile-change-undo').first().click();
      await page.locator('.ant-popover:visible .ant-btn-primary').click();
      await page.getByTestId('profile-change-reverted').waitFor();
      await page.getByRole('tab', { name: '画像' }).click();
      await expect.poll(() => page.getByTestId('profile-value-年龄').textContent()).toBe('未填写');
      expect(await page.getByTestId('profile-value-城市').textContent()).toBe('杭州');

      // A model answer that cannot be used: nothing changes, and the line says why (the server's words).
      const en = await (await newContext(browser, 'en')).newPage();
      await en.goto(`/user-profile?token=${session.token}&spaceId=${session.spaceId}`);
      await en.locator(`[data-testid="profile-customer-row"][data-name="${ALICE}"]`).click();
      await en.getByTestId('profile-values').waitFor();
      await expect.poll(() => en.getByTestId('profile-extract-status').textContent()).toBe('Not read by AI yet');
      fake.queueReplies('Sure! Alice lives somewhere nice.');
      await en.getByTestId('profile-extract').click();
      await en.getByText('The AI could not use the model').waitFor();
      await expect.poll(() => en.getByTestId('profile-extract-status').getAttribute('data-status')).toBe('failed');
      expect(await en.getByTestId('profile-extract-status').textContent()).toMatch(
        /^Last read by AI .+ ago: could not be read: .*JSON/,
      );
      await settled(en);
      await screenshot(en, 'profile-extract-failed-en');

      const tw = await (await newContext(browser, 'zh-TW')).newPage();
      await tw.goto(`/user-profile?token=${session.token}&spaceId=${session.spaceId}`);
      await tw.locator(`[data-testid="profile-customer-row"][data-name="${LI}"]`).click();
      await expect
        .poll(() => tw.getByTestId('profile-extract-status').textContent())
        .toMatch(/^AI 上次讀取於.+：修改 2 項，保留人工填寫 0 項$/);
      await settled(tw);
      await screenshot(tw, 'profile-extracted-zh-TW');
    } finally {
      await fake.close();
    }
  });
});
