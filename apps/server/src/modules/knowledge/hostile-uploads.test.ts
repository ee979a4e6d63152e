import { ERRORS, type KnowledgeBase, type KnowledgeUnit } from '@athena/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  makeBillionLaughsDocx,
  makeDocx,
  makeDocxBomb,
  makeManyEntryDocx,
  makeSmallDocx,
  makeXlsxBomb,
  makeXxeDocx,
} from '../../../../../packages/knowledge-core/src/fixtures/hostile-files.ts';
import { buildTeam } from '../../testing/fixtures.ts';
import { createTestApp, type TestApp } from '../../testing/test-app.ts';
import { caller, upload } from './knowledge-test-helpers.ts';

const MB = 1024 * 1024;
const TOO_COMPLEX_EN = ERRORS.FILE_TOO_COMPLEX.msg.en;

/** A real Word document of ~2 MB of XML (200 KB zipped): mammoth needs a few hundred MB to read it. */
function heavyDocx(): Uint8Array {
  const paragraphs: string[] = [];
  for (let i = 0, size = 0; size < 2 * MB; i++) {
    const paragraph = `<w:p><w:r><w:t>Clause ${i} allows ${(i * 7919) % 100_003} days</w:t></w:r></w:p>`;
    paragraphs.push(paragraph);
    size += paragraph.length;
  }
  const w = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';
  return makeDocx(`<?xml version="1.0"?><w:document ${w}><w:body>${paragraphs.join('')}</w:body></w:document>`);
}

async function setUp(t: TestApp, phonePrefix: string) {
  const team = await buildTeam(t, { phonePrefix });
  const headers = { ...team.as(team.creator), language: 'en' };
  const call = caller(t, headers);
  const base = (await call<KnowledgeBase>('knowledge/create', { name: 'Hostile' })).data;
  const put = (name: string, bytes: Uint8Array) => upload(t, headers, base.id, name, Buffer.from(bytes));
  const units = async () =>
    (await call<{ items: KnowledgeUnit[] }>('knowledge/unit/list', { knowledge_id: base.id })).data.items;
  return { call, put, units };
}

describe('hostile uploads', () => {
  let t: TestApp;
  let put: (name: string, bytes: Uint8Array) => ReturnType<typeof upload>;
  let units: () => Promise<KnowledgeUnit[]>;

  beforeAll(async () => {
    t = await createTestApp();
    ({ put, units } = await setUp(t, '137000091'));
  });
  afterAll(() => t.close());

  it('refuses DOCX and XLSX zip bombs and a 60 000-entry archive as too complex to read safely, in the caller’s language', async () => {
    for (const [name, bytes] of [
      ['bomb.docx', makeDocxBomb(30 * MB)],
      ['bomb.xlsx', makeXlsxBomb(30 * MB)],
      ['many.docx', makeManyEntryDocx(60_000)],
    ] as const) {
      const refused = await put(name, bytes);
      expect(refused, name).toMatchObject({
        status: 200,
        body: { code: ERRORS.FILE_TOO_COMPLEX.code, msg: TOO_COMPLEX_EN },
      });
    }
    expect(await units()).toEqual([]);
  });

  it('never expands entities: XXE and billion laughs are refused, and nothing of /etc/passwd is stored', async () => {
    for (const bytes of [makeXxeDocx(), makeBillionLaughsDocx()]) {
      expect((await put('entities.docx', bytes)).body.code).toBe(40102);
    }
    expect(await units()).toEqual([]);
    expect((await put('plain.docx', makeSmallDocx())).body.code).toBe(0);
  });

  // Last here: it closes this app's threads.
  it('answers a system error, not a refused file, when no thread can read the upload', async () => {
    await t.app.modules.knowledge.readers.close();
    const failed = await put('fine.docx', makeSmallDocx(['A good file.']));
    expect(failed).toMatchObject({ status: 500, body: { code: ERRORS.SYSTEM_ERROR.code } });
    expect(await units()).toHaveLength(1); // only the plain document of the test before
  });
});

describe('a file that breaks its thread’s limits', () => {
  let t: TestApp;
  let put: (name: string, bytes: Uint8Array) => ReturnType<typeof upload>;

  beforeAll(async () => {
    // One thread with a small heap: the heavy document needs far more and ends it.
    t = await createTestApp({
      env: { FILE_PARSE_WORKERS: '1', FILE_PARSE_HEAP_MB: '64', FILE_PARSE_TIMEOUT_MS: '20000' },
    });
    ({ put } = await setUp(t, '137000092'));
  });
  afterAll(() => t.close());

  it('is refused while the server keeps answering; a new thread reads the next file', async () => {
    expect((await put('warm-up.docx', makeSmallDocx(['Warm-up.']))).body.code).toBe(0);
    // Asked over a real socket: an in-process inject could slip between a parser's promise steps
    // and answer even while the server's thread is busy parsing.
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    let pending = true;
    const heavy = put('heavy.docx', heavyDocx()).finally(() => {
      pending = false;
    });
    // From one answer to the next, a probe every 10 ms: any time the server's thread spends
    // parsing shows as a gap, whether it holds up the request or the timer between two.
    const gaps: number[] = [];
    let last = performance.now();
    while (pending) {
      const answer = await fetch(`${address}/api/athena/v1/platform/info`, { method: 'POST', body: '{}' });
      expect(answer.status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 10));
      if (pending) gaps.push(performance.now() - last);
      last = performance.now();
    }
    // Answered all along while the thread read (and died): none waited behind the parse.
    expect(gaps.length).toBeGreaterThan(5);
    // Generous for a loaded 2-core machine; when the server's thread parsed the file itself, the
    // gaps were over a second, so this still tells the two apart.
    expect(Math.max(...gaps)).toBeLessThan(1000);
    expect((await heavy).body).toMatchObject({ code: ERRORS.FILE_TOO_COMPLEX.code });

    const next = await put('after.docx', makeSmallDocx(['Read by a new thread.']));
    expect(next.body).toMatchObject({ code: 0, data: { file_kind: 'docx', status: 'not_indexed' } });
    expect(t.app.modules.knowledge.readers.threads).toBe(1);
  });
});
