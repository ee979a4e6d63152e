import { readFileSync } from 'node:fs';
import type { KnowledgeBase, KnowledgeUnit, SearchHit } from '@athena/contract';
import { type FakeOpenAI, startFakeOpenAI } from '@athena/fake-openai';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeCsvQa } from '../../../../../packages/knowledge-core/src/fixtures/make-fixtures.ts';
import { rowsOf } from '../../platform/db/sql.ts';
import { buildTeam, type TeamFixture } from '../../testing/fixtures.ts';
import { createTestApp, type TestApp } from '../../testing/test-app.ts';
import { llmUsage } from '../model-key/model-key.schema.ts';
import { addEmbeddingKey, type Call, caller, upload, waitForUnit } from './knowledge-test-helpers.ts';
import { fuse } from './retrieval.service.ts';

type Search = { items: SearchHit[]; mode: string; score_kind: string; took_ms: number };

/** One topic per file, so each is one segment. */
const TOPICS: Record<string, string> = {
  'leave.txt':
    '年假制度：员工入职满一年后每年享有十天带薪年假，年假需要提前两周向直属主管申请，未休完的年假可以顺延到下一年度。',
  'expense.txt':
    '报销流程：差旅费用需要在出差结束后三十天内提交报销单，并附上发票原件和行程单，财务部门会在五个工作日内完成审核。',
  'devices.txt': '办公设备：新员工入职当天由信息技术部门发放笔记本电脑和工牌，设备损坏时请通过内部服务台提交维修工单。',
  'commute.txt': '通勤建议：上班时间早高峰地铁非常拥挤，建议提前出门或者错峰出行。',
  'refund.txt':
    'Refund policy: customers may return unused products within thirty days of delivery for a full refund to the original payment method.',
  'shipping.txt':
    'Shipping times: standard orders leave our warehouse within two business days and usually arrive within a week.',
  'warranty.txt':
    'Warranty coverage: every device includes a two year warranty covering manufacturing defects but not accidental damage.',
};
const QA: [string, string][] = [
  ['公司的上班时间是几点？', '每天早上九点到下午六点，中午休息一小时。'],
  ['How do I reset my password?', 'Open settings, choose security and follow the link we email you.'],
];

describe('retrieval', () => {
  let fake: FakeOpenAI;
  let t: TestApp;
  let team: TeamFixture;
  let call: Call;
  let textBase: KnowledgeBase;
  let hybridBase: KnowledgeBase;

  const search = async (base: KnowledgeBase, query: string, retrieval?: object) =>
    (await call<Search>('knowledge/search', { knowledge_id: base.id, query, retrieval })).data;
  const files = (hit: SearchHit) => hit.segment.file_name;

  async function fill(base: KnowledgeBase) {
    const headers = team.as(team.creator);
    const ids: string[] = [];
    for (const [name, text] of Object.entries(TOPICS)) {
      ids.push((await upload(t, headers, base.id, name, Buffer.from(text))).body.data.id);
    }
    await call('knowledge/unit/start', { ids, chunking: { mode: 'auto' } });
    const qa = (await upload(t, headers, base.id, 'faq.csv', Buffer.from(makeCsvQa(QA)))).body.data;
    await call('knowledge/unit/start', {
      ids: [qa.id],
      chunking: { mode: 'auto' },
      table_mode: { mode: 'qa', question_column: 0, answer_column: 1 },
    });
    for (const id of [...ids, qa.id]) await waitForUnit(call, id, (u: KnowledgeUnit) => u.status === 'indexed');
  }

  beforeAll(async () => {
    fake = await startFakeOpenAI();
    t = await createTestApp({ jobs: true, env: { ALLOW_PRIVATE_MODEL_ENDPOINTS: 'true' } });
    team = await buildTeam(t, { phonePrefix: '137000031' });
    call = caller(t, team.as(team.creator));
    textBase = (await call<KnowledgeBase>('knowledge/create', { name: 'Text only', embedding_model_key_id: null }))
      .data;
    const key = await addEmbeddingKey(call, fake.url, 'fake-lexical-embed');
    hybridBase = (await call<KnowledgeBase>('knowledge/create', { name: 'Hybrid', embedding_model_key_id: key })).data;
    await fill(textBase);
    await fill(hybridBase);
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  it('finds Chinese and English text with no embedding model at all', async () => {
    const leave = await search(textBase, '年假怎么申请');
    expect(leave.mode).toBe('fulltext');
    expect(leave.score_kind).toBe('fulltext');
    expect(files(leave.items[0])).toBe('leave.txt');
    expect(leave.items[0].found_by).toEqual([{ retriever: 'fulltext', rank: 1, score: leave.items[0].score }]);
    expect(leave.items[0].score).toBeGreaterThan(0);
    expect(leave.items[0].score).toBeLessThanOrEqual(1);

    expect(files((await search(textBase, '差旅发票报销')).items[0])).toBe('expense.txt');
    expect(files((await search(textBase, 'refund for unused products')).items[0])).toBe('refund.txt');
    expect(files((await search(textBase, 'WARRANTY defects')).items[0])).toBe('warranty.txt');
    expect((await search(textBase, '量子计算')).items).toEqual([]);
  });

  it('matches Q&A segments on their question above text that merely mentions the words', async () => {
    const hits = (await search(textBase, '上班时间')).items;
    expect(hits[0].segment).toMatchObject({ question: '公司的上班时间是几点？', file_name: 'faq.csv' });
    const commute = hits.find((hit) => files(hit) === 'commute.txt');
    expect(commute).toBeDefined();
    expect(hits[0].score).toBeGreaterThan(commute!.score);
    expect((await search(textBase, 'reset password')).items[0].segment.answer).toContain('security');
  });

  it('fuses full text and vectors in hybrid mode, scores 0–1, and says which retriever found what', async () => {
    const result = await search(hybridBase, 'refund policy for unused products');
    expect(result.mode).toBe('hybrid');
    expect(result.score_kind).toBe('fusion');
    const top = result.items[0];
    expect(files(top)).toBe('refund.txt');
    expect(top.found_by.map((f) => f.retriever).sort()).toEqual(['fulltext', 'vector']);
    expect(top.found_by.every((f) => f.rank === 1)).toBe(true);
    expect(top.score).toBeCloseTo(1, 5);
    for (const [index, hit] of result.items.entries()) {
      expect(hit.score).toBeGreaterThan(0);
      expect(hit.score).toBeLessThanOrEqual(1);
      if (index > 0) expect(hit.score).toBeLessThanOrEqual(result.items[index - 1].score);
    }
    const usage = await t.database.db.select().from(llmUsage).where(eq(llmUsage.source, 'knowledge.query'));
    expect(usage.length).toBeGreaterThan(0);

    const vector = await search(hybridBase, 'refund policy for unused products', { mode: 'vector', top_k: 3 });
    expect(vector.mode).toBe('vector');
    expect(vector.items).toHaveLength(3);
    expect(files(vector.items[0])).toBe('refund.txt');
    expect(vector.items.every((hit) => hit.found_by.length === 1 && hit.found_by[0].retriever === 'vector')).toBe(true);

    // A base without a model answers hybrid requests with full text and says so.
    expect((await search(textBase, 'refund', { mode: 'hybrid', top_k: 5 })).mode).toBe('fulltext');
    expect((await search(textBase, 'refund', { mode: 'vector', top_k: 5 })).mode).toBe('fulltext');
  });

  it('applies the score threshold and top-k after fusion, and counts hits', async () => {
    const all = await search(hybridBase, 'warranty device defects', { mode: 'hybrid', top_k: 10 });
    expect(all.items.length).toBeGreaterThan(1);
    const one = await search(hybridBase, 'warranty device defects', { mode: 'hybrid', top_k: 1 });
    expect(one.items.map(files)).toEqual(['warranty.txt']);
    const strict = await search(hybridBase, 'warranty device defects', {
      mode: 'hybrid',
      top_k: 10,
      score_threshold: 0.6,
    });
    expect(strict.items.length).toBeGreaterThan(0);
    expect(strict.items.length).toBeLessThan(all.items.length);
    expect(strict.items.every((hit) => hit.score >= 0.6)).toBe(true);
    expect(one.items[0].segment.hit_count).toBe(all.items[0].segment.hit_count + 1);
  });

  it('builds vector indexes with m 16 and ef_construction 200, and migration 0011 rebuilds older ones', async () => {
    const indexes = async () =>
      rowsOf<{ name: string; options: string[] }>(
        await t.database.executeSql(
          `SELECT c.relname AS name, c.reloptions AS options FROM pg_class c JOIN pg_am a ON a.oid = c.relam
           WHERE a.amname = 'hnsw' ORDER BY c.relname`,
        ),
      );
    const [built] = await indexes();
    expect(built.name).toMatch(/^knowledge_vectors_hnsw_\d+$/);
    expect(built.options).toEqual(['m=16', 'ef_construction=200']);

    // An index as made before 0011 (pgvector's defaults), then the migration's own statement.
    await t.database.executeSql(
      `CREATE INDEX knowledge_vectors_hnsw_3 ON knowledge_vectors
       USING hnsw ((embedding::vector(3)) vector_cosine_ops) WHERE dims = 3`,
    );
    const migration = new URL('../../../drizzle/0011_knowledge_hnsw_build.sql', import.meta.url);
    await t.database.executeSql(readFileSync(migration, 'utf8'));
    expect(await indexes()).toEqual([
      { name: 'knowledge_vectors_hnsw_3', options: ['ef_construction=200'] },
      { name: built.name, options: ['m=16', 'ef_construction=200'] },
    ]);
    await t.database.executeSql('DROP INDEX knowledge_vectors_hnsw_3');
    // The rebuilt index still answers.
    expect((await search(hybridBase, 'refund for unused products', { mode: 'vector' })).items[0]).toBeDefined();
  });

  it('keeps document frequencies in step with the segments through every kind of write', async () => {
    const base = (await call<KnowledgeBase>('knowledge/create', { name: 'Counts', embedding_model_key_id: null })).data;
    const headers = team.as(team.creator);
    const unit = (await upload(t, headers, base.id, 'leave.txt', Buffer.from(TOPICS['leave.txt']))).body.data;
    const other = (await upload(t, headers, base.id, 'refund.txt', Buffer.from(TOPICS['refund.txt']))).body.data;
    await call('knowledge/unit/start', { ids: [unit.id, other.id], chunking: { mode: 'auto' } });
    for (const id of [unit.id, other.id]) await waitForUnit(call, id, (u: KnowledgeUnit) => u.status === 'indexed');

    // What the triggers keep, against a count from the segments themselves.
    const kept = async () =>
      rowsOf<{ term: string; segments: number }>(
        await t.database.executeSql(
          'SELECT term, segments FROM knowledge_terms WHERE knowledge_id = $1 AND segments > 0 ORDER BY term',
          [base.id],
        ),
      );
    const counted = async () =>
      rowsOf<{ term: string; segments: number }>(
        await t.database.executeSql(
          `SELECT term, count(*)::int AS segments FROM knowledge_segments,
             unnest(array_append(tsvector_to_array(search_vector), '')) AS term
           WHERE knowledge_id = $1 AND term !~ '[0-9]' GROUP BY term ORDER BY term`,
          [base.id],
        ),
      );
    const segmentsKept = async () => (await kept()).find((row) => row.term === '')?.segments;
    expect(await segmentsKept()).toBe(2);
    expect(await kept()).toEqual(await counted());

    const added = (
      await call<{ id: string }>('knowledge/segment/create', { unit_id: unit.id, content: '病假需要提供医院证明。' })
    ).data;
    expect(await segmentsKept()).toBe(3);
    await call('knowledge/segment/update', { id: added.id, content: 'Sick leave needs a doctor’s note.' });
    await call('knowledge/segment/set_enabled', { id: added.id, enabled: false });
    expect(await kept()).toEqual(await counted());
    expect((await kept()).some((row) => row.term === '病假')).toBe(false);
    // Terms with digits are not kept but counted per query: full text still finds them.
    const numbered = (
      await call<{ id: string }>('knowledge/segment/create', { unit_id: unit.id, content: 'Ticket 500023 was closed.' })
    ).data;
    expect((await kept()).some((row) => row.term === '500023')).toBe(false);
    const byNumber = await search(base, '500023', { mode: 'fulltext', top_k: 5 });
    expect(byNumber.items.map((hit) => hit.segment.id)).toEqual([numbered.id]);
    await call('knowledge/segment/delete', { id: numbered.id });
    await call('knowledge/segment/delete', { id: added.id });
    await call('knowledge/unit/delete', { id: other.id });
    expect(await segmentsKept()).toBe(1);
    expect(await kept()).toEqual(await counted());
    // Full text finds through the counts: a word of the remaining unit, none of the deleted one.
    expect((await search(base, '年假', { mode: 'fulltext', top_k: 5 })).items).toHaveLength(1);
    expect((await search(base, 'refund', { mode: 'fulltext', top_k: 5 })).items).toHaveLength(0);

    await call('knowledge/delete', { id: base.id });
    expect(
      rowsOf(await t.database.executeSql('SELECT 1 FROM knowledge_terms WHERE knowledge_id = $1', [base.id])),
    ).toHaveLength(0);
  });

  it('never returns disabled segments', async () => {
    for (const base of [textBase, hybridBase]) {
      const [top] = (await search(base, 'Shipping times warehouse')).items;
      expect(files(top)).toBe('shipping.txt');
      await call('knowledge/segment/set_enabled', { id: top.segment.id, enabled: false });
      for (const mode of ['fulltext', 'vector', 'hybrid']) {
        const again = await search(base, 'Shipping times warehouse', { mode, top_k: 20 });
        expect(again.items.map((hit) => hit.segment.id)).not.toContain(top.segment.id);
      }
      await call('knowledge/segment/set_enabled', { id: top.segment.id, enabled: true });
    }
  });

  it('keeps a foreign space’s bases invisible, to the hit test and to agents', async () => {
    const other = await buildTeam(t, { phonePrefix: '137000032', name: 'Other' });
    const res = await call('knowledge/search', { knowledge_id: textBase.id, query: '年假' }, other.as(other.creator));
    expect(res.code).toBe(40400);

    const retrieval = t.app.modules.knowledge.retrieval;
    const theirs = await retrieval.retrieveForAgent({
      spaceId: other.teamId,
      userId: null,
      knowledgeIds: [textBase.id, hybridBase.id],
      query: '年假',
    });
    expect(theirs).toEqual([]);
    const ours = await retrieval.retrieveForAgent({
      spaceId: team.teamId,
      userId: null,
      knowledgeIds: [textBase.id, crypto.randomUUID(), 'not-a-uuid'],
      query: '员工入职后的年假',
      topK: 2,
    });
    expect(ours.map((hit) => hit.fileName)).toEqual(['leave.txt', 'devices.txt']);
    expect(ours[0]).toMatchObject({ knowledgeId: textBase.id, fileName: 'leave.txt', unitId: ours[0].segment.unit_id });
    expect(ours[0].score).toBeGreaterThan(0);

    const both = await retrieval.retrieveForAgent({
      spaceId: team.teamId,
      userId: null,
      knowledgeIds: [textBase.id, hybridBase.id],
      query: '年假怎么申请',
    });
    expect(new Set(both.map((hit) => hit.knowledgeId))).toEqual(new Set([textBase.id, hybridBase.id]));
    // The same file in both bases is the best answer from each: the text-only base's copy (found
    // by full text alone) is scored against what full text could give it, not capped at half.
    // Which copy comes first depends on their ranks, so the pair is compared as a set.
    expect(new Set(both.slice(0, 2).map((hit) => `${hit.knowledgeId}/${hit.fileName}`))).toEqual(
      new Set([`${textBase.id}/leave.txt`, `${hybridBase.id}/leave.txt`]),
    );
    expect(both[1].score).toBeGreaterThan(0.9);
    const strict = await retrieval.retrieve({
      spaceId: team.teamId,
      userId: null,
      knowledgeIds: [textBase.id, hybridBase.id],
      query: '年假怎么申请',
      settings: { mode: 'hybrid', top_k: 5, score_threshold: 0.6 },
    });
    expect(strict.mode).toBe('hybrid');
    expect(strict.items.map((hit) => hit.segment.knowledge_id)).toContain(textBase.id);
  });

  it('answers queries of stop words or punctuation only without an error', async () => {
    // Nothing but stop words: they are searched after all ("the" is in the English files).
    const stop = await call<Search>('knowledge/search', { knowledge_id: textBase.id, query: 'the of and' });
    expect(stop.code).toBe(0);
    expect(stop.data.items.length).toBeGreaterThan(0);
    // No term at all: full text has nothing to look for; vectors still answer in hybrid.
    const none = await call<Search>('knowledge/search', { knowledge_id: textBase.id, query: '？！…' });
    expect(none).toMatchObject({ code: 0, data: { items: [], mode: 'fulltext' } });
    const hybrid = await call<Search>('knowledge/search', { knowledge_id: hybridBase.id, query: '？！…' });
    expect(hybrid.code).toBe(0);
    expect(hybrid.data.items.every((hit) => hit.found_by.every((f) => f.retriever === 'vector'))).toBe(true);
  });

  it('falls back to full text in hybrid mode when the embedding model fails', async () => {
    const keyId = hybridBase.embedding_model_key_id as string;
    const setVersion = (version: string) =>
      call('model_key/update', { id: keyId, model_name: 'Embed', version, base_url: fake.url, purpose: 'embedding' });
    expect((await setVersion('fake-500')).code).toBe(0);
    try {
      const hybrid = await search(hybridBase, 'refund for unused products', { mode: 'hybrid', top_k: 5 });
      expect(hybrid.mode).toBe('fulltext');
      expect(files(hybrid.items[0])).toBe('refund.txt');
      expect(hybrid.items[0].found_by.map((f) => f.retriever)).toEqual(['fulltext']);
      const vector = await call('knowledge/search', {
        knowledge_id: hybridBase.id,
        query: 'refund',
        retrieval: { mode: 'vector', top_k: 5, score_threshold: null },
      });
      expect(vector.code).toBe(40094);
    } finally {
      await setVersion('fake-lexical-embed');
    }
  });

  it('normalises reciprocal-rank fusion to 0–1 by what each base could reach, with stable ties', () => {
    const at = (segmentId: string, score: number, knowledgeId = 'kb-hybrid', position = 0) => ({
      segmentId,
      knowledgeId,
      unitId: `unit-${segmentId}`,
      position,
      score,
    });
    const fused = fuse({
      fulltext: [at('a', 0.3), at('b', 0.2)],
      vector: [at('a', 0.9), at('c', 0.8)],
    });
    expect(fused.map((hit) => hit.segmentId)).toEqual(['a', 'b', 'c']);
    expect(fused[0].score).toBeCloseTo(1, 10);
    expect(fused[1].score).toBeCloseTo((1 / 62 / 2) * 61, 10);
    expect(fuse({ fulltext: [at('a', 0.42)] })[0].score).toBe(0.42);

    // A base only full text searched (no model) reaches 1 with its first hit; the hybrid base's
    // segment found only by full text stays near half.
    const searchedBy = (id: string) =>
      id === 'kb-text' ? ['fulltext' as const] : ['fulltext' as const, 'vector' as const];
    const mixed = fuse({ fulltext: [at('t1', 0.5, 'kb-text'), at('h1', 0.4)], vector: [at('h2', 0.9)] }, searchedBy);
    expect(mixed.map((hit) => [hit.segmentId, Number(hit.score.toFixed(3))])).toEqual([
      ['t1', 1],
      ['h2', 0.5],
      ['h1', 0.492],
    ]);

    // A retriever that found nothing takes no part: the other keeps its own scores.
    expect(fuse({ fulltext: [], vector: [at('v', 0.7)] })).toEqual([
      { segmentId: 'v', score: 0.7, found_by: [{ retriever: 'vector', rank: 1, score: 0.7 }] },
    ]);

    // Equal scores (each first in one list): base, then file, then position decide, not the ids.
    const item = (segmentId: string, knowledgeId: string, unitId: string, position: number) => ({
      segmentId,
      knowledgeId,
      unitId,
      position,
      score: 0.5,
    });
    for (const [first, second] of [
      [item('z', 'kb-1', 'u-1', 0), item('a', 'kb-2', 'u-0', 0)],
      [item('z', 'kb-1', 'u-1', 0), item('a', 'kb-1', 'u-2', 0)],
      [item('z', 'kb-1', 'u-1', 4), item('a', 'kb-1', 'u-1', 5)],
    ]) {
      expect(fuse({ fulltext: [second], vector: [first] }).map((hit) => hit.segmentId)).toEqual(['z', 'a']);
      expect(fuse({ fulltext: [first], vector: [second] }).map((hit) => hit.segmentId)).toEqual(['z', 'a']);
    }
    // Then the best single rank: second in one list beats third in one list, ids aside.
    const ranks = fuse({ fulltext: [at('f1', 1), at('f2', 1), at('a', 1)], vector: [at('v1', 1), at('z', 1)] });
    expect(ranks.map((hit) => hit.segmentId)).toEqual(['f1', 'v1', 'f2', 'z', 'a']);
  });
});
