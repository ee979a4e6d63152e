import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  authRoutes,
  KNOWLEDGE_UPLOAD_PATH,
  type KnowledgeUnit,
  type RouteData,
  type teamRoutes,
} from '@athena/contract';
import { type FakeOpenAI, startFakeOpenAI } from '@athena/fake-openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeChinesePdf } from '../../../../../packages/knowledge-core/src/fixtures/make-fixtures.ts';
import { type AthenaProcess, startAthena } from '../../testing/athena-process.ts';
import { API, allSegments, type Call, paragraphs, startSlowProxy, waitForUnit } from './knowledge-test-helpers.ts';

const BATCH = 4;
const AUTO = { mode: 'auto' } as const;
/** The real entry point (`npm start`) with a short lease, so a killed worker's unit is resumed soon. */
const ENV = {
  LOG_LEVEL: 'warn',
  SMS_TEST_NUMBERS: '13800000000:246810',
  ALLOW_PRIVATE_MODEL_ENDPOINTS: 'true',
  KNOWLEDGE_LEASE_SECONDS: '2',
  KNOWLEDGE_EMBED_BATCH: String(BATCH),
};

describe('indexing survives a crash', () => {
  let fake: FakeOpenAI;
  let slow: Awaited<ReturnType<typeof startSlowProxy>>;
  let running: AthenaProcess | undefined;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'athena-crash-'));

  beforeAll(async () => {
    fake = await startFakeOpenAI();
    slow = await startSlowProxy(fake, 120);
  });
  afterAll(async () => {
    await running?.stop('SIGKILL');
    await slow.close();
    await fake.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('finishes a unit killed mid-indexing after a restart, with no duplicate segments', async () => {
    const first = await startAthena('crash', ENV, { dataDir });
    running = first;
    const login = await first.call<RouteData<typeof authRoutes.bySms>>(authRoutes.bySms.path, {
      phone: '13800000000',
      code: '246810',
    });
    expect(login.code, first.output()).toBe(0);
    const token = login.data.login_token;
    const space = (
      await first.call<RouteData<typeof teamRoutes.create>>(`${API}/team/create`, { name: 'Crash' }, { token })
    ).data.id;
    const headers = { token, 'space-id': space };
    // Whichever server is running now: the second one answers on a port of its own.
    const call: Call = (p, body, h = headers) => (running as AthenaProcess).call(`${API}/${p}`, body, h);

    const key = await call<{ id: string }>('model_key/create', {
      model_name: 'Slow',
      version: 'fake-embed',
      base_url: slow.url,
      api_key: 'sk-fake',
      purpose: 'embedding',
    });
    const base = await call<{ id: string }>('knowledge/create', { name: 'Crash', embedding_model_key_id: key.data.id });
    const query = new URLSearchParams({ knowledge_id: base.data.id, file_name: 'long.txt' });
    const uploaded = await fetch(`${first.url}${KNOWLEDGE_UPLOAD_PATH}?${query}`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/octet-stream' },
      body: paragraphs(48, 'Crash'),
    });
    const unit = ((await uploaded.json()) as { data: KnowledgeUnit }).data;
    const preview = await call<{ total: number }>('knowledge/unit/preview', {
      id: unit.id,
      chunking: { mode: 'auto' },
    });
    expect(preview.data.total).toBeGreaterThan(30);

    await call('knowledge/unit/start', { ids: [unit.id], chunking: { mode: 'auto' } });
    const midway = await waitForUnit(call, unit.id, (u) => u.status === 'indexing' && u.progress >= 45);
    await first.stop('SIGKILL');
    expect(midway.progress).toBeLessThan(100);

    const second = await startAthena('crash', ENV, { dataDir });
    running = second;
    const done = await waitForUnit(call, unit.id, (u) => u.status === 'indexed', 25_000).catch((error) => {
      throw new Error(`${error}\n${second.output()}`);
    });
    expect(done.segment_count).toBe(preview.data.total);

    const segments = await allSegments(call, base.data.id);
    const positions = segments.map((s) => s.position);
    expect(new Set(positions).size).toBe(positions.length);
    expect(positions).toEqual(positions.map((_, index) => index));
    expect(segments.every((s) => s.embedded)).toBe(true);
    // Resumed, not redone: at most the batch in flight at the kill is embedded twice.
    expect(slow.embedCalls).toBeLessThanOrEqual(Math.ceil(preview.data.total / BATCH) + 1);

    // The bundled server reads files in its worker threads (dist/knowledge-files.worker.mjs).
    const textOnly = await call<{ id: string }>('knowledge/create', { name: 'PDF', embedding_model_key_id: null });
    const pdfQuery = new URLSearchParams({ knowledge_id: textOnly.data.id, file_name: 'handbook.pdf' });
    const pdfUnit = (
      (await (
        await fetch(`${second.url}${KNOWLEDGE_UPLOAD_PATH}?${pdfQuery}`, {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/octet-stream' },
          body: await makeChinesePdf(8),
        })
      ).json()) as { data: KnowledgeUnit }
    ).data;
    const pdfPreview = await call<{ total: number }>('knowledge/unit/preview', { id: pdfUnit.id, chunking: AUTO });
    await call('knowledge/unit/start', { ids: [pdfUnit.id], chunking: AUTO });
    const pdfDone = await waitForUnit(call, pdfUnit.id, (u) => u.status !== 'waiting' && u.status !== 'indexing');
    expect(pdfDone).toMatchObject({ status: 'indexed', segment_count: pdfPreview.data.total });

    running = undefined;
    expect(await second.stop()).toBe(0);
  }, 60_000);
});
