import { KNOWLEDGE_UPLOAD_PATH, type KnowledgeBase, type KnowledgeUnit } from '@athena/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, startTwoProcesses, type Team, type TwoProcesses } from './two-processes.ts';

/** Two processes on one PostgreSQL server: the job queue and knowledge without pgvector (docs/postgres.md). */
describe('two processes on one PostgreSQL server: jobs and knowledge', () => {
  let two: TwoProcesses;
  beforeAll(async () => {
    two = await startTwoProcesses();
  });
  afterAll(async () => {
    if (two) expect(await two.stop()).toEqual([0, 0]);
  });

  describe('knowledge without pgvector', () => {
    let team: Team;
    let textBase: KnowledgeBase;
    let vectorBase: KnowledgeBase;
    const units: KnowledgeUnit[] = [];

    const upload = async (knowledgeId: string, fileName: string, text: string) => {
      const query = new URLSearchParams({ knowledge_id: knowledgeId, file_name: fileName });
      const res = await fetch(`${two.a.url}${KNOWLEDGE_UPLOAD_PATH}?${query}`, {
        method: 'POST',
        headers: { ...team.as(team.creator), 'content-type': 'application/octet-stream' },
        body: Buffer.from(text, 'utf8'),
      });
      const body = (await res.json()) as { code: number; data: KnowledgeUnit };
      expect(body.code, fileName).toBe(0);
      return body.data;
    };
    const search = async (knowledgeId: string, query: string, retrieval?: object) =>
      (
        await two.b.call<{ mode: string; items: { segment: { content: string; file_name: string } }[] }>(
          `${API}/knowledge/search`,
          { knowledge_id: knowledgeId, query, retrieval },
          team.as(team.creator),
        )
      ).data;

    beforeAll(async () => {
      team = await two.buildTeam('1390000003');
      const inTeam = team.as(team.creator);
      const embedKey = await two.a.call<{ id: string }>(
        `${API}/model_key/create`,
        {
          model_name: 'Embed',
          version: 'fake-embed',
          base_url: two.fake.url,
          api_key: two.fake.apiKey,
          purpose: 'embedding',
        },
        inTeam,
      );
      textBase = (
        await two.a.call<KnowledgeBase>(
          `${API}/knowledge/create`,
          { name: 'Text', embedding_model_key_id: null },
          inTeam,
        )
      ).data;
      vectorBase = (
        await two.a.call<KnowledgeBase>(
          `${API}/knowledge/create`,
          {
            name: 'Vector',
            embedding_model_key_id: embedKey.data.id,
            retrieval: { mode: 'vector', top_k: 5, score_threshold: null },
          },
          inTeam,
        )
      ).data;
      for (let i = 0; i < 6; i++) {
        units.push(
          await upload(
            textBase.id,
            `handbook-${i}.txt`,
            `Chapter ${i}. ${'Ordinary words. '.repeat(40)}Codeword${i} marks this file.`,
          ),
        );
      }
      units.push(await upload(vectorBase.id, 'vacation.txt', 'Annual leave is fifteen days. Sick leave needs a note.'));
    });

    it('indexes each file uploaded on A exactly once, by whichever process takes its job', async () => {
      for (const base of [textBase, vectorBase]) {
        const ids = units.filter((unit) => unit.knowledge_id === base.id).map((unit) => unit.id);
        const started = await two.a.call(
          `${API}/knowledge/unit/start`,
          { ids, chunking: { mode: 'auto' } },
          team.as(team.creator),
        );
        expect(started.code).toBe(0);
      }
      const statusOnB = async () =>
        Promise.all(
          units.map(
            async (unit) =>
              (await two.b.call<KnowledgeUnit>(`${API}/knowledge/unit/get`, { id: unit.id }, team.as(team.creator)))
                .data.status,
          ),
        );
      await expect.poll(statusOnB, { timeout: 30_000, interval: 200 }).toEqual(units.map(() => 'indexed'));

      // The queue's own record: one job per unit's run, taken once (no retry) and completed.
      const jobs = await two.rows<{ unit: string; state: string; retry_count: number }>(
        `SELECT data->>'unitId' AS unit, state, retry_count FROM pgboss.job WHERE name = 'knowledge-index'`,
      );
      for (const unit of units) {
        expect(
          jobs.filter((job) => job.unit === unit.id),
          unit.file_name,
        ).toEqual([{ unit: unit.id, state: 'completed', retry_count: 0 }]);
      }
      // Nothing was written twice: positions are 0..n-1 in every file.
      const positions = await two.rows<{ unit_id: string; n: number; distinct_positions: number; last: number }>(
        `SELECT unit_id, count(*)::int AS n, count(DISTINCT position)::int AS distinct_positions, max(position) AS last
         FROM knowledge_segments WHERE unit_id = ANY($1::uuid[]) GROUP BY unit_id`,
        [units.map((unit) => unit.id)],
      );
      expect(positions).toHaveLength(units.length);
      for (const row of positions) expect([row.distinct_positions, row.last + 1]).toEqual([row.n, row.n]);
    });

    it('finds an indexed txt by full text on the other process', async () => {
      const found = await search(textBase.id, 'Codeword4');
      expect(found.mode).toBe('fulltext');
      expect(found.items[0]?.segment.file_name).toBe('handbook-4.txt');
    });

    it('searches a base configured for vector or hybrid search by full text, and makes no vectors', async () => {
      expect((await search(vectorBase.id, 'annual leave')).mode).toBe('fulltext');
      const hybrid = await search(vectorBase.id, 'sick leave', { mode: 'hybrid', top_k: 3, score_threshold: null });
      expect(hybrid.mode).toBe('fulltext');
      expect(hybrid.items[0]?.segment.content).toContain('Sick leave');
      const segments = await two.b.call<{ items: { embedded: boolean }[] }>(
        `${API}/knowledge/segment/list`,
        { knowledge_id: vectorBase.id, page: 1, page_size: 10 },
        team.as(team.creator),
      );
      expect(segments.data.items.length).toBeGreaterThan(0);
      expect(segments.data.items.every((segment) => segment.embedded === false)).toBe(true);
      // Neither indexing nor searching asked the embedding model for anything.
      expect(two.fake.requests.filter((request) => request.path.includes('/embeddings'))).toEqual([]);
    });
  });

  describe('jobs', () => {
    it('runs each scheduled occurrence once across both processes', async () => {
      const ran = async () =>
        two.rows<{ name: string; state: string }>(
          `SELECT j.name, j.state FROM pgboss.job j JOIN pgboss.schedule s ON s.name = j.name`,
        );
      // pg-boss looks at the schedules every 30 s, once across processes; its first look on a new
      // database comes before the schedules exist, so the every-minute job first runs within ~35 s.
      await expect
        .poll(async () => (await ran()).filter((job) => job.state === 'completed').length, {
          timeout: 50_000,
          interval: 250,
        })
        .toBeGreaterThan(0);
      // pg-boss sends each schedule's occurrence through its own queue, one per schedule and minute
      // (singleton); each became exactly one job of the schedule's queue.
      const sent = await two.rows<{ name: string; slot: string; n: number }>(
        `SELECT data->>'name' AS name, singleton_on::text AS slot, count(*)::int AS n
         FROM pgboss.job WHERE name = '__pgboss__send-it' GROUP BY 1, 2`,
      );
      expect(sent.length).toBeGreaterThan(0);
      expect(sent.filter((row) => row.n !== 1)).toEqual([]);
      const jobs = await ran();
      for (const name of new Set(sent.map((row) => row.name))) {
        const occurrences = sent.filter((row) => row.name === name).length;
        expect(jobs.filter((job) => job.name === name).length, name).toBe(occurrences);
      }
    }, 60_000);
  });
});
