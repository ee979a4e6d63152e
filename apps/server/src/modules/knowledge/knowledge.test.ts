import type { KnowledgeGroup as Group, KnowledgeBase, KnowledgeUnit } from '@athena/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTeam, type TeamFixture } from '../../testing/fixtures.ts';
import { createTestApp, type TestApp } from '../../testing/test-app.ts';
import { knowledgeSegments, knowledgeUnits } from './knowledge.schema.ts';
import { addEmbeddingKey, type Call, caller, upload } from './knowledge-test-helpers.ts';

const FAKE_URL = 'http://127.0.0.1:9/v1';
const AUTO = { mode: 'auto' } as const;

describe('knowledge bases and groups', () => {
  let t: TestApp;
  let team: TeamFixture;
  let other: TeamFixture;
  let call: Call;
  let as: (token: string) => Record<string, string>;

  beforeAll(async () => {
    t = await createTestApp({ env: { ALLOW_PRIVATE_MODEL_ENDPOINTS: 'true' } });
    team = await buildTeam(t, { phonePrefix: '137000001' });
    other = await buildTeam(t, { phonePrefix: '137000002', name: 'Other team' });
    as = team.as;
    call = caller(t, as(team.creator));
  });
  afterAll(() => t.close());

  it('creates bases with the space’s default embedding model, a chosen one, or none', async () => {
    const none = await call<KnowledgeBase>('knowledge/create', { name: '产品手册' });
    expect(none.code).toBe(0);
    expect(none.data).toMatchObject({
      name: '产品手册',
      type: 'normal',
      group_id: null,
      embedding_model_key_id: null,
      retrieval: { mode: 'hybrid', top_k: 5, score_threshold: null },
      unit_count: 0,
      segment_count: 0,
      status_counts: { not_indexed: 0, waiting: 0, indexing: 0, indexed: 0, failed: 0, canceled: 0 },
    });

    const chat = await call<{ id: string }>('model_key/create', {
      model_name: 'Chat',
      version: 'fake-chat',
      base_url: FAKE_URL,
      api_key: 'sk-fake',
      purpose: 'chat',
    });
    const embedId = await addEmbeddingKey(call, FAKE_URL);
    const byDefault = await call<KnowledgeBase>('knowledge/create', { name: 'Default model' });
    expect(byDefault.data.embedding_model_key_id).toBe(embedId);
    expect(byDefault.data.embedding_model_label).toBe('Embed · fake-embed');
    const explicitNone = await call<KnowledgeBase>('knowledge/create', {
      name: 'No model',
      embedding_model_key_id: null,
    });
    expect(explicitNone.data.embedding_model_key_id).toBeNull();

    // A chat key, a key of another space or a made-up id is not an embedding model here.
    const foreignKey = await addEmbeddingKey(caller(t, other.as(other.creator)), FAKE_URL);
    for (const id of [chat.data.id, foreignKey, 'nope']) {
      expect((await call('knowledge/create', { name: 'x', embedding_model_key_id: id })).code).toBe(40111);
    }
    expect((await call('knowledge/create', { name: ' ' })).code).toBe(40100);
    expect((await call('knowledge/create', { name: 'x'.repeat(51) })).code).toBe(40101);
  });

  it('sorts bases into groups; deleting a group leaves its bases ungrouped', async () => {
    expect((await call('knowledge/group/create', { name: '' })).code).toBe(40112);
    const group = (await call<Group>('knowledge/group/create', { name: '售后' })).data;
    const inGroup = (await call<KnowledgeBase>('knowledge/create', { name: '退货政策', group_id: group.id })).data;
    expect(inGroup.group_id).toBe(group.id);
    expect((await call('knowledge/create', { name: 'x', group_id: crypto.randomUUID() })).code).toBe(40400);

    const groups = (await call<{ items: Group[] }>('knowledge/group/list', {})).data.items;
    expect(groups.find((g) => g.id === group.id)?.knowledge_count).toBe(1);
    const renamed = await call<Group>('knowledge/group/rename', { id: group.id, name: '售后服务' });
    expect(renamed.data).toMatchObject({ name: '售后服务', knowledge_count: 1 });

    const list = async (body: object) =>
      (await call<{ items: KnowledgeBase[] }>('knowledge/list', body)).data.items.map((b) => b.name);
    expect(await list({ group_id: group.id })).toEqual(['退货政策']);
    expect(await list({ group_id: 'ungrouped' })).not.toContain('退货政策');
    expect(await list({ keyword: '政策' })).toEqual(['退货政策']);
    expect(await list({ keyword: '%' })).toEqual([]);
    expect(await list({ group_id: 'garbage' })).toEqual([]);

    expect((await call('knowledge/group/delete', { id: group.id })).code).toBe(0);
    expect((await call<KnowledgeBase>('knowledge/get', { id: inGroup.id })).data.group_id).toBeNull();
    expect(await list({ group_id: 'ungrouped' })).toContain('退货政策');
  });

  it('updates a base; its group and model must belong to the space', async () => {
    const base = (await call<KnowledgeBase>('knowledge/create', { name: 'Before' })).data;
    const updated = await call<KnowledgeBase>('knowledge/update', {
      id: base.id,
      name: 'After',
      description: 'Now with a description',
      embedding_model_key_id: base.embedding_model_key_id,
      retrieval: { mode: 'fulltext', top_k: 3, score_threshold: 0.2 },
    });
    expect(updated.data).toMatchObject({
      name: 'After',
      description: 'Now with a description',
      retrieval: { mode: 'fulltext', top_k: 3, score_threshold: 0.2 },
    });
    const bad = await call('knowledge/update', {
      id: base.id,
      name: 'After',
      embedding_model_key_id: 'garbage',
      retrieval: { mode: 'hybrid', top_k: 5, score_threshold: null },
    });
    expect(bad.code).toBe(40111);
  });

  it('enforces the permission table: members change only their own bases, strangers see nothing', async () => {
    const adminBase = (await call<KnowledgeBase>('knowledge/create', { name: 'Admin’s' }, as(team.admin))).data;
    const memberBase = (await call<KnowledgeBase>('knowledge/create', { name: 'Member’s' }, as(team.member))).data;
    const memberGroup = (await call<Group>('knowledge/group/create', { name: 'Mine' }, as(team.member))).data;
    const adminGroup = (await call<Group>('knowledge/group/create', { name: 'Theirs' }, as(team.admin))).data;
    const update = (id: string) => ({
      id,
      name: 'Renamed',
      embedding_model_key_id: null,
      retrieval: { mode: 'fulltext', top_k: 5, score_threshold: null },
    });
    const file = Buffer.from('Hello knowledge.');

    // A member reads everything and changes only what they created.
    const member = (path: string, body: object) => call(path, body, as(team.member)).then((r) => r.code);
    expect(await member('knowledge/get', { id: adminBase.id })).toBe(0);
    expect(await member('knowledge/unit/list', { knowledge_id: adminBase.id })).toBe(0);
    expect(await member('knowledge/search', { knowledge_id: adminBase.id, query: 'x' })).toBe(0);
    expect(await member('knowledge/update', update(adminBase.id))).toBe(40300);
    expect(await member('knowledge/reindex', { id: adminBase.id })).toBe(40300);
    expect(await member('knowledge/delete', { id: adminBase.id })).toBe(40300);
    expect((await upload(t, as(team.member), adminBase.id, 'a.txt', file)).body.code).toBe(40300);
    expect(await member('knowledge/group/rename', { id: adminGroup.id, name: 'x' })).toBe(40300);
    expect(await member('knowledge/group/delete', { id: adminGroup.id })).toBe(40300);
    expect(await member('knowledge/update', update(memberBase.id))).toBe(0);
    expect((await upload(t, as(team.member), memberBase.id, 'a.txt', file)).body.code).toBe(0);
    expect(await member('knowledge/group/rename', { id: memberGroup.id, name: 'Mine 2' })).toBe(0);

    // Admins (and the creator) change anyone's.
    const admin = (path: string, body: object) => call(path, body, as(team.admin)).then((r) => r.code);
    expect(await admin('knowledge/update', update(memberBase.id))).toBe(0);
    expect(await admin('knowledge/group/delete', { id: memberGroup.id })).toBe(0);
    expect((await upload(t, as(team.admin), memberBase.id, 'b.txt', Buffer.from('Admin upload.'))).body.code).toBe(0);

    // Not a member: 16023 for every call in that space, before anything is read.
    const stranger = as(team.stranger);
    for (const [path, body] of [
      ['knowledge/list', {}],
      ['knowledge/get', { id: adminBase.id }],
      ['knowledge/create', { name: 'x' }],
      ['knowledge/group/list', {}],
      ['knowledge/unit/list', { knowledge_id: adminBase.id }],
      ['knowledge/segment/list', { knowledge_id: adminBase.id }],
      ['knowledge/search', { knowledge_id: adminBase.id, query: 'x' }],
      ['knowledge/delete', { id: adminBase.id }],
    ] as const) {
      expect((await call(path, body, stranger)).code, path).toBe(16023);
    }
    expect((await upload(t, stranger, adminBase.id, 'a.txt', file)).body.code).toBe(16023);

    // The owner of another space, in their own space: these ids do not exist.
    const foreign = other.as(other.creator);
    for (const [path, body] of [
      ['knowledge/get', { id: adminBase.id }],
      ['knowledge/update', update(adminBase.id)],
      ['knowledge/delete', { id: adminBase.id }],
      ['knowledge/reindex', { id: adminBase.id }],
      ['knowledge/unit/list', { knowledge_id: adminBase.id }],
      ['knowledge/segment/list', { knowledge_id: adminBase.id }],
      ['knowledge/search', { knowledge_id: adminBase.id, query: 'x' }],
      ['knowledge/group/rename', { id: adminGroup.id, name: 'x' }],
      ['knowledge/group/delete', { id: adminGroup.id }],
      ['knowledge/create', { name: 'x', group_id: adminGroup.id }],
    ] as const) {
      expect((await call(path, body, foreign)).code, path).toBe(40400);
    }
    expect((await upload(t, foreign, adminBase.id, 'a.txt', file)).body.code).toBe(40400);
    const theirList = (await call<{ items: KnowledgeBase[] }>('knowledge/list', {}, foreign)).data.items;
    expect(theirList.map((b) => b.id)).not.toContain(adminBase.id);

    expect(await member('knowledge/delete', { id: memberBase.id })).toBe(0);
    expect(await admin('knowledge/delete', { id: adminBase.id })).toBe(0);
    expect(await admin('knowledge/get', { id: adminBase.id })).toBe(40400);
  });

  it('guards unit and segment actions like the base: members read, strangers and other spaces see nothing', async () => {
    const db = t.database.db;
    const base = (await call<KnowledgeBase>('knowledge/create', { name: 'Guarded' }, as(team.admin))).data;
    const unit = (await upload(t, as(team.admin), base.id, 'guarded.txt', Buffer.from('Guarded words.'))).body.data;
    // Indexed with one segment, as the indexer leaves it, so that only a permission can refuse.
    const [segment] = await db
      .insert(knowledgeSegments)
      .values({ spaceId: team.teamId, knowledgeId: base.id, unitId: unit.id, position: 0, content: 'Guarded words.' })
      .returning();
    await db.update(knowledgeUnits).set({ status: 'indexed', segmentCount: 1 }).where(eq(knowledgeUnits.id, unit.id));

    const changes: [string, object][] = [
      ['knowledge/unit/start', { ids: [unit.id], chunking: AUTO }],
      ['knowledge/unit/cancel', { id: unit.id }],
      ['knowledge/unit/retry', { id: unit.id }],
      ['knowledge/unit/delete', { id: unit.id }],
      ['knowledge/segment/create', { unit_id: unit.id, content: 'Sneaked in.' }],
      ['knowledge/segment/update', { id: segment.id, content: 'Sneaked in.' }],
      ['knowledge/segment/set_enabled', { id: segment.id, enabled: false }],
      ['knowledge/segment/delete', { id: segment.id }],
    ];
    const preview: [string, object] = ['knowledge/unit/preview', { id: unit.id, chunking: AUTO }];
    const code = (path: string, body: object, headers: Record<string, string>) =>
      call(path, body, headers).then((r) => r.code);

    for (const [path, body] of changes) expect(await code(path, body, as(team.member)), path).toBe(40300);
    expect(await code(...preview, as(team.member))).toBe(0);
    for (const [path, body] of [...changes, preview]) {
      expect(await code(path, body, as(team.stranger)), path).toBe(16023);
      expect(await code(path, body, other.as(other.creator)), path).toBe(40400);
    }

    const after = (await call<KnowledgeUnit>('knowledge/unit/get', { id: unit.id })).data;
    expect(after).toMatchObject({ status: 'indexed', segment_count: 1 });
    const [kept] = await db.select().from(knowledgeSegments).where(eq(knowledgeSegments.unitId, unit.id));
    expect(kept).toMatchObject({ id: segment.id, content: 'Guarded words.', enabled: true });
  });

  it('cancels a waiting unit, and starts units all or nothing', async () => {
    const base = (await call<KnowledgeBase>('knowledge/create', { name: 'Lifecycle' })).data;
    const put = async (name: string) => (await upload(t, as(team.creator), base.id, name, Buffer.from(name))).body.data;
    const [first, second] = [await put('first.txt'), await put('second.txt')];
    const unit = (id: string) => call<KnowledgeUnit>('knowledge/unit/get', { id }).then((r) => r.data);

    // No indexer runs in this app: a started unit stays waiting.
    expect((await call('knowledge/unit/start', { ids: [first.id], chunking: AUTO })).code).toBe(0);
    const canceled = await call<KnowledgeUnit>('knowledge/unit/cancel', { id: first.id });
    expect(canceled.data.status).toBe('canceled');
    expect((await call('knowledge/unit/cancel', { id: first.id })).code).toBe(40108);
    expect((await call<KnowledgeUnit>('knowledge/unit/retry', { id: first.id })).data.status).toBe('waiting');

    // One unit already waiting: nothing is started, not even the other one.
    const both = await call('knowledge/unit/start', {
      ids: [second.id, first.id],
      chunking: { mode: 'custom', size: 300, overlap: 0 },
    });
    expect(both.code).toBe(40108);
    expect(await unit(second.id)).toMatchObject({ status: 'not_indexed', chunking: AUTO });
    expect((await call<KnowledgeUnit>('knowledge/unit/cancel', { id: first.id })).data.status).toBe('canceled');
    const started = await call<{ items: KnowledgeUnit[] }>('knowledge/unit/start', {
      ids: [second.id, first.id],
      chunking: AUTO,
    });
    expect(started.data.items.map((u) => u.status)).toEqual(['waiting', 'waiting']);
  });
});
