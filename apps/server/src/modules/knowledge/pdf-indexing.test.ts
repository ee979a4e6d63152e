import type { KnowledgeBase } from '@athena/contract';
import { type ChunkingOptions, chunkDocument, KnowledgeFileError, parseDocument } from '@athena/knowledge-core';
import { pdfPages } from '@athena/knowledge-core/pdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeChinesePdf, makeEnglishPdf } from '../../../../../packages/knowledge-core/src/fixtures/make-fixtures.ts';
import { buildTeam } from '../../testing/fixtures.ts';
import { createTestApp, type TestApp } from '../../testing/test-app.ts';
import { allSegments, type Call, caller, upload, waitForUnit } from './knowledge-test-helpers.ts';
import { pdfPagesInThread } from './pdf-pages-thread.ts';

async function collect<T>(steps: AsyncIterable<T[]>) {
  const all: T[] = [];
  for await (const step of steps) all.push(...step);
  return all;
}

describe('reading a PDF in a worker thread', () => {
  it('delivers every page, in order, exactly as the engine reads it in process', async () => {
    for (const bytes of [await makeChinesePdf(9), await makeEnglishPdf(40)]) {
      const inProcess = [];
      for await (const page of pdfPages(bytes)) inProcess.push(page);
      const threaded = await collect(pdfPagesInThread(bytes));
      expect(threaded.map((page) => page.page)).toEqual(inProcess.map((_, index) => index + 1));
      expect(threaded).toEqual(inProcess);
    }
  });

  it('refuses a file pdfjs cannot read with the engine’s reason', async () => {
    const broken = new TextEncoder().encode('%PDF-1.7\nthis is not a pdf at all');
    const error = await collect(pdfPagesInThread(broken)).catch((caught) => caught);
    expect(error).toBeInstanceOf(KnowledgeFileError);
    expect(error).toMatchObject({ code: 'UNSUPPORTED_FILE_FORMAT' });
  });

  it('stops when aborted, with the abort’s reason, and when the reader leaves early, then reads on', async () => {
    const bytes = await makeEnglishPdf(300);
    const controller = new AbortController();
    const reason = new Error('cancelled by the test');
    let seen = 0;
    const aborted = (async () => {
      for await (const pages of pdfPagesInThread(bytes, controller.signal)) {
        seen += pages.length;
        controller.abort(reason);
      }
    })();
    await expect(aborted).rejects.toBe(reason);
    expect(seen).toBeGreaterThan(0);
    expect(seen).toBeLessThan(300);

    let first = 0;
    for await (const pages of pdfPagesInThread(bytes)) {
      first = pages[0].page;
      break;
    }
    expect(first).toBe(1);

    // The worker stopped midway both times and reads the next file whole.
    expect(await collect(pdfPagesInThread(bytes))).toHaveLength(300);
  });
});

describe('indexing a PDF as it is read', () => {
  let t: TestApp;
  let call: Call;
  let headers: Record<string, string>;

  beforeAll(async () => {
    t = await createTestApp({ jobs: true });
    const team = await buildTeam(t, { phonePrefix: '137000051' });
    headers = team.as(team.creator);
    call = caller(t, headers);
  });
  afterAll(() => t.close());

  it('writes the same segments, in the same order, as cutting the whole parsed file', async () => {
    const base = (await call<KnowledgeBase>('knowledge/create', { name: 'PDF', embedding_model_key_id: null })).data;
    const chunking: ChunkingOptions = { mode: 'custom', size: 160, overlap: 40, separators: [] };
    for (const [name, bytes] of [
      ['handbook.pdf', await makeChinesePdf(12)],
      ['operations.pdf', await makeEnglishPdf(60)],
    ] as const) {
      const uploaded = await upload(t, headers, base.id, name, Buffer.from(bytes));
      const unit = uploaded.body.data;
      expect((await call('knowledge/unit/start', { ids: [unit.id], chunking })).code).toBe(0);
      const done = await waitForUnit(call, unit.id, (u) => u.status === 'indexed');
      const expected = chunkDocument(await parseDocument(bytes, 'pdf'), chunking, null);
      const segments = await allSegments(call, base.id, unit.id);
      expect(done.segment_count).toBe(expected.length);
      expect(segments.map((segment) => segment.position)).toEqual(expected.map((_, index) => index));
      expect(segments.map((segment) => segment.content)).toEqual(expected.map((chunk) => chunk.content));
    }
  });

  it('shows the reading moving while a long PDF is read, and answers other requests meanwhile', async () => {
    const base = (await call<KnowledgeBase>('knowledge/create', { name: 'Long', embedding_model_key_id: null })).data;
    const unit = (await upload(t, headers, base.id, 'long.pdf', Buffer.from(await makeEnglishPdf(400)))).body.data;
    await call('knowledge/unit/start', { ids: [unit.id], chunking: { mode: 'auto' } });
    // Polled every 50 ms: the server's thread is free while the worker extracts pages.
    const seen = new Set<number>();
    await waitForUnit(call, unit.id, (u) => {
      if (u.status === 'indexing') seen.add(u.progress);
      return u.status === 'indexed';
    });
    const reading = [...seen].filter((progress) => progress > 0 && progress < 30);
    expect(reading.length).toBeGreaterThan(1);
  });
});
