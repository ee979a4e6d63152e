import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEFAULT_MODELS, type FakeOpenAI, startFakeOpenAI } from '@athena/fake-openai';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { noToasts, switchLanguage } from '../support/billing.ts';
import { clickWhenSettled, launchChromium, newContext, settled } from '../support/browser.ts';
import {
  addEmbeddingKey,
  createBaseInForm,
  EMBEDDING_MODEL,
  openDropdown,
  signInToEmptyKnowledge,
} from '../support/knowledge.ts';

// A personal space of its own: its bases and libraries are this spec's alone.
const AUTHOR_PHONE = '13800000012';
const BASE_NAME = '产品资料库';
const FILE_NAME = '退货政策.txt';
const POLICY = [
  '退货政策',
  '自签收之日起七天内，商品未经使用且包装完好，可以申请无理由退货。',
  '质量问题的退货运费由我们承担；其他原因的退货运费由买家承担。',
].join('\n\n');
/** Where the dialog's screenshots go, to be looked at by a person. */
const SHOTS = '/tmp/shots';

async function shot(page: Page, name: string) {
  mkdirSync(SHOTS, { recursive: true });
  await settled(page);
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`) });
}

describe('media libraries: a document into a knowledge base', () => {
  let browser: Browser;
  let fake: FakeOpenAI;
  let page: Page;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'athena-media-knowledge-'));
    writeFileSync(path.join(dir, FILE_NAME), POLICY);
    fake = await startFakeOpenAI({ models: [...DEFAULT_MODELS, EMBEDDING_MODEL] });
    browser = await launchChromium();
    page = await (await newContext(browser, 'zh-CN')).newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await fake?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('uploads a text file to a library, adds it to a base from its page, and finds it indexed there', async () => {
    const session = await signInToEmptyKnowledge(page, AUTHOR_PHONE);
    // A library and the document, uploaded over tus from the library page.
    await page.goto('/medialib');
    await page.getByTestId('media-empty').waitFor();
    await page.getByTestId('library-create').first().click();
    await page.getByTestId('library-form-name').fill('产品文档');
    await clickWhenSettled(page, 'library-form-submit');
    await page.getByTestId('page-library').waitFor();
    await page.getByTestId('media-file-input').setInputFiles(path.join(dir, FILE_NAME));
    const item = page.locator(`[data-testid="media-item"][data-name="${FILE_NAME}"]`);
    await item.waitFor();
    await item.click();
    await page.getByTestId('page-mediaItem').waitFor();
    const itemUrl = page.url();

    // No knowledge base yet: the button is off and says why, with the way to make one.
    const button = page.getByTestId('media-to-knowledge');
    await expect.poll(() => button.isDisabled()).toBe(true);
    await page.getByTestId('media-to-knowledge-why').hover();
    await page.getByTestId('media-to-knowledge-none').waitFor();
    await shot(page, 'media-to-knowledge-none-zh-CN');
    await page.getByTestId('media-to-knowledge-none').locator('a').click();
    await page.getByTestId('knowledge-empty').waitFor();

    // A base with an embedding model, made on its page as a person would.
    const embedding = await addEmbeddingKey(fake, session);
    const knowledgeId = await createBaseInForm(page, { name: BASE_NAME, embeddingKeyId: embedding.id });

    await page.goto(itemUrl);
    await page.getByTestId('page-mediaItem').waitFor();
    await expect.poll(() => button.isDisabled()).toBe(false);

    // The dialog: the team's bases, one chosen, then added.
    await page.getByTestId('media-to-knowledge').click();
    await page.getByTestId('media-to-knowledge-dialog').waitFor();
    expect(await page.getByTestId('media-to-knowledge-submit').isDisabled()).toBe(true);
    // The dialog's zoom-in first: a choice made during it was lost in CI (the button stayed disabled).
    await settled(page);
    await page.getByTestId('media-to-knowledge-select').click();
    await openDropdown(page).getByTestId(`media-to-knowledge-option-${knowledgeId}`).click();
    await shot(page, 'media-to-knowledge-zh-CN');
    await page.getByTestId('media-to-knowledge-submit').click();
    await page.getByTestId('media-to-knowledge-added').waitFor();
    expect(await page.getByTestId('media-to-knowledge-added').textContent()).toContain(BASE_NAME);
    await shot(page, 'media-to-knowledge-added-zh-CN');

    // The link leads to the base, where the file is listed and indexes without another step.
    await page.getByTestId('media-to-knowledge-open').click();
    await page.getByTestId('page-knowledgeDetail').waitFor();
    expect(page.url()).toContain(`/knowledge/detail/${knowledgeId}`);
    const unit = page.locator(`[data-testid="unit-row"][data-file-name="${FILE_NAME}"]`);
    await expect.poll(() => unit.getAttribute('data-status'), { timeout: 20_000 }).toBe('indexed');

    // In English, the same dialog; adding the file again is refused with the server's own message.
    await page.goto(itemUrl);
    await page.getByTestId('page-mediaItem').waitFor();
    await switchLanguage(page, 'en');
    await noToasts(page);
    await page.getByTestId('media-to-knowledge').click();
    await page.getByTestId('media-to-knowledge-dialog').waitFor();
    await settled(page);
    await page.getByTestId('media-to-knowledge-select').click();
    await openDropdown(page).getByTestId(`media-to-knowledge-option-${knowledgeId}`).click();
    await shot(page, 'media-to-knowledge-en');
    await page.getByTestId('media-to-knowledge-submit').click();
    await page.getByTestId('media-to-knowledge-error').waitFor();
    expect(await page.getByTestId('media-to-knowledge-error').textContent()).toContain(
      `This knowledge base already has a file with the same content: “${FILE_NAME}”.`,
    );
    await shot(page, 'media-to-knowledge-duplicate-en');
    // Back to Chinese: the test number's settings are per user, and this one is the spec's own.
    await page.keyboard.press('Escape');
    await switchLanguage(page, 'zh-CN');
  });
});
