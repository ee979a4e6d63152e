import type { KnowledgeBase } from '@athena/contract';
import { type ChunkingOptions, chunkDocument, KnowledgeFileError, parseDocument } from '@athena/knowledge-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeChinesePdf, makeEnglishPdf } from '../../../../../packages/knowledge-core/src/fixtures/make-fixtures.ts';
import { buildTeam } from '../../testing/fixtures.ts';
import { createTestApp, type TestApp } from '../../testing/test-app.ts';
import { createFileReaders, type FileReaders } from './file-readers.ts';
import { allSegments, type Call, caller, upload, waitForUnit } from './knowledge-test-helpers.ts';

const ROW = { mode: 'row' } as const;

describe('reading a PDF in a worker thread', () => {
  let readers: FileReaders;
  beforeAll(() => {
    readers = createFileReaders({ workers: 1, heapMb: 1024, timeoutMs: 60_000 });
  });
  afterAll(() => readers.close());

  const cut = async (bytes: Uint8Array, chunking: ChunkingOptions, signal?: AbortSignal) => {
    const runs = [];
    for await (const run of readers.chunks(bytes, 'pdf', { chunking, tableMode: ROW }, signal)) runs.push(run);
    return runs;
  };

  it('cuts it page by page into exactly the segments of the whole file parsed in process', async () => {
    const chunking: ChunkingOptions = { mode: 'custom', size: 160, overlap: 40, separators: [] };
    for (const bytes of [await makeChinesePdf(9), await makeEnglishPdf(40)]) {
      const runs = await cut(bytes, chunking);
      expect(runs.flatMap((run) => run.chunks)).toEqual(
        chunkDocument(await parseDocument(bytes, 'pdf'), chunking, ROW),
      );
      expect(runs.at(-1)?.read).toBe(1);
    }
  });

  it('refuses a file pdfjs cannot read with the engine’s reason', async () => {
    const broken = new TextEncoder().encode('%PDF-1.7\nthis is not a pdf at all');
    const error = await cut(broken, { mode: 'auto' }).catch((caught) => caught);
    expect(error).toBeInstanceOf(KnowledgeFileError);
    expect(error).toMatchObject({ code: 'UNSUPPORTED_FILE_FORMAT' });
  });

  it('stops when aborted, with the abort’s reason, and when the reader leaves early, then reads on', async () => {
    const bytes = await makeEnglishPdf(300);
    const controller = new AbortController();
    const reason = new Error('cancelled by the test');
    let read = 0;
    const aborted = (async () => {
      for await (const run of readers.chunks(
        bytes,
        'pdf',
        { chunking: { mode: 'auto' }, tableMode: ROW },
        controller.signal,
      )) {
        read = run.read;
        controller.abort(reason);
      }
    })();
    await expect(aborted).rejects.toBe(reason);
    expect(read).toBeGreaterThan(0);
    expect(read).toBeLessThan(1);

    for await (const run of readers.chunks(bytes, 'pdf', { chunking: { mode: 'auto' }, tableMode: ROW })) {
      expect(run.read).toBeLessThan(1);
      break;
    }

    // The thread stopped midway both times, is still the one thread, and reads the next file whole.
    expect((await cut(bytes, { mode: 'auto' })).at(-1)?.read).toBe(1);
    expect(readers.threads).toBe(1);
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
