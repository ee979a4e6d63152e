import type { KnowledgeBase, KnowledgeUnit, Segment } from '@athena/contract';
import { type FakeOpenAI, startFakeOpenAI } from '@athena/fake-openai';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeCsvQa } from '../../../../../packages/knowledge-core/src/fixtures/make-fixtures.ts';
import { rowsOf } from '../../platform/db/sql.ts';
import { buildTeam, type TeamFixture } from '../../testing/fixtures.ts';
import { createTestApp, type TestApp } from '../../testing/test-app.ts';
import { llmUsage } from '../model-key/model-key.schema.ts';
import { createIndexer } from './indexer.ts';
import { createKnowledgeRepo } from './knowledge.repo.ts';
import { knowledgeSegments, knowledgeUnits } from './knowledge.schema.ts';
import {
  addEmbeddingKey,
  allSegments,
  type Call,
  caller,
  paragraphs,
  startSlowProxy,
  until,
  upload,
  waitForUnit,
} from './knowledge-test-helpers.ts';
import { createVectorStore } from './vectors.ts';

type Slow = Awaited<ReturnType<typeof startSlowProxy>>;
const AUTO = { mode: 'auto' } as const;

describe('indexing pipeline', () => {
  let fake: FakeOpenAI;
  let slow: Slow;
  let t: TestApp;
  let team: TeamFixture;
  let headers: Record<string, string>;
  let call: Call;
  let fastKey: string;
  let slowKey: string;

  const embedRequests = () => fake.requests.filter((r) => r.path.endsWith('/embeddings'));
  const vectorRows = async (knowledgeId: string) =>
    rowsOf<{ segment_id: string; model_key_id: string; embedding: string }>(
      await t.database.db.execute(
        sql`SELECT segment_id, model_key_id, embedding::text AS embedding FROM knowledge_vectors WHERE knowledge_id = ${knowledgeId}::uuid ORDER BY segment_id`,
      ),
    );
  const newBase = async (name: string, key: string | null) =>
    (await call<KnowledgeBase>('knowledge/create', { name, embedding_model_key_id: key })).data;
  const put = async (base: KnowledgeBase, name: string, bytes: Buffer) => {
    const res = await upload(t, headers, base.id, name, bytes);
    if (res.body.code !== 0) throw new Error(JSON.stringify(res.body));
    return res.body.data;
  };
  const start = async (ids: string[], extra: object = {}, as = headers) =>
    call<{ items: KnowledgeUnit[] }>('knowledge/unit/start', { ids, chunking: AUTO, ...extra }, as);

  beforeAll(async () => {
    fake = await startFakeOpenAI();
    slow = await startSlowProxy(fake, 120);
    t = await createTestApp({
      jobs: true,
      env: {
        ALLOW_PRIVATE_MODEL_ENDPOINTS: 'true',
        KNOWLEDGE_EMBED_BATCH: '2',
        KNOWLEDGE_LEASE_SECONDS: '5',
        KNOWLEDGE_INDEX_CONCURRENCY: '1',
      },
    });
    team = await buildTeam(t, { phonePrefix: '137000021' });
    headers = team.as(team.creator);
    call = caller(t, headers);
    fastKey = await addEmbeddingKey(call, fake.url);
    slowKey = await addEmbeddingKey(call, slow.url);
  });
  afterAll(async () => {
    await t.close();
    await slow.close();
    await fake.close();
  });

  it('moves a unit through not indexed, waiting, indexing and indexed, embedding in batches', async () => {
    const base = await newBase('States', slowKey);
    const unit = await put(base, 'guide.txt', paragraphs(10));
    expect(unit.status).toBe('not_indexed');
    const preview = await call<{ total: number }>('knowledge/unit/preview', { id: unit.id, chunking: AUTO });
    const before = embedRequests().length;

    const started = await start([unit.id]);
    expect(started.data.items[0]).toMatchObject({ status: 'waiting', progress: 0 });
    const midway = await waitForUnit(call, unit.id, (u) => u.status === 'indexing' && u.progress > 30);
    expect(midway.progress).toBeLessThan(100);
    const done = await waitForUnit(call, unit.id, (u) => u.status === 'indexed');
    expect(done).toMatchObject({ progress: 100, error: null, segment_count: preview.data.total });
    expect(done.token_count).toBeGreaterThan(0);
    expect(done.indexed_at).not.toBeNull();

    const segments = await allSegments(call, base.id);
    expect(segments.map((s) => s.position)).toEqual(segments.map((_, i) => i));
    expect(segments.every((s) => s.embedded && s.enabled && !s.manual)).toBe(true);
    // Batches of KNOWLEDGE_EMBED_BATCH = 2, each recorded as usage.
    expect(embedRequests().length - before).toBe(Math.ceil(segments.length / 2));
    const usage = await t.database.db
      .select()
      .from(llmUsage)
      .where(and(eq(llmUsage.source, 'knowledge.embed'), eq(llmUsage.modelKeyId, slowKey)));
    expect(usage.length).toBe(Math.ceil(segments.length / 2));
    expect(usage.every((row) => row.outcome === 'ok' && row.inputTokens > 0)).toBe(true);
    const kb = (await call<KnowledgeBase>('knowledge/get', { id: base.id })).data;
    expect(kb).toMatchObject({ unit_count: 1, segment_count: segments.length, status_counts: { indexed: 1 } });
  });

  it('fails with the model’s reason (never the key) and indexes after a retry', async () => {
    const badKey = await addEmbeddingKey(call, fake.url, 'fake-401');
    const base = await newBase('Retry', badKey);
    const unit = await put(base, 'retry.txt', paragraphs(3, 'Retry'));
    await start([unit.id]);
    const failed = await waitForUnit(call, unit.id, (u) => u.status === 'failed');
    expect(failed.error?.code).toBe('MODEL_CALL_FAILED');
    expect(failed.error?.message).toMatch(/^模型调用失败：auth: /);
    expect(failed.error?.message).not.toContain('sk-fake');
    expect(failed.segment_count).toBeGreaterThan(0);
    expect((await call('knowledge/unit/start', { ids: [unit.id], chunking: AUTO })).code).toBe(0);
    await waitForUnit(call, unit.id, (u) => u.status === 'failed');

    // Fix the key itself (the base keeps pointing at it), then retry the unit.
    await call('model_key/update', {
      id: badKey,
      model_name: 'Embed',
      version: 'fake-embed',
      base_url: fake.url,
      purpose: 'embedding',
    });
    const retried = await call<KnowledgeUnit>('knowledge/unit/retry', { id: unit.id });
    expect(retried.data).toMatchObject({ status: 'waiting', error: null });
    const done = await waitForUnit(call, unit.id, (u) => u.status === 'indexed');
    expect(done.segment_count).toBe(failed.segment_count);
    expect((await call('knowledge/unit/retry', { id: unit.id })).code).toBe(40108);
  });

  it('stops promptly when cancelled mid-indexing, and a retry resumes without redoing the work', async () => {
    const base = await newBase('Cancel', slowKey);
    const unit = await put(base, 'long.txt', paragraphs(24, 'Cancel'));
    await start([unit.id]);
    await waitForUnit(call, unit.id, (u) => u.status === 'indexing' && u.progress > 45);
    const canceled = await call<KnowledgeUnit>('knowledge/unit/cancel', { id: unit.id });
    expect(canceled.data.status).toBe('canceled');
    const callsAtCancel = slow.embedCalls;
    await new Promise((resolve) => setTimeout(resolve, 600));
    // The call in flight was abandoned; nothing more reached the model.
    expect(slow.embedCalls - callsAtCancel).toBeLessThanOrEqual(1);
    const after = (await call<KnowledgeUnit>('knowledge/unit/get', { id: unit.id })).data;
    expect(after.status).toBe('canceled');
    expect(after.progress).toBeLessThan(100);
    const embeddedBefore = (await vectorRows(base.id)).length;
    expect(embeddedBefore).toBeGreaterThan(0);

    const callsBefore = slow.embedCalls;
    await call('knowledge/unit/retry', { id: unit.id });
    const done = await waitForUnit(call, unit.id, (u) => u.status === 'indexed');
    expect(slow.embedCalls - callsBefore).toBe(Math.ceil((done.segment_count - embeddedBefore) / 2));
    expect((await vectorRows(base.id)).length).toBe(done.segment_count);
  });

  it('re-embeds only the edited segment; hand-made segments, disabling and deleting keep counts right', async () => {
    const base = await newBase('Edits', fastKey);
    const unit = await put(base, 'edits.txt', paragraphs(5, 'Edit'));
    await start([unit.id]);
    const indexed = await waitForUnit(call, unit.id, (u) => u.status === 'indexed');
    const segments = await allSegments(call, base.id, unit.id);
    const before = await vectorRows(base.id);
    const requestsBefore = embedRequests().length;

    const edited = await call<Segment>('knowledge/segment/update', {
      id: segments[2].id,
      content: '全新的内容：退货请在七天内申请。',
    });
    expect(edited.data).toMatchObject({ content: '全新的内容：退货请在七天内申请。', embedded: true, position: 2 });
    expect(embedRequests().length - requestsBefore).toBe(1);
    expect(embedRequests().at(-1)?.body).toMatchObject({ input: ['全新的内容：退货请在七天内申请。'] });
    const after = await vectorRows(base.id);
    expect(after.length).toBe(before.length);
    for (const [index, row] of after.entries()) {
      if (row.segment_id === segments[2].id) expect(row.embedding).not.toBe(before[index].embedding);
      else expect(row).toEqual(before[index]);
    }
    expect((await call('knowledge/segment/update', { id: segments[0].id, content: ' ' })).code).toBe(40109);

    const manual = await call<Segment>('knowledge/segment/create', { unit_id: unit.id, content: 'Written by hand.' });
    expect(manual.data).toMatchObject({ manual: true, embedded: true, position: segments.length });
    const disabled = await call<Segment>('knowledge/segment/set_enabled', { id: segments[1].id, enabled: false });
    expect(disabled.data.enabled).toBe(false);
    expect((await call('knowledge/segment/delete', { id: segments[0].id })).code).toBe(0);
    const unitNow = (await call<KnowledgeUnit>('knowledge/unit/get', { id: unit.id })).data;
    expect(unitNow.segment_count).toBe(indexed.segment_count);
    const rows = await vectorRows(base.id);
    expect(rows.map((r) => r.segment_id)).not.toContain(segments[0].id);
    expect(rows.length).toBe(indexed.segment_count);

    const found = await call<{ items: Segment[]; total: number }>('knowledge/segment/list', {
      knowledge_id: base.id,
      keyword: '七天',
    });
    expect(found.data.items.map((s) => s.id)).toEqual([segments[2].id]);
    const page2 = await call<{ items: Segment[]; total: number }>('knowledge/segment/list', {
      knowledge_id: base.id,
      page: 2,
      page_size: 2,
    });
    expect(page2.data.total).toBe(indexed.segment_count);
    expect(page2.data.items.map((s) => s.position)).toEqual([3, 4]);
  });

  it('Q&A segments need a question and an answer', async () => {
    const base = await newBase('QA', null);
    const unit = await put(base, 'faq.csv', Buffer.from(makeCsvQa([['几点上班？', '九点。']])));
    await start([unit.id], { table_mode: { mode: 'qa', question_column: 0, answer_column: 1 } });
    await waitForUnit(call, unit.id, (u) => u.status === 'indexed');
    const [segment] = await allSegments(call, base.id);
    expect(segment).toMatchObject({ question: '几点上班？', answer: '九点。', content: '', embedded: false });
    expect((await call('knowledge/segment/update', { id: segment.id, question: '几点下班？' })).code).toBe(40109);
    const ok = await call<Segment>('knowledge/segment/update', {
      id: segment.id,
      question: '几点下班？',
      answer: '六点。',
    });
    expect(ok.data).toMatchObject({ question: '几点下班？', answer: '六点。' });
  });

  it('changing the embedding model re-embeds every unit and keeps its segments', async () => {
    const base = await newBase('Switch', fastKey);
    const unit = await put(base, 'switch.txt', paragraphs(4, 'Switch'));
    await start([unit.id]);
    await waitForUnit(call, unit.id, (u) => u.status === 'indexed');
    const ids = (await allSegments(call, base.id)).map((s) => s.id);
    const other = await addEmbeddingKey(call, fake.url, 'fake-lexical-embed');
    const updated = await call<KnowledgeBase>('knowledge/update', {
      id: base.id,
      name: base.name,
      embedding_model_key_id: other,
      retrieval: base.retrieval,
    });
    expect(updated.data.embedding_model_key_id).toBe(other);
    await waitForUnit(call, unit.id, (u) => u.status === 'indexed');
    expect((await allSegments(call, base.id)).map((s) => s.id)).toEqual(ids);
    const rows = await vectorRows(base.id);
    expect(rows.length).toBe(ids.length);
    expect(rows.every((r) => r.model_key_id === other)).toBe(true);

    const again = await call<{ queued: number }>('knowledge/reindex', { id: base.id });
    expect(again.data.queued).toBe(1);
    await waitForUnit(call, unit.id, (u) => u.status === 'indexed');
    expect((await vectorRows(base.id)).length).toBe(ids.length);

    // Deleting the key leaves the base on full text and takes its vectors with it.
    expect((await call('model_key/delete', { id: other })).code).toBe(0);
    const orphaned = await call<KnowledgeBase>('knowledge/get', { id: base.id });
    expect(orphaned.data.embedding_model_key_id).toBeNull();
    expect(await vectorRows(base.id)).toEqual([]);
  });

  it('deleting a unit or a base removes its segments and vectors', async () => {
    const base = await newBase('Delete', fastKey);
    const units = [await put(base, 'a.txt', paragraphs(3, 'Alpha')), await put(base, 'b.txt', paragraphs(3, 'Beta'))];
    await start(units.map((u) => u.id));
    for (const unit of units) await waitForUnit(call, unit.id, (u) => u.status === 'indexed');
    const count = async (table: string) =>
      rowsOf<{ n: number }>(
        await t.database.db.execute(
          sql`SELECT count(*)::int AS n FROM ${sql.raw(table)} WHERE knowledge_id = ${base.id}::uuid`,
        ),
      )[0].n;
    const perUnit = (await allSegments(call, base.id, units[0].id)).length;
    const total = await count('knowledge_segments');
    expect(await count('knowledge_vectors')).toBe(total);

    expect((await call('knowledge/unit/delete', { id: units[0].id })).code).toBe(0);
    expect(await count('knowledge_segments')).toBe(total - perUnit);
    expect(await count('knowledge_vectors')).toBe(total - perUnit);
    expect((await call('knowledge/delete', { id: base.id })).code).toBe(0);
    expect(await count('knowledge_segments')).toBe(0);
    expect(await count('knowledge_vectors')).toBe(0);
    expect(await t.database.db.select().from(knowledgeUnits).where(eq(knowledgeUnits.knowledgeId, base.id))).toEqual(
      [],
    );
  });

  it('shows the segments written so far while a file is still being cut', async () => {
    const base = await newBase('Cutting', null);
    const unit = await put(base, 'cut.txt', paragraphs(6));
    await start([unit.id]);
    const indexed = await waitForUnit(call, unit.id, (u) => u.status === 'indexed');
    expect(indexed.segment_count).toBeGreaterThan(1);
    // As a large PDF stands mid-way: its segments are written, its count not yet (that marks the
    // cut complete), and its worker holds the lease.
    await t.database.db
      .update(knowledgeUnits)
      .set({ status: 'indexing', segmentCount: 0, leaseExpiresAt: sql`now() + interval '1 hour'` })
      .where(eq(knowledgeUnits.id, unit.id));
    const listed = (await call<{ items: KnowledgeUnit[] }>('knowledge/unit/list', { knowledge_id: base.id })).data;
    expect(listed.items.find((u) => u.id === unit.id)).toMatchObject({
      status: 'indexing',
      segment_count: indexed.segment_count,
    });
    expect((await call<KnowledgeUnit>('knowledge/unit/get', { id: unit.id })).data.segment_count).toBe(
      indexed.segment_count,
    );
  });

  it('sweeps up units whose worker died or whose job was lost', async () => {
    const base = await newBase('Sweep', null);
    const dead = await put(base, 'dead.txt', Buffer.from('A worker died holding this file.'));
    const lost = await put(base, 'lost.txt', Buffer.from('This file was marked waiting but never sent.'));
    // As a crashed process leaves them: one leased long ago, one waiting with no job at all.
    await t.database.db
      .update(knowledgeUnits)
      .set({ status: 'indexing', runId: 1, leaseExpiresAt: sql`now() - interval '1 minute'` })
      .where(eq(knowledgeUnits.id, dead.id));
    await t.database.db
      .update(knowledgeUnits)
      .set({ status: 'waiting', runId: 1, updatedAt: sql`now() - interval '1 minute'` })
      .where(eq(knowledgeUnits.id, lost.id));
    await t.indexer?.sweep();
    await waitForUnit(call, dead.id, (u) => u.status === 'indexed');
    await waitForUnit(call, lost.id, (u) => u.status === 'indexed');
  });

  it('is fair across spaces: one space’s queue does not hold back another’s single file', async () => {
    const busy = await newBase('Busy space', slowKey);
    const many: KnowledgeUnit[] = [];
    for (let i = 0; i < 10; i++) many.push(await put(busy, `bulk-${i}.txt`, Buffer.from(`Bulk file number ${i}.`)));
    const other = await buildTeam(t, { phonePrefix: '137000022', name: 'Quiet space' });
    const otherCall = caller(t, other.as(other.creator));
    const otherKey = await addEmbeddingKey(otherCall, slow.url);
    const quiet = (
      await otherCall<KnowledgeBase>('knowledge/create', { name: 'Quiet', embedding_model_key_id: otherKey })
    ).data;
    const single = (await upload(t, other.as(other.creator), quiet.id, 'single.txt', Buffer.from('The only file.')))
      .body.data;

    expect((await start(many.map((u) => u.id))).code).toBe(0);
    expect((await start([single.id], {}, other.as(other.creator))).code).toBe(0);
    await waitForUnit(otherCall, single.id, (u) => u.status === 'indexed');
    for (const unit of many) await waitForUnit(call, unit.id, (u) => u.status === 'indexed');

    const order = await t.database.db
      .select({ id: knowledgeUnits.id })
      .from(knowledgeUnits)
      .where(
        sql`${knowledgeUnits.id} IN (${sql.join(
          [...many, single].map((u) => sql`${u.id}::uuid`),
          sql`, `,
        )})`,
      )
      .orderBy(knowledgeUnits.indexedAt);
    // One worker: the busy space's first file was already taken; the single file comes right after.
    expect(order.findIndex((row) => row.id === single.id)).toBeLessThanOrEqual(2);
  });

  it('a worker whose lease ran out stops writing once another worker takes the unit over', async () => {
    const base = await newBase('Takeover', slowKey);
    const unit = await put(base, 'takeover.txt', paragraphs(20, 'Takeover'));
    const { total } = (await call<{ total: number }>('knowledge/unit/preview', { id: unit.id, chunking: AUTO })).data;
    const arrivalsBefore = slow.embedArrivals;
    await start([unit.id]);
    await waitForUnit(call, unit.id, (u) => u.status === 'indexing' && u.progress > 35);

    // As if the first worker's process had stalled past its lease: the lease runs out and a
    // worker of another process claims the same run.
    const db = t.database.db;
    const [held] = await db
      .update(knowledgeUnits)
      .set({ leaseExpiresAt: sql`now() - interval '1 second'` })
      .where(eq(knowledgeUnits.id, unit.id))
      .returning({ runId: knowledgeUnits.runId, token: knowledgeUnits.leaseToken });
    expect(held.token).not.toBeNull();
    const { knowledge, modelKey } = t.app.modules;
    const vectors = createVectorStore(db, { efSearch: t.config.KNOWLEDGE_EF_SEARCH });
    const other = createIndexer({
      db,
      repo: createKnowledgeRepo({ db, vectors }),
      vectors,
      queue: knowledge.queue,
      storage: t.app.platform.storage,
      readers: knowledge.readers,
      gateway: modelKey.gateway,
      modelKeys: modelKey.modelKeys,
      bus: t.app.platform.bus,
      log: t.app.log,
      leaseSeconds: 5,
      embedBatch: 2,
    });
    expect(await other.process({ unitId: unit.id, runId: held.runId })).toBe('indexed');
    // The first worker finds its token gone at its next write or check, and stops without
    // putting the unit back in the queue.
    await until(() => knowledge.indexer.busy === 0, 'the first worker to stop');

    const after = (await call<KnowledgeUnit>('knowledge/unit/get', { id: unit.id })).data;
    expect(after).toMatchObject({ status: 'indexed', progress: 100, segment_count: total });
    expect((await vectorRows(base.id)).length).toBe(total);
    // Each batch of two embedded once, plus at most the one call in flight when it was taken over.
    // Had the first worker gone on, both would have embedded every batch left.
    expect(slow.embedArrivals - arrivalsBefore).toBeLessThanOrEqual(Math.ceil(total / 2) + 1);
    const [state] = await db
      .select({ token: knowledgeUnits.leaseToken, runId: knowledgeUnits.runId })
      .from(knowledgeUnits)
      .where(eq(knowledgeUnits.id, unit.id));
    expect(state).toEqual({ token: null, runId: held.runId });
  });

  it('a hand edit waiting on the model answers a conflict when the unit was started meanwhile', async () => {
    const held = await startSlowProxy(fake, 600);
    try {
      const base = await newBase('Edit race', await addEmbeddingKey(call, held.url));
      const unit = await put(base, 'race.txt', paragraphs(1, 'Race'));
      await start([unit.id]);
      await waitForUnit(call, unit.id, (u) => u.status === 'indexed');
      const [segment] = await allSegments(call, base.id);

      const arrivals = held.embedArrivals;
      const created = call('knowledge/segment/create', { unit_id: unit.id, content: 'Added during a restart.' });
      const updated = call('knowledge/segment/update', { id: segment.id, content: 'Edited during a restart.' });
      await until(() => held.embedArrivals >= arrivals + 2, 'both edits to reach the model');
      expect((await start([unit.id])).code).toBe(0);
      expect((await created).code).toBe(40108);
      expect((await updated).code).toBe(40108);

      await call('knowledge/unit/cancel', { id: unit.id });
      const rows = await t.database.db
        .select({ manual: knowledgeSegments.manual, content: knowledgeSegments.content })
        .from(knowledgeSegments)
        .where(eq(knowledgeSegments.unitId, unit.id));
      expect(rows.filter((row) => row.manual || row.content.includes('during a restart'))).toEqual([]);
    } finally {
      await held.close();
    }
  });

  // Last: it stops this app's indexer.
  it('on shutdown puts the unit being indexed back in the queue', async () => {
    const base = await newBase('Shutdown', slowKey);
    const unit = await put(base, 'shutdown.txt', paragraphs(12, 'Shutdown'));
    await start([unit.id]);
    await waitForUnit(call, unit.id, (u) => u.status === 'indexing' && u.progress > 30);
    await t.indexer?.stop();
    const after = (await call<KnowledgeUnit>('knowledge/unit/get', { id: unit.id })).data;
    expect(after.status).toBe('waiting');
    const jobs = rowsOf<{ n: number }>(
      await t.database.db.execute(
        sql`SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'knowledge-index' AND state = 'created' AND data->>'unitId' = ${unit.id}`,
      ),
    );
    expect(jobs[0].n).toBe(1);
  });
});
