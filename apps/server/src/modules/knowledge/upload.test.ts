import { randomUUID } from 'node:crypto';
import type { KnowledgeBase, KnowledgeUnit, knowledgeRoutes, RouteData } from '@athena/contract';
import { eq } from 'drizzle-orm';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  EMPTY_FILE,
  makeChinesePdf,
  makeCsvQa,
  makeDocxWithHeadingsAndTable,
  makeGbkText,
  makeLargeText,
  makeXlsxQa,
  RENAMED_PNG,
} from '../../../../../packages/knowledge-core/src/fixtures/make-fixtures.ts';
import { buildTeam } from '../../testing/fixtures.ts';
import { createTestApp, type TestApp } from '../../testing/test-app.ts';
import { knowledgeUnits } from './knowledge.schema.ts';
import { type Call, caller, upload } from './knowledge-test-helpers.ts';

type Preview = RouteData<typeof knowledgeRoutes.unitPreview>;
const QA: [string, string][] = [
  ['如何退货？', '七天内在订单页申请退货。'],
  ['运费谁出？', '质量问题由我们承担运费。'],
  ['How long is the warranty?', 'Two years from delivery.'],
];

describe('knowledge uploads', () => {
  let t: TestApp;
  let headers: Record<string, string>;
  let call: Call;
  let base: KnowledgeBase;
  const put = (name: string, bytes: Uint8Array) => upload(t, headers, base.id, name, Buffer.from(bytes));

  beforeAll(async () => {
    t = await createTestApp();
    const team = await buildTeam(t, { phonePrefix: '137000011' });
    headers = team.as(team.creator);
    call = caller(t, headers);
    base = (await call<KnowledgeBase>('knowledge/create', { name: 'Uploads' })).data;
  });
  afterAll(() => t.close());

  it('refuses files by their content, size and emptiness, with the spec’s messages', async () => {
    const png = await put(RENAMED_PNG.fileName, RENAMED_PNG.bytes);
    expect(png.body.code).toBe(40102);
    expect(png.body.msg).toContain('PDF、TXT、DOCX');

    expect((await put(EMPTY_FILE.fileName, EMPTY_FILE.bytes)).body.code).toBe(40106);
    expect((await put('blank.txt', Buffer.from('   \n\n  '))).body.code).toBe(40106);
    // PDFs are checked in the reader thread: pages without text, and a file pdfjs cannot open.
    const blank = await PDFDocument.create();
    for (let page = 0; page < 3; page++) blank.addPage();
    expect((await put('scan.pdf', await blank.save())).body.code).toBe(40106);
    expect((await put('broken.pdf', Buffer.from('%PDF-1.7\nthis is not a pdf at all'))).body.code).toBe(40102);

    const large = await upload(
      t,
      { ...headers, language: 'en' },
      base.id,
      'big.txt',
      Buffer.from(makeLargeText(21 * 1024 * 1024)),
    );
    expect(large.status).toBe(413);
    expect(large.body).toMatchObject({ code: 40103, msg: 'File size exceeded: each file must be 20 MB or smaller.' });
    // Just over the limit is read, then refused the same way.
    const over = await put('over.txt', makeLargeText(20 * 1024 * 1024 + 10));
    expect(over.body.code).toBe(40103);

    const list = (await call<{ items: KnowledgeUnit[] }>('knowledge/unit/list', { knowledge_id: base.id })).data;
    expect(list.items).toEqual([]);
  });

  it('accepts PDF, GBK TXT, DOCX, XLSX and CSV; the same content twice is a duplicate', async () => {
    const gbk = await put('员工守则.txt', makeGbkText('第一条 员工应当遵守公司规章制度。\n第二条 上班时间为九点。'));
    expect(gbk.body.code).toBe(0);
    expect(gbk.body.data).toMatchObject({
      file_name: '员工守则.txt',
      file_kind: 'txt',
      status: 'not_indexed',
      progress: 0,
      error: null,
      chunking: { mode: 'auto' },
      table_mode: null,
      columns: null,
      segment_count: 0,
    });
    expect(gbk.body.data.content_hash).toMatch(/^[0-9a-f]{64}$/);

    const pdfBytes = Buffer.from(await makeChinesePdf(8));
    const pdf = await put('handbook.pdf', pdfBytes);
    expect(pdf.body.data.file_kind).toBe('pdf');
    const docx = await put('通讯录.docx', await makeDocxWithHeadingsAndTable());
    expect(docx.body.data.file_kind).toBe('docx');
    const xlsx = await put('faq.xlsx', await makeXlsxQa(QA));
    expect(xlsx.body.data).toMatchObject({ file_kind: 'xlsx', columns: ['问题', '答案'], table_mode: { mode: 'row' } });
    const csv = await put('faq.csv', makeCsvQa(QA));
    expect(csv.body.data).toMatchObject({ file_kind: 'csv', columns: ['问题', '答案'] });

    const again = await upload(t, { ...headers, language: 'en' }, base.id, 'copy.pdf', pdfBytes);
    expect(again.body).toMatchObject({ code: 40105, msg: expect.stringContaining('“handbook.pdf”') });

    const units = (await call<{ items: KnowledgeUnit[] }>('knowledge/unit/list', { knowledge_id: base.id })).data.items;
    expect(units.map((u) => u.file_name)).toEqual([
      'faq.csv',
      'faq.xlsx',
      '通讯录.docx',
      'handbook.pdf',
      '员工守则.txt',
    ]);
    const kb = (await call<KnowledgeBase>('knowledge/get', { id: base.id })).data;
    expect(kb).toMatchObject({ unit_count: 5, status_counts: { not_indexed: 5 } });
    const found = await call<{ items: KnowledgeUnit[] }>('knowledge/unit/list', {
      knowledge_id: base.id,
      keyword: 'faq',
    });
    expect(found.data.items).toHaveLength(2);
  });

  it('takes at most 10 files per upload batch, counted on the server under a lock', async () => {
    const batch = randomUUID();
    const text = (i: number) => Buffer.from(`Batch file ${i}: ${'policy text '.repeat(20)}${i}`);
    // Eleven at once, as parallel as the client could send them: exactly ten get in.
    const results = await Promise.all(
      Array.from({ length: 11 }, (_, i) => upload(t, headers, base.id, `batch-${i}.txt`, text(i), batch)),
    );
    expect(results.filter((r) => r.body.code === 0)).toHaveLength(10);
    const refused = results.filter((r) => r.body.code !== 0);
    expect(refused.map((r) => [r.body.code, r.body.msg])).toEqual([[40107, '一次最多上传 10 个文件。']]);
    // A file deleted from the batch frees its place; another batch, or a file sent alone, is not held back.
    const first = results.find((r) => r.body.code === 0)?.body.data;
    await call('knowledge/unit/delete', { id: first?.id });
    expect((await upload(t, headers, base.id, 'batch-11.txt', text(11), batch)).body.code).toBe(0);
    expect((await upload(t, headers, base.id, 'batch-12.txt', text(12), batch)).body.code).toBe(40107);
    expect((await upload(t, headers, base.id, 'other-batch.txt', text(13), randomUUID())).body.code).toBe(0);
    expect((await upload(t, headers, base.id, 'alone.txt', text(14))).body.code).toBe(0);
    expect((await upload(t, headers, base.id, 'bad-batch.txt', text(15), 'not-a-uuid')).body.code).not.toBe(0);
  });

  it('previews chunks with any settings and writes nothing', async () => {
    const units = (await call<{ items: KnowledgeUnit[] }>('knowledge/unit/list', { knowledge_id: base.id })).data.items;
    const pdf = units.find((u) => u.file_kind === 'pdf')!;
    const auto = await call<Preview>('knowledge/unit/preview', { id: pdf.id, chunking: { mode: 'auto' }, limit: 3 });
    expect(auto.code).toBe(0);
    expect(auto.data.chunks.length).toBeLessThanOrEqual(3);
    expect(auto.data.total).toBeGreaterThan(1);
    expect(auto.data.chunks[0].content).toContain('总则');
    const small = await call<Preview>('knowledge/unit/preview', {
      id: pdf.id,
      chunking: { mode: 'custom', size: 100, overlap: 0, separators: ['\n\n'] },
      limit: 50,
    });
    expect(small.data.total).toBeGreaterThan(auto.data.total);

    const xlsx = units.find((u) => u.file_kind === 'xlsx')!;
    const qa = await call<Preview>('knowledge/unit/preview', {
      id: xlsx.id,
      chunking: { mode: 'auto' },
      table_mode: { mode: 'qa', question_column: 0, answer_column: 1 },
    });
    expect(qa.data.total).toBe(3);
    expect(qa.data.chunks[0]).toMatchObject({
      question: '如何退货？',
      answer: '七天内在订单页申请退货。',
      content: '',
    });
    expect(qa.data.columns).toEqual(['问题', '答案']);
    const rows = await call<Preview>('knowledge/unit/preview', {
      id: xlsx.id,
      chunking: { mode: 'auto' },
      table_mode: { mode: 'row' },
    });
    expect(rows.data.chunks[0].question).toBe('');

    const badColumns = { mode: 'qa', question_column: 0, answer_column: 7 };
    expect(
      (await call('knowledge/unit/preview', { id: xlsx.id, chunking: { mode: 'auto' }, table_mode: badColumns })).code,
    ).toBe(40110);
    const start = await call('knowledge/unit/start', {
      ids: [xlsx.id],
      chunking: { mode: 'auto' },
      table_mode: badColumns,
    });
    expect(start.code).toBe(40110);
    const same = { mode: 'qa', question_column: 1, answer_column: 1 };
    expect(
      (await call('knowledge/unit/start', { ids: [xlsx.id], chunking: { mode: 'auto' }, table_mode: same })).code,
    ).toBe(40110);
    expect((await call<KnowledgeUnit>('knowledge/unit/get', { id: xlsx.id })).data.status).toBe('not_indexed');
  });

  it('answers state conflicts in the caller’s language', async () => {
    const units = (await call<{ items: KnowledgeUnit[] }>('knowledge/unit/list', { knowledge_id: base.id })).data.items;
    const res = await t.call(
      `/api/athena/v1/knowledge/unit/cancel`,
      { id: units[0].id },
      { ...headers, language: 'en' },
    );
    expect(res.body).toMatchObject({ code: 40108, msg: 'The file is now “not indexed” and this cannot be done.' });
    expect((await call('knowledge/unit/retry', { id: units[0].id })).code).toBe(40108);
    expect((await call('knowledge/unit/get', { id: crypto.randomUUID() })).code).toBe(40400);
  });

  it('deletes a unit with its stored file', async () => {
    const unit = (await put('delete-me.txt', Buffer.from('Short lived file.'))).body.data;
    const [row] = await t.database.db.select().from(knowledgeUnits).where(eq(knowledgeUnits.id, unit.id));
    expect(row.storageKey).toMatch(/^knowledge\/[0-9a-f-]{36}\/[0-9a-f]{48}\.txt$/);
    expect(await t.app.platform.storage.get(row.storageKey)).not.toBeNull();
    expect((await call('knowledge/unit/delete', { id: unit.id })).code).toBe(0);
    expect((await call('knowledge/unit/get', { id: unit.id })).code).toBe(40400);
    expect(await t.app.platform.storage.get(row.storageKey)).toBeNull();
    expect((await put('delete-me.txt', Buffer.from('Short lived file.'))).body.code).toBe(0);
  });

  it('never serves a stored knowledge file on the public /files/ route', async () => {
    const unit = (await put('private.txt', Buffer.from('Not for the public.'))).body.data;
    const [row] = await t.database.db.select().from(knowledgeUnits).where(eq(knowledgeUnits.id, unit.id));
    expect(await t.app.platform.storage.get(row.storageKey)).not.toBeNull();
    const res = await t.app.inject({ method: 'GET', url: `/files/${row.storageKey}` });
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('Not for the public.');
  });

  it('deleting a base removes the stored files of all its units', async () => {
    const doomed = (await call<KnowledgeBase>('knowledge/create', { name: 'Doomed' })).data;
    const keys: string[] = [];
    for (const name of ['one.txt', 'two.txt']) {
      const unit = (await upload(t, headers, doomed.id, name, Buffer.from(`File ${name}.`))).body.data;
      const [row] = await t.database.db.select().from(knowledgeUnits).where(eq(knowledgeUnits.id, unit.id));
      keys.push(row.storageKey);
    }
    expect((await call('knowledge/delete', { id: doomed.id })).code).toBe(0);
    for (const key of keys) expect(await t.app.platform.storage.get(key)).toBeNull();
    expect(await t.database.db.select().from(knowledgeUnits).where(eq(knowledgeUnits.knowledgeId, doomed.id))).toEqual(
      [],
    );
  });
});
