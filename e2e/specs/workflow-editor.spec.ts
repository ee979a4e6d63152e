import {
  type Envelope,
  ERRORS,
  KEPT_SECRET,
  modelKeyRoutes,
  type RouteBody,
  type RouteData,
  type RouteDescriptor,
  WORKFLOW_API_RUN_PATH,
  type WorkflowGraph,
  workflowRoutes,
  workflowTriggerRoutes,
} from '@athena/contract';
import { type FakeOpenAI, startFakeOpenAI } from '@athena/fake-openai';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, clickWhenSettled, launchChromium, newContext, screenshot } from '../support/browser.ts';
import { resetSettings, signInWithTestNumber } from '../support/session.ts';

const NAME = `E2E 画布 ${Date.now().toString(36)}`;
const KEY_NAME = `画布模型 ${Date.now().toString(36)}`;
const QUESTION = '今天杭州天气如何';

type Session = { token: string; spaceId: string };

/** A product API call as the signed-in person, typed by its contract route; the envelope as it came. */
async function raw<R extends RouteDescriptor>(route: R, body: RouteBody<R>, session: Session) {
  const res = await fetch(`${baseUrl()}${route.path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', token: session.token, 'space-id': session.spaceId },
    body: JSON.stringify(body),
  });
  return (await res.json()) as Envelope<RouteData<R>>;
}

async function call<R extends RouteDescriptor>(route: R, body: RouteBody<R>, session: Session) {
  const envelope = await raw(route, body, session);
  if (envelope.code !== 0) throw new Error(`${route.path}: ${envelope.code} ${envelope.msg}`);
  return envelope.data;
}

/** The workflow's node of a kind on the canvas. */
const nodeOf = (page: Page, type: string) => page.locator(`[data-testid^="wf-node-"][data-node-type="${type}"]`);

/** Drags from one handle to another with the mouse, as a person connects two nodes. */
async function connect(page: Page, from: string, to: string) {
  const source = await page.locator(from).boundingBox();
  const target = await page.locator(to).boundingBox();
  if (!source || !target) throw new Error(`no handle: ${from} or ${to}`);
  await page.mouse.move(source.x + source.width / 2, source.y + source.height / 2);
  await page.mouse.down();
  await page.mouse.move(target.x + target.width / 2, target.y + target.height / 2, { steps: 8 });
  await page.mouse.up();
}

/** Opens the run panel, fills the question, runs, and waits for the result. */
async function testRun(page: Page) {
  await page.getByTestId('wf-test-run').click();
  await page.getByTestId('wf-run-panel').waitFor();
  await page.getByTestId('wf-run-input-q').fill(QUESTION);
  await page.getByTestId('wf-run-start').click();
  const tag = page.getByTestId('wf-run-result-tag');
  await tag.waitFor({ timeout: 20_000 });
  return tag.getAttribute('data-result');
}

describe('workflow editor: build on the canvas, test-run, publish, lock, run through the API', () => {
  let browser: Browser;
  let fake: FakeOpenAI;
  let page: Page;
  let session: Session;
  let workflowId = '';
  let llmId = '';

  beforeAll(async () => {
    await resetSettings();
    fake = await startFakeOpenAI({ tokenDelayMs: 5 });
    browser = await launchChromium();
    page = await (await newContext(browser, 'zh-CN')).newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await fake?.close();
  });

  it('builds start → LLM → end by drag and drop, runs the LLM node alone, then test-runs it: the nodes succeed and the answer appears', async () => {
    await page.goto('/dashboard');
    await signInWithTestNumber(page);
    const [token, spaceId] = await page.evaluate(() => [
      localStorage.getItem('athena.token') ?? '',
      localStorage.getItem('athena.spaceId') ?? '',
    ]);
    session = { token, spaceId };
    await call(
      modelKeyRoutes.create,
      { model_name: KEY_NAME, version: 'fake-chat', base_url: fake.url, api_key: fake.apiKey, purpose: 'chat' },
      session,
    );
    // A blank workflow whose start asks for one question, and no edge yet: the canvas does the rest.
    const created = await call(workflowRoutes.create, { name: NAME }, session);
    workflowId = created.id;
    const graph: WorkflowGraph = {
      ...created.draft,
      edges: [],
      nodes: created.draft.nodes.map((node) =>
        node.type === 'start'
          ? {
              ...node,
              data: {
                inputs: [{ name: 'q', label: '问题', type: 'text', required: true, options: [], max_length: null }],
              },
            }
          : node,
      ),
    };
    await call(workflowRoutes.draftSave, { id: workflowId, graph, base_revision: created.draft_revision }, session);

    await page.goto(`/ai-workflows/${workflowId}`);
    await page.getByTestId('wf-canvas').waitFor();
    const canvas = await page.locator('.react-flow__pane').boundingBox();
    if (!canvas) throw new Error('no canvas');
    // Drop the LLM node below the middle of the canvas, between start and end.
    await page.getByTestId('wf-palette-llm').dragTo(page.locator('.react-flow__pane'), {
      targetPosition: { x: canvas.width / 2, y: canvas.height * 0.75 },
    });
    await nodeOf(page, 'llm').waitFor();
    llmId = ((await nodeOf(page, 'llm').getAttribute('data-testid')) ?? '').replace('wf-node-', '');
    await connect(
      page,
      '[data-testid="wf-node-start"] .react-flow__handle-right',
      `[data-testid="wf-node-${llmId}"] .react-flow__handle-left`,
    );
    await connect(
      page,
      `[data-testid="wf-node-${llmId}"] .react-flow__handle-right`,
      '[data-testid="wf-node-end"] .react-flow__handle-left',
    );
    await expect.poll(() => page.locator('.react-flow__edge').count()).toBe(2);

    // The LLM node: the model key, and a prompt that reads the question through the variable picker.
    await nodeOf(page, 'llm').click();
    await page.locator(`[data-testid="wf-config-panel"][data-node-id="${llmId}"]`).waitFor();
    // The model and prompts come first; the node's description (a note) after them.
    const order = await page
      .getByTestId('wf-config-panel')
      .evaluate((panel) =>
        ['wf-field-model', 'wf-field-user-prompt', 'wf-field-description'].map((id) =>
          Array.from(panel.querySelectorAll('[data-testid]')).findIndex((el) => el.getAttribute('data-testid') === id),
        ),
      );
    expect(order.every((index) => index >= 0)).toBe(true);
    expect(order[2]).toBeGreaterThan(Math.max(order[0], order[1]));
    await page.getByTestId('wf-field-model').click();
    await page
      .locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option', { hasText: KEY_NAME })
      .click();
    // Under the key: which model it calls, and the override as a deliberate second step.
    expect(await page.getByTestId('wf-model-effective').textContent()).toContain('将调用 fake-chat');
    await page.getByTestId('wf-model-override-open').click();
    expect(await page.getByTestId('wf-field-model-name').getAttribute('placeholder')).toBe('fake-chat');
    await page.getByTestId('wf-model-override-reset').click();
    await page.getByTestId('wf-model-effective').waitFor();
    await page.getByTestId('wf-field-user-prompt').fill('请回答：');
    await page.getByTestId('wf-field-user-prompt-insert').click();
    await page.locator('.ant-dropdown:not(.ant-dropdown-hidden) .ant-dropdown-menu-item', { hasText: /· q$/ }).click();
    expect(await page.getByTestId('wf-field-user-prompt').inputValue()).toBe('请回答：{{#start.q#}}');

    // The end node outputs the model's text as `answer`.
    await page.getByTestId('wf-node-end').click();
    await page.getByTestId('wf-bound-variables-add').click();
    await page.getByTestId('wf-bound-name').fill('answer');
    await page.getByTestId('wf-bound-selector').click();
    await page
      .locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option')
      .filter({ hasText: /^text/ })
      .click();
    // Run this node alone, with the question given by hand.
    await nodeOf(page, 'llm').click();
    await page.getByTestId('wf-node-run').click();
    await page.getByTestId('wf-node-run-value-start.q').fill('单独运行');
    await page.getByTestId('wf-node-run-start').click();
    await page.getByTestId('wf-node-run-result').waitFor({ timeout: 15_000 });
    expect(await page.getByTestId('wf-node-run-result').getAttribute('data-status')).toBe('succeeded');
    expect(await page.getByTestId('wf-node-run-outputs').textContent()).toContain('Echo: 请回答：单独运行');
    await page.locator('.ant-modal-close').click();

    // Nothing stands between this draft and a run (the list shows what the engine and server find).
    await page.getByTestId('wf-problems-button').click();
    await expect.poll(() => page.getByTestId('wf-problem').count()).toBe(0);

    expect(await testRun(page)).toBe('succeeded');
    for (const id of ['start', llmId, 'end']) {
      expect(await page.getByTestId(`wf-node-status-${id}`).getAttribute('data-status')).toBe('succeeded');
    }
    // The node's badge has its time and the model's tokens.
    expect(await page.getByTestId(`wf-node-metrics-${llmId}`).textContent()).toMatch(/\d.*tokens/);
    const answer = `Echo: 请回答：${QUESTION}`;
    expect(await page.getByTestId('wf-run-answer').textContent()).toContain(answer);
    expect(await page.getByTestId('wf-run-outputs').textContent()).toContain(answer);
    expect(Number(await page.getByTestId('wf-run-tokens').textContent())).toBeGreaterThan(0);
    expect(await page.getByTestId('wf-run-history').getAttribute('href')).toMatch(
      new RegExp(`/ai-workflows/${workflowId}/runs\\?run=`),
    );
    // A node's row opens to what it read and produced.
    const llmTitle = await nodeOf(page, 'llm').locator('.wf-node-title').innerText();
    await page.getByTestId('wf-run-nodes').getByText(llmTitle, { exact: true }).click();
    expect(await page.getByTestId(`wf-run-node-${llmId}`).getByTestId('wf-run-node-outputs').textContent()).toContain(
      answer,
    );
    await screenshot(page, 'workflow-run-panel-zh-CN');

    // The run's details name each node's kind in the reader's language, not the type's id.
    const history = await page.context().newPage();
    try {
      await history.goto((await page.getByTestId('wf-run-history').getAttribute('href')) ?? '');
      const detail = history.getByTestId('workflow-run-detail');
      await detail.getByTestId('workflow-node-kind').first().waitFor();
      const kinds = await detail.getByTestId('workflow-node-kind').allTextContents();
      expect(kinds).toEqual(expect.arrayContaining(['开始', '大模型', '结束']));
      expect(kinds.join(' ')).not.toMatch(/\b(start|llm|end)\b/);
    } finally {
      await history.close();
    }
  });

  it('opens full-width with readable titles, adds a clicked node between start and end in view, and hides the side panels', async () => {
    const created = await call(workflowRoutes.create, { name: `${NAME} 宽` }, session);
    // A page of its own: the next test goes on with the first workflow's open run panel.
    const wide = await page.context().newPage();
    await wide.setViewportSize({ width: 1440, height: 900 });
    try {
      await wide.goto(`/ai-workflows/${created.id}`);
      await nodeOf(wide, 'end').waitFor();
      // The app's sider is hidden on the editor: the canvas gets what the node list and panel leave.
      const canvasWidth = async () => (await wide.getByTestId('wf-canvas').boundingBox())?.width ?? 0;
      expect(await canvasWidth()).toBeGreaterThan(1440 - 200 - 360 - 8);
      expect((await wide.locator('.ant-layout-sider').boundingBox())?.width ?? 0).toBeLessThanOrEqual(1);
      // Titles open readable (a 13 px title drawn at least 10 px high).
      const titleHeight = async () =>
        (await nodeOf(wide, 'start').locator('.wf-node-title').boundingBox())?.height ?? 0;
      expect(await titleHeight()).toBeGreaterThanOrEqual(10);

      // Start selected, then a click on "code" in the list: it goes between start and end, wired both ways.
      await nodeOf(wide, 'start').click();
      await wide.locator('[data-testid="wf-config-panel"][data-node-id="start"]').waitFor();
      await wide.getByTestId('wf-palette-code').click();
      await nodeOf(wide, 'code').waitFor();
      const codeId = ((await nodeOf(wide, 'code').getAttribute('data-testid')) ?? '').replace('wf-node-', '');
      await wide.locator(`[data-testid="wf-config-panel"][data-node-id="${codeId}"]`).waitFor();
      await wide.getByTestId('wf-palette-llm').click();
      await nodeOf(wide, 'llm').waitFor();
      const chainId = ((await nodeOf(wide, 'llm').getAttribute('data-testid')) ?? '').replace('wf-node-', '');
      const edgeIds = async () =>
        (
          await wide
            .locator('.react-flow__edge')
            .evaluateAll((edges) => edges.map((edge) => edge.getAttribute('data-id')))
        )
          .filter(Boolean)
          .sort();
      await expect
        .poll(edgeIds)
        .toEqual([`${chainId}:out->end`, `${codeId}:out->${chainId}`, `start:out->${codeId}`].sort());
      // The view followed: the new node and the end it leads to are inside the canvas.
      const inCanvas = async (testId: string) => {
        const box = await wide.getByTestId('wf-canvas').boundingBox();
        const node = await wide.getByTestId(testId).boundingBox();
        return Boolean(box && node && node.x >= box.x && node.x + node.width <= box.x + box.width);
      };
      await expect.poll(() => inCanvas(`wf-node-${chainId}`)).toBe(true);
      await expect.poll(() => inCanvas('wf-node-end')).toBe(true);
      await screenshot(wide, 'workflow-editor-wide-1440-zh-CN');

      // Both side panels hide for a larger canvas; choosing a node brings its settings back.
      const before = await canvasWidth();
      await wide.getByTestId('wf-toggle-palette').click();
      await wide.getByTestId('wf-toggle-panel').click();
      await wide.getByTestId('wf-palette').waitFor({ state: 'detached' });
      await expect.poll(canvasWidth).toBeGreaterThan(before + 500);
      await nodeOf(wide, 'code').click();
      await wide.getByTestId('wf-config-panel').waitFor();
      await wide.getByTestId('wf-toggle-palette').click();
      await wide.getByTestId('wf-palette').waitFor();
      await wide.setViewportSize({ width: 1920, height: 1080 });
      await screenshot(wide, 'workflow-editor-wide-1920-zh-CN');
    } finally {
      await wide.close();
    }
  });

  it('shows the run panel in zh-TW and en, and cancels a run', async () => {
    for (const locale of ['zh-TW', 'en']) {
      const context = await newContext(browser, locale);
      await context.addInitScript(({ token, spaceId }) => {
        localStorage.setItem('athena.token', token);
        localStorage.setItem('athena.spaceId', spaceId);
      }, session);
      const other = await context.newPage();
      await other.goto(`/ai-workflows/${workflowId}`);
      await other.getByTestId('wf-canvas').waitFor();
      expect(await testRun(other)).toBe('succeeded');
      await other.getByTestId('wf-run-nodes').locator('.ant-collapse-header').nth(1).click();
      await screenshot(other, `workflow-run-panel-${locale}`);
      if (locale === 'en') {
        // A long question streams long enough to cancel: the run ends failed, and says why.
        await other.getByTestId('wf-run-input-q').fill(Array.from({ length: 800 }, (_, i) => `w${i}`).join(' '));
        await other.getByTestId('wf-run-start').click();
        await other.getByTestId('wf-run-cancel').click();
        await other.getByTestId('wf-run-result-tag').waitFor({ timeout: 15_000 });
        expect(await other.getByTestId('wf-run-result-tag').getAttribute('data-result')).toBe('failed');
        expect(await other.getByTestId('wf-run-failure').getAttribute('data-code')).toBe(
          String(ERRORS.WORKFLOW_RUN_CANCELLED.code),
        );
        await screenshot(other, 'workflow-run-panel-cancelled-en');
      }
      await context.close();
    }
  });

  it('publishes with a note, locks it (read-only, a draft save refused), and runs it through the API', async () => {
    // The run panel covers the header's right end; closing it clears the nodes' badges.
    await page.locator('[data-testid="wf-run-panel"] .ant-drawer-close').click();
    // A secret environment variable: saved with the draft, never shown again.
    await page.getByTestId('wf-settings-button').click();
    await page.getByTestId('wf-settings-env-add').click();
    await page.getByTestId('wf-env-name').fill('API_TOKEN');
    await page.getByTestId('wf-env-type').click();
    await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option').nth(2).click();
    await page.getByTestId('wf-env-value').fill('s3cret-value');
    await page.getByTestId('wf-settings-max-steps').fill('200');
    await expect.poll(() => page.getByTestId('wf-save-state').getAttribute('data-state')).toBe('saved');
    await page.locator('[data-testid="wf-settings-drawer"] .ant-drawer-close').click();
    await page.getByTestId('wf-settings-button').click();
    expect(await page.getByTestId('wf-env-value').inputValue()).toBe('');
    expect(await page.getByTestId('wf-env-value').getAttribute('placeholder')).toBe('已保存（隐藏）');
    await screenshot(page, 'workflow-settings-zh-CN');
    await page.locator('[data-testid="wf-settings-drawer"] .ant-drawer-close').click();
    const saved = await call(workflowRoutes.detail, { id: workflowId }, session);
    // Stored, but never sent back to a browser: the detail carries a marker in its place.
    expect(saved.draft.environment).toEqual([{ name: 'API_TOKEN', type: 'secret', value: KEPT_SECRET }]);
    expect(saved.draft.settings.max_steps).toBe(200);

    await page.getByTestId('wf-publish').click();
    await page.getByTestId('wf-publish-note').fill('第一版');
    // The note's "3 / 500" counter sits above the buttons' row, not on it (polled: the dialog
    // zooms in, and boxes measured mid-animation are scaled).
    const counterAbove = async () => {
      const counter = await page.getByTestId('wf-publish-note-field').locator('.ant-input-data-count').boundingBox();
      const buttons = await page.getByTestId('wf-publish-confirm').boundingBox();
      return counter && buttons ? counter.y + counter.height <= buttons.y : false;
    };
    await expect.poll(counterAbove).toBe(true);
    await clickWhenSettled(page, 'wf-publish-confirm');
    await page.getByText('已发布为版本 1').waitFor();
    // "API & triggers" knows at once that the workflow is effective now (it said "publish first"
    // until a reload).
    await page.getByTestId('wf-triggers-button').click();
    await page.getByTestId('wf-triggers-api').waitFor();
    expect(await page.getByTestId('wf-triggers-not-effective').count()).toBe(0);
    await page.keyboard.press('Escape');
    await page.getByTestId('wf-triggers-drawer').waitFor({ state: 'hidden' });
    const versions = await call(workflowRoutes.versionList, { workflow_id: workflowId }, session);
    expect(versions.items.map((version) => [version.number, version.note])).toEqual([[1, '第一版']]);
    const apiKey = await call(workflowTriggerRoutes.apiKeyCreate, { workflow_id: workflowId, name: 'e2e' }, session);

    await call(workflowRoutes.lock, { id: workflowId, locked: true }, session);
    await page.reload();
    await page.getByTestId('wf-lock-banner').waitFor();
    expect(await page.getByTestId('wf-palette').count()).toBe(0);
    const detail = await call(workflowRoutes.detail, { id: workflowId }, session);
    const refused = await raw(
      workflowRoutes.draftSave,
      { id: workflowId, graph: detail.draft, base_revision: detail.draft_revision },
      session,
    );
    expect(refused).toMatchObject({ code: ERRORS.WORKFLOW_LOCKED.code });

    const res = await fetch(`${baseUrl()}${WORKFLOW_API_RUN_PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey.key}` },
      body: JSON.stringify({ inputs: { q: QUESTION }, response_mode: 'blocking' }),
    });
    expect(res.status).toBe(200);
    const answer = (await res.json()) as { result: string; outputs: { answer?: string } };
    expect(answer.result).toBe('succeeded');
    expect(answer.outputs.answer).toBe(`Echo: 请回答：${QUESTION}`);
  });
});
