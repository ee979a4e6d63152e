import {
  agentRoutes,
  agentStreams,
  type Envelope,
  formatMessage,
  modelKeyRoutes,
  type OpenAICompletion,
  type RouteBody,
  type RouteData,
  type RouteDescriptor,
  type StreamBody,
} from '@athena/contract';
import { type FakeOpenAI, startFakeOpenAI } from '@athena/fake-openai';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, clickWhenSettled, launchChromium, newContext, screenshot } from '../support/browser.ts';
import { TEST_CODE } from '../support/session.ts';

const AUTHOR_PHONE = '13800000005';
const AGENT_NAME = '旅行助手';
const OPENING = '你好！我可以帮你规划旅行。';
const SUGGESTIONS = ['杭州有什么好玩的？', 'What should I pack for Tokyo?'];
/** 60 words: at 40 ms a piece the answer streams for about 2.5 s, long enough to press Stop. */
const LONG_QUESTION = Array.from({ length: 60 }, (_, i) => `word${i + 1}`).join(' ');

/** A product API call as the signed-in author, typed by its contract route. */
async function call<R extends RouteDescriptor>(
  route: R,
  body: RouteBody<R>,
  session: { token: string; spaceId: string },
): Promise<RouteData<R>> {
  const res = await fetch(`${baseUrl()}${route.path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', token: session.token, 'space-id': session.spaceId },
    body: JSON.stringify(body),
  });
  const envelope = (await res.json()) as Envelope<RouteData<R>>;
  if (envelope.code !== 0) throw new Error(`${route.path}: ${envelope.code} ${envelope.msg}`);
  return envelope.data;
}

/** Answers in the conversation (not the opening message, which is not part of it). */
const answers = (page: Page) =>
  page.locator('[data-testid="chat-messages"] > div > [data-testid="chat-message"][data-role="assistant"]');
const questions = (page: Page) => page.locator('[data-testid="chat-message"][data-role="user"]');
const contentOf = async (message: Locator) => (await message.getByTestId('chat-message-content').textContent()) ?? '';

/** Records every distinct text the newest answer shows, so a test can see it grow piece by piece. */
async function recordAnswerTexts(page: Page) {
  await page.evaluate(() => {
    const w = window as unknown as { __answerTexts: string[]; __answerObserver?: MutationObserver };
    w.__answerTexts = [];
    w.__answerObserver?.disconnect();
    const root = document.querySelector('[data-testid="chat-messages"]');
    if (!root) throw new Error('no chat');
    w.__answerObserver = new MutationObserver(() => {
      const all = root.querySelectorAll(':scope > div > [data-testid="chat-message"][data-role="assistant"]');
      const text = all[all.length - 1]?.querySelector('[data-testid="chat-message-content"]')?.textContent ?? '';
      if (w.__answerTexts.at(-1) !== text) w.__answerTexts.push(text);
    });
    w.__answerObserver.observe(root, { subtree: true, childList: true, characterData: true });
  });
}
const recordedTexts = (page: Page) =>
  page.evaluate(() => (window as unknown as { __answerTexts: string[] }).__answerTexts);

async function send(page: Page, text: string) {
  await page.getByTestId('chat-input').fill(text);
  await page.getByTestId('chat-input').press('Enter');
}

async function waitForAnswer(page: Page, status = 'complete') {
  await expect.poll(() => answers(page).last().getAttribute('data-status'), { timeout: 15_000 }).toBe(status);
}

describe('agents: create, chat with streaming, stop, regenerate, publish and share', () => {
  let browser: Browser;
  let fake: FakeOpenAI;
  let author: Page;
  let visitorContext: BrowserContext;
  let visitor: Page;
  let session: { token: string; spaceId: string };
  let agentId = '';
  let publicId = '';
  let shareUrl = '';

  beforeAll(async () => {
    fake = await startFakeOpenAI({ tokenDelayMs: 40 });
    browser = await launchChromium();
    author = await (await newContext(browser, 'zh-CN')).newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await fake?.close();
  });

  it('signs in, explains an empty agent list and creates an agent', async () => {
    await author.goto('/agents');
    await author.getByTestId('login-panel').waitFor();
    await author.getByTestId('phone-input').fill(AUTHOR_PHONE);
    await author.getByTestId('code-input').fill(TEST_CODE);
    await author.getByTestId('login-submit').click();
    await author.getByTestId('agents-empty').waitFor();
    expect(await author.getByTestId('page-title').textContent()).toBe('智能体');
    await author.getByTestId('nav-agents').waitFor();
    const [token, spaceId] = await author.evaluate(() => [
      localStorage.getItem('athena.token') ?? '',
      localStorage.getItem('athena.spaceId') ?? '',
    ]);
    session = { token, spaceId };

    await author.getByTestId('agents-empty-create').click();
    await author.getByTestId('agent-create-modal').waitFor();
    await clickWhenSettled(author, 'agent-create-submit');
    await author.getByText('智能体名称不能为空。', { exact: true }).waitFor();
    await author.getByTestId('agent-create-name').fill(AGENT_NAME);
    await author.getByTestId('agent-create-submit').click();
    await author.getByTestId('page-agentDetail').waitFor();
    agentId = (await author.getByTestId('page-agentDetail').getAttribute('data-agent-id')) ?? '';
    expect(author.url()).toContain(`/agents/${agentId}`);
    expect(await author.getByTestId('page-title').textContent()).toBe(AGENT_NAME);
  });

  it('says so inline when there is no chat key, then configures the agent', async () => {
    await author.getByTestId('agent-no-model-key').waitFor();
    await send(author, '你好');
    const notice = author.getByTestId('chat-notice');
    await notice.waitFor();
    expect(await notice.getAttribute('data-code')).toBe('40093');
    expect(await notice.textContent()).toContain('还没有可用的对话模型密钥');
    expect(await questions(author).last().getAttribute('data-status')).toBe('unsent');
    // The space's creator may add one: the notice leads there.
    await notice.getByTestId('chat-notice-add-key').click();
    await author.waitForURL(/\/auth-center/);
    await author.goBack();
    await author.getByTestId('agent-no-model-key').waitFor();

    // The key is added through the API with the browser's own session.
    await call(
      modelKeyRoutes.create,
      { model_name: '测试模型', version: 'fake-chat', base_url: fake.url, api_key: fake.apiKey, purpose: 'chat' },
      session,
    );
    await author.reload();
    await author.getByTestId('agent-editor').waitFor();
    expect(await author.getByTestId('agent-no-model-key').count()).toBe(0);

    await author.getByTestId('agent-description-input').fill('帮你规划行程、推荐景点和打包清单。');
    await author.getByTestId('agent-system-prompt-input').fill('You are a helpful travel assistant.');
    await author.getByTestId('agent-opening-input').fill(OPENING);
    for (const question of SUGGESTIONS) {
      await author.getByTestId('agent-suggestion-add').click();
      await author.getByTestId('agent-suggestion-input').last().fill(question);
    }
    await author.getByTestId('agent-editor-dirty').waitFor();
    await author.getByTestId('agent-save').click();
    await author.getByTestId('agent-editor-clean').waitFor();
    const saved = await call(agentRoutes.get, { id: agentId }, session);
    expect(saved.system_prompt).toBe('You are a helpful travel assistant.');
    expect(saved.suggested_questions).toEqual(SUGGESTIONS);
    await author.getByTestId('chat-opening').getByText(OPENING).waitFor();
    expect(await author.getByTestId('chat-suggestion').allTextContents()).toEqual(SUGGESTIONS);
  });

  it('streams the answer token by token', async () => {
    await recordAnswerTexts(author);
    const question = 'please plan a relaxed three day trip to Hangzhou with tea fields and the lake';
    await send(author, question);
    await author.getByTestId('chat-stop').waitFor();
    await waitForAnswer(author);
    const final = await contentOf(answers(author).last());
    expect(final).toBe(`Echo: ${question}`);
    const texts = (await recordedTexts(author)).filter((text) => text && text !== final);
    // Several partial answers were on screen, each a beginning of the final one.
    expect(texts.length).toBeGreaterThanOrEqual(3);
    for (const text of texts) expect(final.startsWith(text)).toBe(true);
    expect(await author.getByTestId('chat-send').count()).toBe(1);
    expect(new URL(author.url()).searchParams.get('c')).toBeTruthy();
    await expect.poll(() => author.getByTestId('conversation-item').count()).toBe(1);
    // The system prompt went first, then the question.
    const request = fake.requests.filter((r) => r.path === '/v1/chat/completions').at(-1);
    const body = request?.body as { messages: { role: string }[] } | undefined;
    expect(body?.messages[0]).toMatchObject({ role: 'system' });
  });

  it('renders Markdown safely: highlighting, safe links only, no raw HTML', async () => {
    await send(
      author,
      '**bold** [bad](javascript:alert(1)) [good](https://example.com/x) <b>raw</b>\n\n```js\nconst answer = 42;\n```',
    );
    await waitForAnswer(author);
    const content = answers(author).last().getByTestId('chat-message-content');
    expect(await content.locator('strong').textContent()).toBe('bold');
    expect(await content.locator('a', { hasText: 'bad' }).getAttribute('href')).toBeNull();
    const good = content.locator('a', { hasText: 'good' });
    expect(await good.getAttribute('href')).toBe('https://example.com/x');
    expect(await good.getAttribute('target')).toBe('_blank');
    expect(await good.getAttribute('rel')).toContain('noopener');
    expect(await content.locator('b').count()).toBe(0);
    expect(await content.textContent()).toContain('<b>raw</b>');
    const code = content.getByTestId('md-code-block');
    expect(await code.getAttribute('data-language')).toBe('js');
    expect(await code.locator('.hljs-keyword').first().textContent()).toBe('const');
  });

  it('stops a long answer and keeps it as stopped; regenerate answers again', async () => {
    await send(author, LONG_QUESTION);
    await expect
      .poll(async () => (await contentOf(answers(author).last())).length, { timeout: 10_000 })
      .toBeGreaterThan(30);
    await author.getByTestId('chat-stop').click();
    await waitForAnswer(author, 'stopped');
    await answers(author).last().getByTestId('chat-stopped').waitFor();
    const shown = await contentOf(answers(author).last());
    const full = `Echo: ${LONG_QUESTION}`;
    expect(full.startsWith(shown)).toBe(true);
    expect(shown.length).toBeLessThan(full.length);

    // The server kept the partial answer as stopped.
    const conversationId = new URL(author.url()).searchParams.get('c') ?? '';
    await expect
      .poll(async () => {
        const { items } = await call(agentRoutes.messages, { conversation_id: conversationId }, session);
        return items.at(-1)?.status;
      })
      .toBe('stopped');
    await screenshot(author, 'agents-stopped-zh-CN');

    const before = await answers(author).count();
    await answers(author).last().getByTestId('chat-regenerate').click();
    await author.getByTestId('chat-stop').waitFor();
    await waitForAnswer(author);
    expect(await contentOf(answers(author).last())).toBe(full);
    expect(await answers(author).count()).toBe(before);
    expect(await author.getByTestId('chat-stopped').count()).toBe(0);
  });

  it('keeps conversations: new chat from a suggestion, rename, return, delete', async () => {
    const firstId = new URL(author.url()).searchParams.get('c');
    await author.getByTestId('playground-new-chat').click();
    await author.getByTestId('chat-suggestions').waitFor();
    await author.getByTestId('chat-suggestion').first().click();
    await waitForAnswer(author);
    expect(await contentOf(answers(author).last())).toBe(`Echo: ${SUGGESTIONS[0]}`);
    await expect.poll(() => author.getByTestId('conversation-item').count()).toBe(2);
    const secondId = new URL(author.url()).searchParams.get('c');
    expect(secondId).not.toBe(firstId);

    const second = author.locator(`[data-testid="conversation-item"][data-conversation-id="${secondId}"]`);
    await second.getByTestId('conversation-menu').click();
    await author.getByTestId('conversation-rename').filter({ visible: true }).click();
    await author.getByTestId('conversation-rename-input').fill('杭州行程');
    await author.getByTestId('conversation-rename-save').click();
    await expect.poll(() => second.getByTestId('conversation-title').textContent()).toBe('杭州行程');

    // Back to the first conversation: its messages come from the server, the stopped one too.
    await author.locator(`[data-testid="conversation-item"][data-conversation-id="${firstId}"]`).click();
    await expect.poll(() => new URL(author.url()).searchParams.get('c')).toBe(firstId);
    await expect.poll(() => answers(author).count()).toBe(3);
    expect(await questions(author).first().getByTestId('chat-message-content').textContent()).toContain('Hangzhou');
    await screenshot(author, 'agents-playground-zh-CN');

    await second.getByTestId('conversation-menu').click();
    await author.getByTestId('conversation-delete').filter({ visible: true }).click();
    await clickWhenSettled(author, 'conversation-delete-confirm');
    await expect.poll(() => author.getByTestId('conversation-item').count()).toBe(1);
  });

  it('publishes: share link on, an API key shown once that works with the OpenAI protocol', async () => {
    await author.getByTestId('agent-tab-publish').click();
    await author.getByTestId('share-off-note').waitFor();
    await author.getByTestId('share-toggle').click();
    await expect.poll(() => author.getByTestId('share-card').getAttribute('data-enabled')).toBe('true');
    shareUrl = await author.getByTestId('share-url').inputValue();
    expect(shareUrl).toMatch(/\/share\/[\w-]+$/);
    publicId = (await author.getByTestId('code-model').textContent()) ?? '';
    expect(publicId).toMatch(/^agent-/);
    expect(await author.getByTestId('code-base-url').textContent()).toBe(`${baseUrl()}/v1`);
    expect(await author.getByTestId('code-sample').textContent()).toContain(`model="${publicId}"`);

    await author.getByTestId('api-key-create').click();
    await author.getByTestId('api-key-name').fill('官网');
    await author.getByTestId('api-key-create-submit').click();
    await author.getByTestId('api-key-created-modal').waitFor();
    const key = await author.getByTestId('api-key-secret').inputValue();
    expect(key).toMatch(/^ath-/);
    await screenshot(author, 'agents-api-key-once-zh-CN');
    await author.getByTestId('api-key-done').click();
    const row = author.getByTestId('api-key-row');
    await row.waitFor();
    expect(key.startsWith((await row.getByTestId('api-key-prefix').textContent())?.replace('…', '') ?? 'x')).toBe(true);
    expect(await row.textContent()).not.toContain(key);

    const request: StreamBody<typeof agentStreams.completions> = {
      model: publicId,
      messages: [{ role: 'user', content: 'ping' }],
    };
    const completion = await fetch(`${baseUrl()}${agentStreams.completions.path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(request),
    });
    const answer = (await completion.json()) as OpenAICompletion;
    expect(answer.choices[0].message.content).toBe('Echo: ping');
    await author.reload();
    await author.getByTestId('agent-tab-publish').click();
    await expect.poll(() => author.getByTestId('api-key-uses').first().textContent()).toBe('1');
    await screenshot(author, 'agents-publish-zh-CN');
  });

  it('lets a signed-out visitor chat on the share page, with streaming and stop', async () => {
    visitorContext = await newContext(browser, 'zh-CN');
    visitor = await visitorContext.newPage();
    await visitor.goto(new URL(shareUrl).pathname);
    await visitor.getByTestId('share-agent').waitFor();
    expect(await visitor.getByTestId('share-agent-name').textContent()).toBe(AGENT_NAME);
    expect(await visitor.getByTestId('login-modal').count()).toBe(0);
    await visitor.getByTestId('chat-opening').getByText(OPENING).waitFor();
    expect(await visitor.getByTestId('chat-suggestion').count()).toBe(2);

    await recordAnswerTexts(visitor);
    const question = '我想去西湖看看 有什么建议 最好 安排 两天 的 行程 和 美食';
    await send(visitor, question);
    await waitForAnswer(visitor);
    const final = await contentOf(answers(visitor).last());
    expect(final).toBe(`Echo: ${question}`);
    const partial = (await recordedTexts(visitor)).filter((text) => text && text !== final);
    expect(partial.length).toBeGreaterThanOrEqual(3);
    for (const text of partial) expect(final.startsWith(text)).toBe(true);
    expect(await visitor.getByTestId('chat-regenerate').count()).toBe(0);

    await send(visitor, LONG_QUESTION);
    await expect.poll(async () => (await contentOf(answers(visitor).last())).length).toBeGreaterThan(20);
    await visitor.getByTestId('chat-stop').click();
    await waitForAnswer(visitor, 'stopped');
    await screenshot(visitor, 'agents-share-zh-CN');

    // A reload continues the same conversation (this browser keeps it).
    await visitor.reload();
    await expect.poll(() => answers(visitor).count()).toBe(2);
    await visitor.getByTestId('share-new-chat').click();
    expect(await answers(visitor).count()).toBe(0);
    await visitor.getByTestId('chat-suggestions').waitFor();
  });

  it('lists the published agent on /apps with its usage', async () => {
    await author.goto('/apps');
    const row = author.locator(`[data-testid="app-row"][data-agent-name="${AGENT_NAME}"]`);
    await row.waitFor();
    expect(await row.getByTestId('app-api-keys').textContent()).toBe('1');
    // One share conversation plus one API call.
    expect(Number(await row.getByTestId('app-conversations').textContent())).toBeGreaterThanOrEqual(2);
    expect(Number(await row.getByTestId('app-messages').textContent())).toBeGreaterThanOrEqual(4);
    expect(Number((await row.getByTestId('app-tokens').textContent())?.replace(/,/g, ''))).toBeGreaterThan(0);
    await row.getByTestId('app-share').waitFor();
    await screenshot(author, 'agents-apps-zh-CN');
    await row.getByTestId('app-agent-link').click();
    await author.getByTestId('page-agentDetail').waitFor();
  });

  it('works in English for the author and for a visitor', async () => {
    const en = await (await newContext(browser, 'en-US')).newPage();
    const conversation = (await call(agentRoutes.conversations, { agent_id: agentId }, session)).items[0].id;
    await en.goto(`/agents/${agentId}?c=${conversation}&token=${session.token}&spaceId=${session.spaceId}`);
    await en.getByTestId('page-agentDetail').waitFor();
    await expect.poll(() => answers(en).count()).toBe(3);
    expect(await en.getByTestId('agent-tab-configure').textContent()).toBe('Configure');
    expect(await en.getByTestId('chat-input').getAttribute('placeholder')).toBe(
      'Type a message — Enter to send, Shift+Enter for a new line',
    );
    await screenshot(en, 'agents-playground-en');

    await en.goto('/apps');
    await en.getByTestId('apps-table').waitFor();
    expect(await en.getByTestId('page-title').textContent()).toBe('Apps');
    await screenshot(en, 'agents-apps-en');

    await en.goto('/agents');
    await en.getByTestId('agents-grid').waitFor();
    await screenshot(en, 'agents-list-en');

    const enVisitor = await (await newContext(browser, 'en-US')).newPage();
    await enVisitor.goto(new URL(shareUrl).pathname);
    await enVisitor.getByTestId('share-agent').waitFor();
    await send(enVisitor, 'Which **three** places should I *not* miss?');
    await waitForAnswer(enVisitor);
    expect(await answers(enVisitor).last().locator('strong').textContent()).toBe('three');
    await screenshot(enVisitor, 'agents-share-en');
  });

  it('tells a visitor who sends too much to slow down (42900)', async () => {
    const visitorId = await visitor.evaluate(() => localStorage.getItem('athena.shareVisitor') ?? '');
    const code = new URL(shareUrl).pathname.split('/').pop() ?? '';
    // 20 messages per 10 minutes per visitor: 2 were sent from the page already.
    for (let i = 0; i < 18; i++) {
      const body: StreamBody<typeof agentStreams.shareChat> = { code, visitor_id: visitorId, message: `hi ${i}` };
      const res = await fetch(`${baseUrl()}${agentStreams.shareChat.path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(res.headers.get('content-type')).toContain('text/event-stream');
      await res.text();
    }
    await send(visitor, 'one more');
    const notice = visitor.getByTestId('chat-notice');
    await notice.waitFor();
    expect(await notice.getAttribute('data-code')).toBe('42900');
    await visitor.getByTestId('share-rate-limited').waitFor();
    expect(await questions(visitor).last().getAttribute('data-status')).toBe('unsent');
    await screenshot(visitor, 'agents-share-rate-limited-zh-CN');
  });

  it('turning the share link off shows visitors a clear message; delete asks first', async () => {
    await author.goto(`/agents/${agentId}`);
    await author.getByTestId('agent-tab-publish').click();
    await author.getByTestId('share-toggle').click();
    await clickWhenSettled(author, 'share-off-confirm');
    await author.getByTestId('share-off-note').waitFor();

    await visitor.reload();
    await visitor.getByTestId('share-invalid').waitFor();
    expect(await visitor.getByTestId('share-invalid').textContent()).toContain('这个链接无法使用');
    await screenshot(visitor, 'agents-share-invalid-zh-CN');

    await author.goto('/agents');
    const card = author.locator(`[data-testid="agent-card"][data-agent-id="${agentId}"]`);
    await card.getByTestId('agent-card-menu').click();
    await author.getByTestId('agent-duplicate').filter({ visible: true }).click();
    await expect.poll(() => author.getByTestId('agent-card').count()).toBe(2);
    await screenshot(author, 'agents-list-zh-CN');
    const copy = author.locator(`[data-testid="agent-card"][data-agent-name="${AGENT_NAME} (copy)"]`);
    await copy.getByTestId('agent-card-menu').click();
    await author.getByTestId('agent-delete').filter({ visible: true }).click();
    await clickWhenSettled(author, 'agent-delete-confirm');
    await expect.poll(() => author.getByTestId('agent-card').count()).toBe(1);
  });

  // The one error-notice path: a failed write shows the server's message in the person's language.
  it('deleting an agent someone else already deleted says so in a notice', async () => {
    const copy = await call(agentRoutes.duplicate, { id: agentId }, session);
    await author.goto('/agents');
    const card = author.locator(`[data-testid="agent-card"][data-agent-id="${copy.id}"]`);
    await card.waitFor();
    await call(agentRoutes.delete, { id: copy.id }, session);
    await card.getByTestId('agent-card-menu').click();
    await author.getByTestId('agent-delete').filter({ visible: true }).click();
    await clickWhenSettled(author, 'agent-delete-confirm');
    const notFound = formatMessage('NOT_FOUND', 'zh-CN');
    await author.locator('.ant-message-notice', { hasText: notFound }).waitFor();
  });

  it('says in words why a model call failed, with no empty answer above it', async () => {
    await author.goto(`/agents/${agentId}`);
    await author.getByTestId('chat-input').waitFor();
    fake.setMode('server_error');
    try {
      await send(author, 'this call fails at the provider');
      await waitForAnswer(author, 'error');
      const failed = answers(author).last();
      const error = await failed.getByTestId('chat-message-error').textContent();
      expect(error).toContain('模型服务商出错');
      expect(error).not.toContain('server_error');
      expect(await failed.getByTestId('chat-message-content').count()).toBe(0);
      expect(await failed.getByTestId('citation-sources').count()).toBe(0);
      await screenshot(author, 'agents-model-failed-zh-CN');
    } finally {
      fake.setMode('normal');
    }
  });
});
