import { fileURLToPath } from 'node:url';
import { type Envelope, ERRORS, type WorkflowDetail, workflowRoutes } from '@athena/contract';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { switchLanguage } from '../support/billing.ts';
import { clickWhenSettled, launchChromium, newContext, screenshot, settled } from '../support/browser.ts';
import { resetSettings, signInWithTestNumber } from '../support/session.ts';

/** The disabled entries' reason while locked (zh-CN.features.json, workflows.actions.lockedTip). */
const LOCKED_TIP = '已锁定：请先解锁。';
const NAME = `E2E 工作流 ${Date.now().toString(36)}`;

/** A real Dify DSL file (workflow mode, DSL 0.1.0) kept as a fixture of the importer's tests. */
const DIFY_FIXTURE = fileURLToPath(
  new URL('../../apps/server/src/modules/workflow/dify/fixtures/svcvit-intent-reply.yml', import.meta.url),
);
/** The app's name in that file. */
const DIFY_APP_NAME = '根据用户的意图进行回复';

const card = (page: Page) => page.locator(`[data-testid="workflow-card"][data-workflow-name="${NAME}"]`);
/** The menu entry's list item: antd marks a disabled one with aria-disabled. */
const menuItem = (page: Page, action: string) =>
  page.locator(`.ant-dropdown:not(.ant-dropdown-hidden) li:has([data-testid="workflow-action-${action}"])`);

async function openMenu(page: Page) {
  await card(page).getByTestId('workflow-card-menu').click();
  await page.locator('.ant-dropdown:not(.ant-dropdown-hidden)').waitFor();
  await settled(page);
}

async function act(page: Page, action: string) {
  await openMenu(page);
  await menuItem(page, action).click();
}

describe('workflow list: create a blank workflow, lock it (delete disabled and refused), unlock, delete', () => {
  let browser: Browser;
  let page: Page;
  let workflowId = '';

  beforeAll(async () => {
    await resetSettings();
    browser = await launchChromium();
    page = await (await newContext(browser, 'zh-CN')).newPage();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('creates a blank workflow from the list and lands in its editor', async () => {
    await page.goto('/dashboard');
    await signInWithTestNumber(page);
    await page.goto('/ai-workflows');
    // A space without workflows shows the first-use page, whose button opens the same dialog.
    const create = page.getByTestId('workflow-create').or(page.getByTestId('workflows-empty-create'));
    await create.first().click();
    await page.getByTestId('workflow-create-modal').waitFor();
    await page.getByTestId('workflow-create-name').fill(NAME);
    await clickWhenSettled(page, 'workflow-create-submit');
    await page.waitForURL(/\/ai-workflows\/[^/?]+$/);
    workflowId = new URL(page.url()).pathname.split('/').at(-1) ?? '';
    expect(workflowId).not.toBe('');
  });

  it('shows it in the list, found by search, unlocked and not effective', async () => {
    await page.goto('/ai-workflows');
    await page.getByTestId('workflow-search').fill(NAME);
    await expect.poll(() => new URL(page.url()).searchParams.get('q')).toBe(NAME);
    await card(page).waitFor();
    // The address changes before the filtered list arrives: wait for the list, not the address.
    await expect.poll(() => page.getByTestId('workflow-card').count()).toBe(1);
    expect(await card(page).getAttribute('data-workflow-id')).toBe(workflowId);
    expect(await card(page).getByTestId('workflow-lock-tag').getAttribute('data-locked')).toBe('false');
    expect(await card(page).getByTestId('workflow-effective-tag').getAttribute('data-effective')).toBe('false');
    expect(await card(page).getByTestId('workflow-last-result').getAttribute('data-result')).toBe('never');
  });

  it('locks it: the tag says so, delete and rename are disabled, and the server refuses a delete', async () => {
    await act(page, 'lock');
    await expect.poll(() => card(page).getByTestId('workflow-lock-tag').getAttribute('data-locked')).toBe('true');
    await page.keyboard.press('Escape');

    await openMenu(page);
    expect(await menuItem(page, 'delete').getAttribute('aria-disabled')).toBe('true');
    expect(await menuItem(page, 'edit').getAttribute('aria-disabled')).toBe('true');
    expect(await menuItem(page, 'unlock').getAttribute('aria-disabled')).not.toBe('true');
    // The reason shows on hover; a click on the disabled entry asks nothing and deletes nothing.
    await menuItem(page, 'delete').hover();
    await page.locator('.ant-tooltip:not(.ant-tooltip-hidden)').getByText(LOCKED_TIP).waitFor();
    await menuItem(page, 'delete').click({ force: true });
    await screenshot(page, 'workflows-locked-menu');
    expect(await page.locator('.ant-modal-confirm').count()).toBe(0);
    await page.keyboard.press('Escape');

    // Past the UI, the server refuses too, with the lock's catalogue message.
    const refused = await page.evaluate(
      async ({ path, id }) => {
        const res = await fetch(path, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            token: localStorage.getItem('athena.token') ?? '',
            'space-id': localStorage.getItem('athena.spaceId') ?? '',
            language: 'zh-CN',
          },
          body: JSON.stringify({ id }),
        });
        return res.json();
      },
      { path: workflowRoutes.delete.path, id: workflowId },
    );
    expect(refused as Envelope<null>).toMatchObject({
      code: ERRORS.WORKFLOW_LOCKED.code,
      msg: ERRORS.WORKFLOW_LOCKED.msg['zh-CN'],
    });
    await page.reload();
    await card(page).waitFor();
    expect(await card(page).getByTestId('workflow-lock-tag').getAttribute('data-locked')).toBe('true');
  });

  it('filters by lock state', async () => {
    await page.getByTestId('workflow-filter-locked').click();
    await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item').nth(1).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('locked')).toBe('0');
    await page.getByTestId('workflows-no-match').waitFor();
    await page.getByTestId('workflow-filters-clear').click();
    await card(page).waitFor();
  });

  it('unlocks it, then deletes it after the confirmation', async () => {
    await page.getByTestId('workflow-search').fill(NAME);
    await card(page).waitFor();
    await act(page, 'unlock');
    await expect.poll(() => card(page).getByTestId('workflow-lock-tag').getAttribute('data-locked')).toBe('false');
    await page.keyboard.press('Escape');

    await act(page, 'delete');
    await clickWhenSettled(page, 'workflow-delete-confirm');
    await expect.poll(() => card(page).count()).toBe(0);
    await page.getByTestId('workflows-no-match').waitFor();
  });
});

describe('workflow list: import a Dify DSL file from the create dialog', () => {
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    await resetSettings();
    browser = await launchChromium();
    page = await (await newContext(browser, 'zh-CN')).newPage();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('imports a real Dify workflow, lands in its editor with the import notes and the classifier on the canvas', async () => {
    await page.goto('/dashboard');
    await signInWithTestNumber(page);
    await page.goto('/ai-workflows');
    const create = page.getByTestId('workflow-create').or(page.getByTestId('workflows-empty-create'));
    await create.first().click();
    await page.getByTestId('workflow-create-modal').waitFor();
    await settled(page);
    await page.getByTestId('workflow-create-way').getByText('导入文件').click();
    await expect.poll(() => page.getByTestId('workflow-create-modal').getAttribute('data-way')).toBe('import');
    await page.getByTestId('workflow-import-input').setInputFiles(DIFY_FIXTURE);
    await page.getByTestId('workflow-import-file').getByText('svcvit-intent-reply.yml').waitFor();
    // No name typed: the workflow takes the name the Dify app had.
    await clickWhenSettled(page, 'workflow-create-submit');
    await page.waitForURL(/\/ai-workflows\/[^/?]+$/);
    await page.getByTestId('page-workflowEditor').waitFor();
    await page.getByText(DIFY_APP_NAME).first().waitFor();

    // Its models match no key of this space: the notes say what is left to choose, and stay.
    const notes = page.getByTestId('workflow-import-notes');
    await notes.waitFor();
    expect(await notes.locator('li').count()).toBeGreaterThan(0);
    await page.locator('.ant-notification-notice').getByText('已导入。运行前请检查以下几点：').waitFor();

    // The question classifier keeps its Dify id and draws one exit per class.
    const classifier = page.getByTestId('wf-canvas').getByTestId('wf-node-1718246909580');
    await classifier.waitFor();
    expect(await classifier.getAttribute('data-node-type')).toBe('classifier');
    await classifier.getByText('问题分类器').waitFor();
    expect(await classifier.locator('.wf-node-branch').count()).toBeGreaterThan(1);
    await screenshot(page, 'workflow-dify-import');
  });
});

/** A built-in template with a classifier's three branches: 7 nodes, wider than the dialog at 1:1. */
const TEMPLATE = 'builtin-route-question';

describe('workflow templates: use one from the templates page (issue 28, items 7 and 8)', () => {
  let browser: Browser;
  let page: Page;
  const templateCard = () => page.locator(`[data-testid="workflow-template-card"][data-template-id="${TEMPLATE}"]`);

  /**
   * Opens the template's own dialog at this window size, waits for its drawn graph and saves a
   * screenshot of how it opens; returns the preview's nodes.
   */
  async function openUseDialog(shot: string, width: number, height: number) {
    await page.setViewportSize({ width, height });
    await templateCard().getByTestId('workflow-template-use').click();
    const dialog = page.getByTestId('workflow-template-use-modal');
    await dialog.waitFor();
    expect(await dialog.getAttribute('data-template-id')).toBe(TEMPLATE);
    // Exactly that template, not the create dialog's gallery.
    expect(await page.getByTestId('workflow-template-picker').count()).toBe(0);
    const preview = page.getByTestId('workflow-template-preview');
    await preview.waitFor();
    expect(await preview.getAttribute('data-node-count')).toBe('7');
    const nodes = preview.getByTestId('workflow-template-preview-node');
    await expect.poll(() => nodes.count()).toBe(7);
    // Measured once the dialog's zoom-in is over: its transform shrinks every box until then.
    await settled(page);
    // Opened at a zoom where titles are readable (13 px text at ≥ 0.75), the start in view.
    expect(Number(await preview.getAttribute('data-zoom'))).toBeGreaterThanOrEqual(0.75);
    const start = await titlesIn(nodes.and(page.locator('[data-node-type="start"]')));
    expect(start[0]?.inside).toBe(true);
    expect(start[0]?.height).toBeGreaterThanOrEqual(12);
    await screenshot(page, `${shot}-${width}`);
    return { preview, nodes };
  }

  /** Each preview node's id, title, title height, and whether the title is inside the preview's frame. */
  const titlesIn = (nodes: Locator) =>
    nodes.evaluateAll((cards) =>
      cards.map((card) => {
        const frame = card.closest('[data-testid="workflow-template-preview"]')?.getBoundingClientRect();
        const title = card.querySelector('.wf-node-title');
        const box = title?.getBoundingClientRect();
        const inside = Boolean(
          box &&
            frame &&
            box.left >= frame.left &&
            box.right <= frame.right &&
            box.top >= frame.top &&
            box.bottom <= frame.bottom,
        );
        return {
          id: card.getAttribute('data-node-id') ?? '',
          title: title?.textContent ?? '',
          height: box?.height ?? 0,
          inside,
        };
      }),
    );

  beforeAll(async () => {
    await resetSettings();
    browser = await launchChromium();
    page = await (await newContext(browser, 'zh-CN')).newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await resetSettings();
  });

  it('shows the chosen template with its graph, and creates a workflow with that graph', async () => {
    await page.goto('/dashboard');
    await signInWithTestNumber(page);
    await page.goto('/workflow-templates');
    await templateCard().getByTestId('workflow-template-thumbnail').waitFor();

    // At 1280 px the graph is wider than the frame at a readable zoom: "fit" shows every node.
    const narrow = await openUseDialog('workflow-template-use-zh-CN', 1280, 800);
    await narrow.preview.locator('.react-flow__controls-fitview').click();
    await expect
      .poll(async () => (await titlesIn(narrow.nodes)).every((node) => node.inside && node.title !== ''))
      .toBe(true);
    await page.keyboard.press('Escape');
    await page.getByTestId('workflow-template-use-modal').waitFor({ state: 'detached' });

    // In English the list is read again, so the preview's titles are those the new workflow gets.
    await switchLanguage(page, 'en');
    const wide = await openUseDialog('workflow-template-use-en', 1920, 1080);
    const nodes = (await titlesIn(wide.nodes)).map(({ id, title }) => ({ id, title }));
    const name = await templateCard().getAttribute('data-template-name');
    expect(await page.getByTestId('workflow-template-use-name').inputValue()).toBe(name);
    await page.getByTestId('workflow-template-use-name').fill(`${name} E2E`);
    await clickWhenSettled(page, 'workflow-template-use-submit');
    await page.waitForURL(/\/ai-workflows\/[^/?]+$/);
    await page.getByTestId('page-workflowEditor').waitFor();
    // The editor shows the new workflow, whose draft is the previewed graph.
    const workflowId = new URL(page.url()).pathname.split('/').at(-1) ?? '';
    await page.getByTestId('wf-canvas').getByTestId('wf-node-start').waitFor();
    const detail = await page.evaluate(
      async ({ path, id }) => {
        const res = await fetch(path, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            token: localStorage.getItem('athena.token') ?? '',
            'space-id': localStorage.getItem('athena.spaceId') ?? '',
          },
          body: JSON.stringify({ id }),
        });
        return res.json();
      },
      { path: workflowRoutes.detail.path, id: workflowId },
    );
    const drafted = (detail as Envelope<WorkflowDetail>).data.draft.nodes.map(({ id, title }) => ({ id, title }));
    expect(drafted.sort(byId)).toEqual([...nodes].sort(byId));
  });
});

const byId = (a: { id: string }, b: { id: string }) => a.id.localeCompare(b.id);
