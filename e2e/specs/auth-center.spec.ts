import {
  type Envelope,
  inviteRoutes,
  modelKeyRoutes,
  type RouteBody,
  type RouteData,
  type RouteDescriptor,
  teamRoutes,
} from '@athena/contract';
import { type FakeOpenAI, startFakeOpenAI } from '@athena/fake-openai';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, clickWhenSettled, launchChromium, newContext, screenshot } from '../support/browser.ts';
import { apiToken, TEST_CODE } from '../support/session.ts';

const ADMIN_PHONE = '13800000003';
const MEMBER_PHONE = '13800000004';
const TEAM = '模型密钥测试团队';

/** A product API call as a signed-in person, optionally in another space, typed by its contract route. */
async function call<R extends RouteDescriptor>(
  route: R,
  token: string,
  body: RouteBody<R>,
  spaceId?: string,
): Promise<RouteData<R>> {
  const res = await fetch(`${baseUrl()}${route.path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', token, ...(spaceId ? { 'space-id': spaceId } : {}) },
    body: JSON.stringify(body),
  });
  const envelope = (await res.json()) as Envelope<RouteData<R>>;
  if (envelope.code !== 0) throw new Error(`${route.path}: ${envelope.code} ${envelope.msg}`);
  return envelope.data;
}

const row = (page: Page, name: string) => page.locator(`[data-testid^="key-row-"][data-model-name="${name}"]`);

async function signIn(page: Page, phone: string) {
  await page.getByTestId('login-panel').waitFor();
  await page.getByTestId('phone-input').fill(phone);
  await page.getByTestId('code-input').fill(TEST_CODE);
  await page.getByTestId('login-submit').click();
}

/** Fills the key form; `undefined` leaves a field as it is. */
async function fillKeyForm(page: Page, fields: { name?: string; version?: string; url?: string; key?: string }) {
  if (fields.name !== undefined) await page.getByTestId('key-form-model-name').fill(fields.name);
  if (fields.version !== undefined) await page.getByTestId('key-form-version').fill(fields.version);
  if (fields.url !== undefined) await page.getByTestId('key-form-base-url').fill(fields.url);
  if (fields.key !== undefined) await page.getByTestId('key-form-api-key').fill(fields.key);
}

/** A dialog is fixed to the viewport: a taller window shows all of it in the full-page screenshot. */
async function screenshotDialog(page: Page, name: string) {
  const size = page.viewportSize();
  await page.setViewportSize({ width: 1366, height: 1200 });
  await screenshot(page, name);
  if (size) await page.setViewportSize(size);
}

/**
 * A table cell that stays in view however wide the other columns grow: its column is fixed to the
 * table's end (sticky), and it is inside the table on screen now.
 */
async function expectStuckInView(inner: Locator, table: Locator) {
  expect(await inner.locator('xpath=ancestor::td[1]').getAttribute('class')).toMatch(/ant-table-cell-fix-(end|right)/);
  const a = await inner.boundingBox();
  const b = await table.boundingBox();
  expect(a && b ? a.x >= b.x && a.x + a.width <= b.x + b.width : false).toBe(true);
}

const modalClosed = (page: Page) => page.getByTestId('key-form-modal').waitFor({ state: 'detached' });

describe('model keys (/auth-center) against a fake OpenAI-compatible server', () => {
  let browser: Browser;
  let fake: FakeOpenAI;
  let zh: Page;
  let en: Page;

  beforeAll(async () => {
    fake = await startFakeOpenAI();
    browser = await launchChromium();
    zh = await (await newContext(browser, 'zh-CN')).newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await fake?.close();
  });

  it('explains the page and offers providers while there is no key', async () => {
    await zh.goto('/auth-center');
    await signIn(zh, ADMIN_PHONE);
    await zh.getByTestId('keys-empty').waitFor();
    expect(await zh.getByTestId('page-title').textContent()).toBe('模型密钥');
    await zh.getByTestId('keys-intro').waitFor();
    // This server allows private model addresses (the fake model runs on 127.0.0.1): the page says
    // so, and names no setting.
    await zh.getByText('本服务器允许使用本机或内网中的模型（Ollama、vLLM），像其他模型一样添加即可。').waitFor();
    expect(await zh.getByText('ALLOW_PRIVATE_MODEL_ENDPOINTS').count()).toBe(0);
    // The rerank purpose is offered, and says nothing uses it yet.
    await zh.getByTestId('keys-intro').getByText('暂未使用：检索支持重排序后即会使用', { exact: false }).waitFor();
    for (const id of ['qwen', 'deepseek', 'moonshot', 'zhipu', 'doubao', 'openai', 'ollama']) {
      await zh.getByTestId(`keys-preset-${id}`).waitFor();
    }
    expect(await zh.getByTestId('keys-readonly-note').count()).toBe(0);
    await screenshot(zh, 'auth-center-empty-zh-CN');

    // A preset fills only the address and suggests names.
    await zh.getByTestId('keys-preset-deepseek').click();
    await zh.getByTestId('key-form-modal').waitFor();
    expect(await zh.getByTestId('key-form-base-url').inputValue()).toBe('https://api.deepseek.com/v1');
    expect(await zh.getByTestId('key-form-model-name').inputValue()).toBe('');
    expect(await zh.getByTestId('key-form-version').getAttribute('placeholder')).toBe('例如：deepseek-chat');
    await zh.getByTestId('key-form-preset-ollama').click();
    expect(await zh.getByTestId('key-form-base-url').inputValue()).toBe('http://localhost:11434/v1');
    // No "blocked" warning for a local address where the server allows them.
    await zh.getByText('兼容 OpenAI 接口的基础地址，通常以 /v1 结尾。').waitFor();
    expect(await zh.getByTestId('key-form-local-note').count()).toBe(0);
  });

  it('checks every field with the contract’s messages before anything is sent', async () => {
    await fillKeyForm(zh, { url: '' });
    await zh.getByTestId('key-form-submit').click();
    for (const text of ['模型名称不能为空。', '模型版本不能为空。', '请求地址不能为空。', '密钥不能为空。']) {
      await zh.getByText(text, { exact: true }).waitFor();
    }
    await fillKeyForm(zh, { url: 'api.deepseek.com/v1' });
    await zh.getByText('请求地址必须是 http:// 或 https:// 开头的有效网址。', { exact: true }).waitFor();
    // The Test button checks the same rules and sends nothing while they fail.
    const before = fake.requests.length;
    await zh.getByTestId('key-form-test').click();
    await zh.getByText('模型名称不能为空。', { exact: true }).waitFor();
    expect(fake.requests.length).toBe(before);
  });

  it('tests the draft (with a loading button), saves it and tests it from the list', async () => {
    await fillKeyForm(zh, { name: '测试模型', version: 'fake-chat', url: fake.url, key: fake.apiKey });
    // Hold the test call so the loading state can be seen.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await zh.route('**/model_key/test_draft', async (route) => {
      await held;
      await route.continue();
    });
    await zh.getByTestId('key-form-test').click();
    await expect.poll(() => zh.getByTestId('key-form-test').getAttribute('class')).toContain('ant-btn-loading');
    expect(await zh.getByTestId('key-form-test').textContent()).toContain('测试中');
    release();
    const result = zh.getByTestId('key-form-test-result');
    await result.waitFor();
    await zh.unroute('**/model_key/test_draft');
    expect(await result.getAttribute('data-ok')).toBe('true');
    expect(await zh.getByTestId('key-form-test-result-title').textContent()).toMatch(/^测试成功 · 往返 \d+ ms$/);
    const chat = fake.requests.filter((request) => request.path === '/v1/chat/completions').at(-1);
    expect(chat?.authorized).toBe(true);
    expect(chat?.body).toMatchObject({ model: 'fake-chat', max_tokens: 1 });
    await screenshotDialog(zh, 'auth-center-form-zh-CN');

    await zh.getByTestId('key-form-submit').click();
    await modalClosed(zh);
    const saved = row(zh, '测试模型');
    await saved.waitFor();
    expect(await saved.getByTestId('key-version').textContent()).toBe('fake-chat');
    expect(await saved.getByTestId('key-base-url').textContent()).toBe(fake.url);
    expect(await saved.getByTestId('key-masked').textContent()).toBe('****');
    expect(await saved.getByTestId('key-purpose').textContent()).toBe('对话');
    await saved.getByTestId('key-default').waitFor(); // the first chat key becomes the default
    // The dialog's passed test of exactly these values is the row's result, not "not tested".
    expect(await saved.getByTestId('key-last-test').getAttribute('data-status')).toBe('ok');
    expect(await saved.textContent()).not.toContain(fake.apiKey);

    await saved.getByTestId('key-test').click();
    const rowResult = zh.getByTestId('key-test-result');
    await rowResult.waitFor();
    expect(await rowResult.getAttribute('data-ok')).toBe('true');
    expect(await rowResult.textContent()).toContain('测试模型 · fake-chat');
    await expect.poll(() => saved.getByTestId('key-last-test').getAttribute('data-status')).toBe('ok');
    expect(await saved.getByTestId('key-last-test').textContent()).toMatch(/^正常 · \d+ ms$/);

    // At 1280 px the row's actions stay in view while the other columns scroll sideways.
    const size = zh.viewportSize();
    await zh.setViewportSize({ width: 1280, height: 800 });
    try {
      await expectStuckInView(saved.getByTestId('key-delete'), zh.getByTestId('keys-table'));
    } finally {
      if (size) await zh.setViewportSize(size);
    }
  });

  it('explains a rejected key: edited through the form, tested there and from the list', async () => {
    const saved = row(zh, '测试模型');
    await saved.getByTestId('key-edit').click();
    await zh.getByTestId('key-form-modal').waitFor();
    expect(await zh.getByTestId('key-form-modal').getAttribute('data-mode')).toBe('edit');
    expect(await zh.getByTestId('key-form-api-key').getAttribute('placeholder')).toBe('留空则保留当前密钥（****）');

    // With the key left empty and a setting changed, the saved key cannot be tested with it.
    await fillKeyForm(zh, { version: 'fake-embed' });
    await zh.getByTestId('key-form-test').click();
    await zh.getByTestId('key-form-need-key').waitFor();
    await fillKeyForm(zh, { version: 'fake-chat', key: 'sk-wrong-key-123' });
    await zh.getByTestId('key-form-test').click();
    const result = zh.getByTestId('key-form-test-result');
    await result.waitFor();
    expect(await result.getAttribute('data-ok')).toBe('false');
    expect(await result.getAttribute('data-kind')).toBe('auth');
    expect(await zh.getByTestId('key-form-test-result-title').textContent()).toBe('测试失败：密钥无效');
    expect(await zh.getByTestId('key-form-test-result-text').textContent()).toContain('服务拒绝了这个密钥');
    expect(await zh.getByTestId('key-form-test-result-detail').textContent()).toContain('Incorrect API key provided');
    expect(await result.textContent()).not.toContain('sk-wrong-key-123');

    // Saving values whose test just failed asks first, and "keep editing" keeps the dialog open.
    await zh.getByTestId('key-form-submit').click();
    const confirm = zh.getByTestId('key-form-failed-confirm');
    await confirm.waitFor();
    expect(await confirm.textContent()).toContain('密钥无效');
    await screenshotDialog(zh, 'auth-center-failed-save-zh-CN');
    await zh.getByRole('button', { name: '继续修改' }).click();
    await confirm.waitFor({ state: 'detached' });
    await zh.getByTestId('key-form-submit').click();
    await zh.getByTestId('key-form-failed-save').click();
    await modalClosed(zh);
    await expect.poll(() => saved.getByTestId('key-last-test').getAttribute('data-status')).toBe('failed');
    await saved.getByTestId('key-test').click();
    const rowResult = zh.getByTestId('key-test-result');
    await expect.poll(() => rowResult.getAttribute('data-kind')).toBe('auth');
    expect(await zh.getByTestId('key-test-result-title').textContent()).toBe('测试失败：密钥无效');
    await expect.poll(() => saved.getByTestId('key-last-test').getAttribute('data-status')).toBe('failed');
    expect(await saved.getByTestId('key-last-test').textContent()).toBe('密钥无效');
    expect(await saved.getByTestId('key-masked').textContent()).toBe('sk-…-123');
    await screenshot(zh, 'auth-center-zh-CN');
  });

  it('works in English: blank field, fixing the key, a second key, default and delete', async () => {
    const context = await newContext(browser, 'en-US');
    en = await context.newPage();
    await en.goto(`/auth-center?token=${await apiToken(ADMIN_PHONE)}`);
    const first = row(en, '测试模型');
    await first.waitFor();
    expect(await en.getByTestId('page-title').textContent()).toBe('LLM API keys');
    expect(await first.getByTestId('key-last-test').textContent()).toBe('Key rejected');

    // A blank field on edit: the contract's message, nothing saved.
    await first.getByTestId('key-edit').click();
    await fillKeyForm(en, { name: '' });
    await en.getByTestId('key-form-submit').click();
    await en.getByText('Model name cannot be empty.', { exact: true }).waitFor();
    await fillKeyForm(en, { name: '测试模型', key: fake.apiKey });
    await en.getByTestId('key-form-test').click();
    await expect.poll(() => en.getByTestId('key-form-test-result').getAttribute('data-ok')).toBe('true');
    expect(await en.getByTestId('key-form-test-result-title').textContent()).toMatch(
      /^Test passed · \d+ ms round trip$/,
    );
    await en.getByTestId('key-form-submit').click();
    await modalClosed(en);
    // The rejected key, fixed and passed in the dialog: the row says so without its own Test.
    await expect.poll(() => first.getByTestId('key-last-test').getAttribute('data-status')).toBe('ok');

    // Test from the list with the wrong mode on the fake vendor: a precise English explanation.
    fake.setMode('unauthorized');
    await first.getByTestId('key-test').click();
    await expect.poll(() => en.getByTestId('key-test-result').getAttribute('data-kind')).toBe('auth');
    expect(await en.getByTestId('key-test-result-title').textContent()).toBe('Test failed: Key rejected');
    fake.setMode('normal');

    // A second chat key, then make it the default and delete the first.
    await en.getByTestId('keys-add').click();
    await en.getByTestId('key-form-modal').waitFor();
    await fillKeyForm(en, { name: 'Backup model', version: 'fake-chat', url: fake.url, key: fake.apiKey });
    await en.getByTestId('key-form-submit').click();
    await modalClosed(en);
    const second = row(en, 'Backup model');
    await second.waitFor();
    expect(await second.getByTestId('key-default').count()).toBe(0);
    await en.getByTestId('keys-filter-chat').click();
    expect(await en.getByTestId('keys-filter-chat').textContent()).toBe('Chat · 2');
    await en.getByTestId('keys-filter-embedding').click();
    await en.getByTestId('keys-empty-purpose').waitFor();
    await en.getByTestId('keys-filter-all').click();
    // The filter's sliding highlight is a transition, not an animation the screenshot helper sees.
    await en.locator('[data-testid="keys-purpose-filter"] .ant-segmented-thumb').waitFor({ state: 'detached' });
    await screenshot(en, 'auth-center-en');

    await second.getByTestId('key-set-default').click();
    await second.getByTestId('key-default').waitFor();
    await expect.poll(() => first.getByTestId('key-default').count()).toBe(0);

    await first.getByTestId('key-delete').click();
    await clickWhenSettled(en, 'key-delete-confirm');
    await first.waitFor({ state: 'detached' });
    await en.getByText('Deleted “测试模型”').waitFor();

    // The add form in English, failing on an unknown model, for the screenshot.
    await en.getByTestId('keys-add').click();
    await fillKeyForm(en, { name: 'Typo', version: 'fake-chatt', url: fake.url, key: fake.apiKey });
    await en.getByTestId('key-form-test').click();
    await expect.poll(() => en.getByTestId('key-form-test-result').getAttribute('data-kind')).toBe('model_not_found');
    expect(await en.getByTestId('key-form-test-result-title').textContent()).toBe('Test failed: Unknown model');
    await screenshotDialog(en, 'auth-center-form-en');
    await en.getByTestId('key-form-cancel').click();
  });

  it('shows members the keys read-only, with who manages them', async () => {
    const admin = await apiToken(ADMIN_PHONE);
    const team = await call(teamRoutes.create, admin, { name: TEAM });
    await call(
      modelKeyRoutes.create,
      admin,
      {
        model_name: '团队模型',
        version: 'fake-chat',
        base_url: fake.url,
        api_key: fake.apiKey,
        purpose: 'chat',
      },
      team.id,
    );
    const invite = await call(teamRoutes.inviteCreate, admin, {}, team.id);
    const member = await apiToken(MEMBER_PHONE);
    await call(inviteRoutes.accept, member, { code: invite.code });

    const page = await (await newContext(browser, 'zh-CN')).newPage();
    await page.goto(`/auth-center?token=${member}&spaceId=${team.id}`);
    const shared = row(page, '团队模型');
    await shared.waitFor();
    await page.getByTestId('keys-readonly-note').waitFor();
    expect(await page.getByTestId('keys-add').count()).toBe(0);
    expect(
      await page.locator('[data-testid="key-test"], [data-testid="key-edit"], [data-testid="key-delete"]').count(),
    ).toBe(0);
    expect(await shared.getByTestId('key-masked').textContent()).toBe('****');
    await screenshot(page, 'auth-center-member-zh-CN');
  });
});
