import { readFileSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/test-app.ts';
import { changedOperations, OPENAPI_FILE, stableJson } from './openapi-document.ts';

function readCommitted(): { text: string; document: unknown } {
  try {
    const text = readFileSync(OPENAPI_FILE, 'utf8');
    return { text, document: JSON.parse(text) };
  } catch {
    return { text: '', document: null };
  }
}

describe('the committed OpenAPI document', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('is exactly what the server serves at /api/openapi.json', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(res.statusCode).toBe(200);
    const served = res.json();
    // `npm run openapi` runs this test to write the file instead of comparing with it.
    if (process.env.OPENAPI_WRITE === '1') {
      writeFileSync(OPENAPI_FILE, stableJson(served));
      return;
    }
    const committed = readCommitted();
    if (stableJson(served) === committed.text) return;

    const changes = committed.text ? changedOperations(committed.document, served) : ['the file is missing'];
    const shown = changes.length ? changes.slice(0, 10).join(', ') : 'outside the paths (info, components)';
    const more = changes.length > 10 ? ` and ${changes.length - 10} more` : '';
    expect.fail(
      `apps/server/openapi.json differs from the served document (${shown}${more}): run npm run openapi and commit the result.`,
    );
  });
});
