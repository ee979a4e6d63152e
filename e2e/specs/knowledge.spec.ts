import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  agentRoutes,
  type Envelope,
  knowledgeRoutes,
  modelKeyRoutes,
  type RouteBody,
  type RouteData,
  type RouteDescriptor,
} from '@athena/contract';
import { DEFAULT_MODELS, type FakeOpenAI, startFakeOpenAI } from '@athena/fake-openai';
import { makeCsvQa, makeDocxWithHeadingsAndTable } from '@athena/knowledge-core/fixtures';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, newContext, screenshot } from '../support/browser.ts';
import {
  addEmbeddingKey,
  createBaseInForm,
  EMBEDDING_MODEL,
  openDropdown,
  type Session,
  signInToEmptyKnowledge,
} from '../support/knowledge.ts';

const AUTHOR_PHONE = '13800000006';
const BASE_NAME = '员工知识库';
const AGENT_NAME = '员工助手';

const TXT_NAME = '员工手册.txt';
const CSV_NAME = '常见问题.csv';
const DOCX_NAME = '通讯录.docx';
const FILES = [TXT_NAME, CSV_NAME, DOCX_NAME];

const HANDBOOK = [
  '员工手册（节选）',
  '第一条 年假。员工入职满一年后，每年享有十天带薪年假。年假需提前三个工作日在OA系统提交申请，经直属主管审批后生效。当年未休完的年假可以顺延到次年三月底。',
  '第二条 加班。工作日加班可以申请调休，调休须在三个月内使用。周末加班按照国家规定支付两倍工资。',
  '第三条 办公设备。新员工入职当天由行政部发放笔记本电脑和工牌。设备损坏请在二十四小时内报告IT服务台。',
].join('\n\n');
const QA: [string, string][] = [
  ['报销需要在多长时间内提交？', '费用发生后三十天内在财务系统提交报销单，并附上电子发票。'],
  ['忘记打卡怎么办？', '在考勤系统提交补卡申请，每月最多三次。'],
  ['访客网络叫什么？', '访客网络为 Athena-Guest，密码每周一在前台公布。'],
];
/** Added to a segment of the handbook by hand; nothing else in the base mentions it. */
const EDITED_LINE = '第四条 停车。公司地下车库的访客停车位编号为 B2-046，需提前一天向前台登记。';
const QUESTION = '年假有多少天？';

/** A product API call as the signed-in author, typed by its contract route. */
async function call<R extends RouteDescriptor>(
  page: Page,
  route: R,
  body: RouteBody<R>,
  session: Session,
): Promise<RouteData<R>> {
  const res = await page.request.post(route.path, {
    headers: { 'content-type': 'application/json', token: session.token, 'space-id': session.spaceId },
    data: body,
  });
  const envelope = (await res.json()) as Envelope<RouteData<R>>;
  if (envelope.code !== 0) throw new Error(`${route.path}: ${envelope.code} ${envelope.msg}`);
  return envelope.data;
}

const answers = (page: Page) =>
  page.locator('[data-testid="chat-messages"] > div > [data-testid="chat-message"][data-role="assistant"]');

async function waitForAnswer(page: Page) {
  await expect.poll(() => answers(page).last().getAttribute('data-status'), { timeout: 15_000 }).toBe('complete');
}

const unitRow = (page: Page, name: string) => page.locator(`[data-testid="unit-row"][data-file-name="${name}"]`);
const uploadRow = (page: Page, name: string) => page.locator(`[data-testid="upload-file"][data-name="${name}"]`);

/**
 * Records, in the page, every state the upload rows and the unit rows pass through. The app is a
 * single page, so one observer set up on the upload page keeps watching on the base's page.
 */
async function recordStates(page: Page) {
  await page.evaluate(() => {
    const w = window as unknown as { __states: Record<string, string[]>; __statesObserver?: MutationObserver };
    w.__states = {};
    w.__statesObserver?.disconnect();
    const note = (key: string, value: string) => {
      w.__states[key] ??= [];
      if (w.__states[key].at(-1) !== value) w.__states[key].push(value);
    };
    const scan = () => {
      for (const row of Array.from(document.querySelectorAll('[data-testid="upload-file"]'))) {
        const bar = row.querySelector('[data-testid="upload-file-progress"]');
        note(
          `upload:${row.getAttribute('data-name')}`,
          `${row.getAttribute('data-status')}:${bar?.getAttribute('data-percent') ?? '-'}`,
        );
      }
      for (const row of Array.from(document.querySelectorAll('[data-testid="unit-row"]'))) {
        const bar = row.querySelector('[data-testid="unit-progress"]');
        note(`unit:${row.getAttribute('data-file-name')}`, `${row.getAttribute('data-status')}${bar ? ':bar' : ''}`);
      }
    };
    w.__statesObserver = new MutationObserver(scan);
    w.__statesObserver.observe(document.body, { subtree: true, childList: true, attributes: true });
    scan();
  });
}
const recordedStates = (page: Page) =>
  page.evaluate(() => (window as unknown as { __states: Record<string, string[]> }).__states);

describe('knowledge bases: upload three files, watch them index, edit a segment, hit test, cited answers', () => {
  let browser: Browser;
  let fake: FakeOpenAI;
  let page: Page;
  let session: Session;
  let fixtures: string;
  let knowledgeId = '';
  let agentId = '';
  let conversationId = '';

  beforeAll(async () => {
    fixtures = mkdtempSync(path.join(os.tmpdir(), 'athena-knowledge-e2e-'));
    writeFileSync(path.join(fixtures, TXT_NAME), HANDBOOK);
    writeFileSync(path.join(fixtures, CSV_NAME), makeCsvQa(QA));
    writeFileSync(path.join(fixtures, DOCX_NAME), await makeDocxWithHeadingsAndTable());
    fake = await startFakeOpenAI({ models: [...DEFAULT_MODELS, EMBEDDING_MODEL], tokenDelayMs: 5 });
    browser = await launchChromium();
    page = await (await newContext(browser, 'zh-CN')).newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await fake?.close();
    if (fixtures) rmSync(fixtures, { recursive: true, force: true });
  });

  it('signs in to a fresh space, adds an embedding and a chat key, creates a base with that model', async () => {
    session = await signInToEmptyKnowledge(page, AUTHOR_PHONE);

    // Keys through the API (their pages have a spec of their own).
    const embedding = await addEmbeddingKey(fake, session);
    await call(
      page,
      modelKeyRoutes.create,
      { model_name: '测试模型', version: 'fake-chat', base_url: fake.url, api_key: fake.apiKey, purpose: 'chat' },
      session,
    );

    knowledgeId = await createBaseInForm(page, {
      name: BASE_NAME,
      description: '员工手册、常见问题和通讯录。',
      embeddingKeyId: embedding.id,
    });
    expect(page.url()).toContain(`/knowledge/detail/${knowledgeId}`);
    const base = await call(page, knowledgeRoutes.get, { id: knowledgeId }, session);
    expect(base.embedding_model_key_id).toBe(embedding.id);
    await page.getByTestId('units-empty').waitFor();
  });

  it('uploads three files at once with progress, previews chunking and starts indexing', async () => {
    await page.getByTestId('units-empty-upload').click();
    await page.getByTestId('page-knowledgeUpload').waitFor();
    await recordStates(page);
    // A slow uplink, so the progress bars have something to show (the files are a few KB).
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 100,
      downloadThroughput: -1,
      uploadThroughput: 16 * 1024,
    });
    await page.getByTestId('upload-input').setInputFiles(FILES.map((name) => path.join(fixtures, name)));
    await expect.poll(() => page.getByTestId('upload-file').count()).toBe(3);
    for (const name of FILES) {
      await expect.poll(() => uploadRow(page, name).getAttribute('data-status'), { timeout: 15_000 }).toBe('uploaded');
      expect(await uploadRow(page, name).getByTestId('upload-file-progress').getAttribute('data-percent')).toBe('100');
    }
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
    await cdp.detach();
    const uploads = await recordedStates(page);
    console.log('upload states seen:', JSON.stringify(FILES.map((name) => [name, uploads[`upload:${name}`]])));
    // Every file showed a progress bar before it was done (queued or uploading, then uploaded at 100).
    for (const name of FILES) {
      const seen = uploads[`upload:${name}`] ?? [];
      expect(seen.at(-1)).toBe('uploaded:100');
      expect(seen.length).toBeGreaterThan(1);
      for (const state of seen) expect(state).toMatch(/^(queued|uploading|uploaded):\d+$/);
    }
    await screenshot(page, 'knowledge-upload-zh-CN');

    await page.getByTestId('upload-next').click();
    await page.getByTestId('upload-settings').waitFor();
    // The CSV's header 问题,答案 makes it a Q&A sheet.
    const sheet = page.getByTestId('table-mode-row');
    expect(await sheet.count()).toBe(1);
    expect(await sheet.getAttribute('data-mode')).toBe('qa');
    await page.getByTestId('chunk-preview-run').click();
    await page.getByTestId('chunk-preview-item').first().waitFor();
    expect(await page.getByTestId('chunk-preview-summary').textContent()).toBeTruthy();
    await screenshot(page, 'knowledge-chunking-zh-CN');

    await page.getByTestId('start-indexing').click();
    await page.getByTestId('page-knowledgeDetail').waitFor();
    for (const name of FILES) {
      await expect.poll(() => unitRow(page, name).getAttribute('data-status'), { timeout: 30_000 }).toBe('indexed');
      expect(await unitRow(page, name).getByTestId('unit-status').getAttribute('data-status')).toBe('indexed');
    }
    const units = await recordedStates(page);
    console.log('unit states seen:', JSON.stringify(FILES.map((name) => [name, units[`unit:${name}`]])));
    for (const name of FILES) {
      const seen = units[`unit:${name}`] ?? [];
      expect(seen.at(-1)).toBe('indexed');
      // Only the way forward: waiting → indexing (with its bar) → indexed, never failed or canceled.
      for (const state of seen) expect(state).toMatch(/^(waiting|indexing:bar|indexed)$/);
    }
    // The counts in the header catch up once indexing settles.
    await expect
      .poll(() =>
        page
          .getByTestId('knowledge-detail-summary')
          .locator('[data-status]')
          .evaluateAll((parts) => parts.map((part) => part.getAttribute('data-status'))),
      )
      .toEqual(['indexed']);
    expect(await page.getByTestId('units-live').count()).toBe(0);
    await screenshot(page, 'knowledge-detail-zh-CN');
  });

  it("edits one segment's content; the new text shows and search finds it", async () => {
    await unitRow(page, TXT_NAME).getByTestId('unit-name').click();
    await page.getByTestId('page-knowledgeUnit').waitFor();
    const card = page.getByTestId('segment-card').first();
    await card.waitFor();
    const segmentId = (await card.getAttribute('data-segment-id')) ?? '';
    await card.getByTestId('segment-edit').click();
    const input = page.getByTestId('segment-content-input');
    await input.waitFor();
    const before = await input.inputValue();
    expect(before).toContain('年假');
    await input.fill(`${before}\n${EDITED_LINE}`);
    await page.getByTestId('segment-save').click();
    await page.getByTestId('segment-edit-modal').waitFor({ state: 'detached' });
    const edited = page.locator(`[data-testid="segment-card"][data-segment-id="${segmentId}"]`);
    await expect.poll(() => edited.getByTestId('segment-content').textContent()).toContain(EDITED_LINE);
    await screenshot(page, 'knowledge-segment-edited-zh-CN');

    const found = await call(
      page,
      knowledgeRoutes.search,
      { knowledge_id: knowledgeId, query: '访客停车位 B2-046' },
      session,
    );
    expect(found.items[0]?.segment.id).toBe(segmentId);
    expect(found.items[0]?.segment.content).toContain(EDITED_LINE);
    // Found by its words: the full-text index has the edited text, not only the stored segment.
    expect(found.items[0]?.found_by.map((by) => by.retriever)).toContain('fulltext');
  });

  it('runs a hit test whose best result is the right file', async () => {
    await page.getByTestId('knowledge-back').click();
    await page.getByTestId('page-knowledgeDetail').waitFor();
    await page.getByTestId('knowledge-tab-hit-test').click();
    await expect.poll(() => new URL(page.url()).searchParams.get('tab')).toBe('hit-test');
    await page.getByTestId('hit-test-query').fill('报销单要在多少天内提交');
    await page.getByTestId('hit-test-run').click();
    await page.getByTestId('hit-test-summary').waitFor();
    const first = page.getByTestId('hit-test-result').first();
    expect(await first.getByTestId('hit-file').textContent()).toContain(CSV_NAME);
    expect(await first.getByTestId('segment-question').textContent()).toContain('报销');
    expect(await first.getByTestId('hit-found-by').count()).toBeGreaterThan(0);
    await screenshot(page, 'knowledge-hit-test-zh-CN');
  });

  it('attaches the base in the agent editor and answers with citations that open the segment', async () => {
    const agent = await call(
      page,
      agentRoutes.create,
      { name: AGENT_NAME, system_prompt: '你是公司的员工助手。' },
      session,
    );
    agentId = agent.id;
    await page.goto(`/agents/${agentId}`);
    await page.getByTestId('agent-editor').waitFor();
    await page.getByTestId('agent-knowledge-select').click();
    await openDropdown(page).getByTestId(`agent-knowledge-option-${knowledgeId}`).click();
    await page.keyboard.press('Escape');
    await page.getByTestId('agent-editor-dirty').waitFor();
    await page.getByTestId('agent-save').click();
    await page.getByTestId('agent-editor-clean').waitFor();
    const saved = await call(page, agentRoutes.get, { id: agentId }, session);
    expect(saved.attachments.knowledge_ids).toEqual([knowledgeId]);

    await page.getByTestId('chat-input').fill(QUESTION);
    await page.getByTestId('chat-input').press('Enter');
    await waitForAnswer(page);
    conversationId = new URL(page.url()).searchParams.get('c') ?? '';
    const answer: Locator = answers(page).last();
    expect(await answer.getByTestId('chat-message-content').textContent()).toContain(QUESTION);
    // Needs the server's `citations` event (sources retrieved from the attached base).
    await answer.getByTestId('citation-chip').first().waitFor({ timeout: 5_000 });
    await answer.getByTestId('citation-sources').waitFor();
    const chip = answer.getByTestId('citation-chip').first();
    const marker = await chip.getAttribute('data-marker');
    await chip.click();
    const citationCard = page.locator(`[data-testid="citation-card"][data-marker="${marker}"]`);
    await citationCard.waitFor();
    expect(FILES).toContain(await citationCard.getByTestId('citation-file').textContent());
    await screenshot(page, 'knowledge-cited-answer-zh-CN');

    await citationCard.getByTestId('citation-open').click();
    await page.getByTestId('page-knowledgeUnit').waitFor();
    const url = new URL(page.url());
    expect(url.pathname).toMatch(new RegExp(`^/knowledge/${knowledgeId}/[\\w-]+$`));
    const segmentId = url.searchParams.get('segment');
    expect(segmentId).toBeTruthy();
    const highlighted = page.locator('[data-testid="segment-card"][data-highlighted="true"]');
    await highlighted.waitFor();
    expect(await highlighted.getAttribute('data-segment-id')).toBe(segmentId);
    await screenshot(page, 'knowledge-citation-target-zh-CN');
  });

  it('shows the indexed base and the cited answer in English', async () => {
    const en = await (await newContext(browser, 'en-US')).newPage();
    await en.goto(`/knowledge/detail/${knowledgeId}?token=${session.token}&spaceId=${session.spaceId}`);
    await en.getByTestId('page-knowledgeDetail').waitFor();
    for (const name of FILES) {
      await expect.poll(() => unitRow(en, name).getAttribute('data-status')).toBe('indexed');
    }
    expect(await en.getByTestId('knowledge-tab-files').textContent()).toContain('Files');
    await screenshot(en, 'knowledge-detail-en');

    expect(conversationId).toBeTruthy();
    await en.goto(`/agents/${agentId}?c=${conversationId}`);
    await en.getByTestId('page-agentDetail').waitFor();
    const chip = answers(en).last().getByTestId('citation-chip').first();
    await chip.waitFor();
    await chip.click();
    await en.getByTestId('citation-card').waitFor();
    await screenshot(en, 'knowledge-cited-answer-en');
  });
});
