import { modelKeyRoutes } from '@athena/contract';
import type { FakeOpenAI } from '@athena/fake-openai';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { callApi } from './api.ts';
import { settled } from './browser.ts';
import { TEST_CODE } from './session.ts';

/** Lexical (similarity-preserving) embeddings, 256 dimensions: the gateway sends no `dimensions`. */
export const EMBEDDING_MODEL = 'fake-lexical-embed-d256';

export interface Session {
  token: string;
  spaceId: string;
}

/** The open dropdown of an antd Select (rendered in a portal at the end of the body). */
export const openDropdown = (page: Page) => page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)');

/**
 * Signs `phone` in through the login form on the knowledge page, which must then show a fresh
 * space (no base yet); returns the session the page stored.
 */
export async function signInToEmptyKnowledge(page: Page, phone: string): Promise<Session> {
  await page.goto('/knowledge');
  await page.getByTestId('login-panel').waitFor();
  await page.getByTestId('phone-input').fill(phone);
  await page.getByTestId('code-input').fill(TEST_CODE);
  await page.getByTestId('login-submit').click();
  await page.getByTestId('knowledge-empty').waitFor();
  const [token, spaceId] = await page.evaluate(() => [
    localStorage.getItem('athena.token') ?? '',
    localStorage.getItem('athena.spaceId') ?? '',
  ]);
  return { token, spaceId };
}

/** An embedding key for EMBEDDING_MODEL on the fake, through the API (the keys' pages have a spec of their own). */
export function addEmbeddingKey(fake: FakeOpenAI, session: Session) {
  return callApi(
    modelKeyRoutes.create,
    {
      model_name: '词法向量',
      version: EMBEDDING_MODEL,
      base_url: fake.url,
      api_key: fake.apiKey,
      purpose: 'embedding',
    },
    { token: session.token, 'space-id': session.spaceId },
  );
}

/**
 * Creates a base with that embedding key on the empty knowledge page, as a person would; returns
 * its id once its page shows.
 */
export async function createBaseInForm(
  page: Page,
  base: { name: string; description?: string; embeddingKeyId: string },
): Promise<string> {
  // The page read the (then empty) key list on load; a person adding keys in the app refreshes it.
  await page.reload();
  await page.getByTestId('knowledge-empty-create').click();
  await page.getByTestId('knowledge-form').waitFor();
  await settled(page);
  await page.getByTestId('knowledge-name-input').fill(base.name);
  if (base.description) await page.getByTestId('knowledge-description-input').fill(base.description);
  await page.getByTestId('knowledge-embedding-select').click();
  await openDropdown(page).getByTestId(`embedding-option-${base.embeddingKeyId}`).click();
  await expect.poll(() => page.getByTestId('knowledge-embedding-select').textContent()).toContain(EMBEDDING_MODEL);
  await page.getByTestId('knowledge-form-submit').click();
  await page.getByTestId('page-knowledgeDetail').waitFor();
  return (await page.getByTestId('page-knowledgeDetail').getAttribute('data-knowledge-id')) ?? '';
}
