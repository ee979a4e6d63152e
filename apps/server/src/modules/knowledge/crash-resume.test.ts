import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type authRoutes,
  type Envelope,
  KNOWLEDGE_UPLOAD_PATH,
  type KnowledgeUnit,
  type RouteData,
  type teamRoutes,
} from '@athena/contract';
import { type FakeOpenAI, startFakeOpenAI } from '@athena/fake-openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeChinesePdf } from '../../../../../packages/knowledge-core/src/fixtures/make-fixtures.ts';
import { API, allSegments, type Call, paragraphs, startSlowProxy, waitForUnit } from './knowledge-test-helpers.ts';

const root = fileURLToPath(new URL('../../../../..', import.meta.url));
const BATCH = 4;
const AUTO = { mode: 'auto' } as const;

/** The real entry point (`npm start`) on a data directory on disk, with a short lease. */
function startServer(dataDir: string, webDist: string, port: number) {
  const child = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      WEB_DIST: webDist,
      LOG_LEVEL: 'warn',
      SMS_TEST_NUMBERS: '13800000000:246810',
      ALLOW_PRIVATE_MODEL_ENDPOINTS: 'true',
      KNOWLEDGE_LEASE_SECONDS: '2',
      KNOWLEDGE_EMBED_BATCH: String(BATCH),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { child, exited, output: () => output };
}

/** JSON POST that waits for the server to come up. */
async function post(port: number, url: string, body: unknown, headers: Record<string, string> = {}) {
  for (let i = 0; i < 300; i++) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}${url}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      });
      return (await res.json()) as Envelope<never>;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  throw new Error('server never answered');
}

describe('indexing survives a crash', () => {
  let fake: FakeOpenAI;
  let slow: Awaited<ReturnType<typeof startSlowProxy>>;
  let running: ChildProcess | undefined;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'athena-crash-'));
  const webDist = mkdtempSync(path.join(os.tmpdir(), 'athena-web-'));
  writeFileSync(path.join(webDist, 'index.html'), '<!doctype html>');

  beforeAll(async () => {
    fake = await startFakeOpenAI();
    slow = await startSlowProxy(fake, 120);
  });
  afterAll(async () => {
    running?.kill('SIGKILL');
    await slow.close();
    await fake.close();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(webDist, { recursive: true, force: true });
  });

  it('finishes a unit killed mid-indexing after a restart, with no duplicate segments', async () => {
    const port = 3900 + Math.floor(Math.random() * 500);
    const first = startServer(dataDir, webDist, port);
    running = first.child;
    const login = await post(port, '/accountv2/login/by_sms', { phone: '13800000000', code: '246810' });
    expect(login.code, first.output()).toBe(0);
    const token = (login.data as RouteData<typeof authRoutes.bySms>).login_token;
    const space = (
      (await post(port, `${API}/team/create`, { name: 'Crash' }, { token })).data as RouteData<typeof teamRoutes.create>
    ).id;
    const headers = { token, 'space-id': space };
    const call: Call = (p, body, h = headers) => post(port, `${API}/${p}`, body, h);

    const key = await call<{ id: string }>('model_key/create', {
      model_name: 'Slow',
      version: 'fake-embed',
      base_url: slow.url,
      api_key: 'sk-fake',
      purpose: 'embedding',
    });
    const base = await call<{ id: string }>('knowledge/create', { name: 'Crash', embedding_model_key_id: key.data.id });
    const query = new URLSearchParams({ knowledge_id: base.data.id, file_name: 'long.txt' });
    const uploaded = await fetch(`http://127.0.0.1:${port}${KNOWLEDGE_UPLOAD_PATH}?${query}`, {
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
    first.child.kill('SIGKILL');
    await first.exited;
    expect(midway.progress).toBeLessThan(100);

    const second = startServer(dataDir, webDist, port);
    running = second.child;
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
        await fetch(`http://127.0.0.1:${port}${KNOWLEDGE_UPLOAD_PATH}?${pdfQuery}`, {
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

    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
    running = undefined;
  }, 60_000);
});
