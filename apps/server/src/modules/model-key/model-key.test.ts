import { type modelKeyRoutes, type RouteData, spaceRoutes, teamRoutes } from '@athena/contract';
import { type FakeOpenAI, startFakeOpenAI } from '@athena/fake-openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/test-app.ts';
import { llmUsage, modelKeys } from './model-key.schema.ts';

const API = '/api/athena/v1/model_key';
const SECRET = 'sk-live-4f9c2b7e1a8d6c3b5e0f9a7d2c4b6e8a';
type Key = RouteData<typeof modelKeyRoutes.create>;
type Test = RouteData<typeof modelKeyRoutes.test>;

describe('model keys', () => {
  let fake: FakeOpenAI;
  let t: TestApp;
  let owner: string;
  let member: string;
  let space: string;
  const logLines: string[] = [];
  const as = (token: string, extra: Record<string, string> = {}) => ({ token, 'space-id': space, ...extra });
  const keyBody = (overrides: Record<string, unknown> = {}) => ({
    model_name: '通义千问',
    version: 'fake-chat',
    base_url: fake.url,
    api_key: 'sk-fake',
    purpose: 'chat',
    ...overrides,
  });

  beforeAll(async () => {
    fake = await startFakeOpenAI();
    t = await createTestApp({
      env: { ALLOW_PRIVATE_MODEL_ENDPOINTS: 'true', MODEL_TEST_TIMEOUT_MS: '1500' },
      logLines,
    });
    owner = await t.signInBySms('13000000001');
    member = await t.signInBySms('13000000002');
    space = (await t.call(teamRoutes.create, { name: 'AI' }, { token: owner })).body.data.id;
    const invite = await t.call(teamRoutes.inviteCreate, {}, as(owner));
    await t.call('/api/athena/v1/invite/accept', { code: invite.body.data.code }, { token: member });
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  it('stores a key encrypted, shows it masked forever after, and never logs it', async () => {
    const created = await t.call<Key>(`${API}/create`, keyBody({ api_key: SECRET }), as(owner));
    expect(created.body.data).toMatchObject({ api_key_masked: 'sk-…6e8a', is_default: true });
    const listed = await t.call<{ items: Key[]; private_addresses_allowed: boolean }>(`${API}/list`, {}, as(member));
    expect(JSON.stringify(listed.body)).not.toContain(SECRET);
    // This server runs with ALLOW_PRIVATE_MODEL_ENDPOINTS: the key page words its hints by it.
    expect(listed.body.data.private_addresses_allowed).toBe(true);

    const [row] = await t.database.db.select().from(modelKeys);
    expect(row.apiKeyEncrypted.length).toBeGreaterThan(SECRET.length);
    // Every row of every table, as text: the key is nowhere in the database.
    const { rows: tables } = await t.database.executeSql(
      "select table_schema || '.' || table_name as name from information_schema.tables where table_schema in ('public', 'pgboss') and table_type = 'BASE TABLE'",
    );
    let scanned = 0;
    for (const { name } of tables as { name: string }[]) {
      const { rows } = await t.database.executeSql(`select row_to_json(t)::text as json from ${name} t`);
      for (const { json } of rows as { json: string }[]) {
        scanned += 1;
        expect(json).not.toContain(SECRET);
      }
    }
    expect(scanned).toBeGreaterThan(5);
    expect(logLines.length).toBeGreaterThan(0);
    expect(logLines.join('\n')).not.toContain(SECRET);
  });

  it('keeps the stored key when an edit leaves it out', async () => {
    const created = await t.call<Key>(`${API}/create`, keyBody(), as(owner));
    await t.call(`${API}/update`, { id: created.body.data.id, model_name: 'Renamed' }, as(owner));
    const tested = await t.call<Test>(`${API}/test`, { id: created.body.data.id }, as(owner));
    expect(tested.body.data).toMatchObject({ ok: true, error_kind: null });
    expect(tested.body.data.latency_ms).toBeGreaterThanOrEqual(0);
  });

  it("carries the dialog's test of the exact values saved to the row, and forgets a result the edit made stale", async () => {
    const values = keyBody({ model_name: 'Carried', api_key: 'sk-fake' });
    expect((await t.call<Test>(`${API}/test_draft`, values, as(owner))).body.data.ok).toBe(true);
    const created = await t.call<Key>(`${API}/create`, values, as(owner));
    expect(created.body.data.last_test).toMatchObject({ ok: true, error_kind: null });

    // Saved without a test: no result. Different values from the ones tested: no result either.
    const untested = await t.call<Key>(
      `${API}/create`,
      keyBody({ model_name: 'Untested', version: 'fake-other' }),
      as(owner),
    );
    expect(untested.body.data.last_test).toBeNull();

    // A failed key, edited to a good one that passed in the dialog: the row shows the pass.
    const bad = keyBody({ model_name: 'Was bad', api_key: 'sk-wrong' });
    expect((await t.call<Test>(`${API}/test_draft`, bad, as(owner))).body.data.error_kind).toBe('auth');
    const saved = await t.call<Key>(`${API}/create`, bad, as(owner));
    expect(saved.body.data.last_test).toMatchObject({ ok: false, error_kind: 'auth' });
    await t.call<Test>(`${API}/test_draft`, { ...bad, api_key: 'sk-fake' }, as(owner));
    const fixed = await t.call<Key>(`${API}/update`, { id: saved.body.data.id, api_key: 'sk-fake' }, as(owner));
    expect(fixed.body.data.last_test).toMatchObject({ ok: true });

    // Renaming keeps the result; changing the model without a test clears it.
    const renamed = await t.call<Key>(`${API}/update`, { id: saved.body.data.id, model_name: 'Good now' }, as(owner));
    expect(renamed.body.data.last_test).toMatchObject({ ok: true });
    const moved = await t.call<Key>(`${API}/update`, { id: saved.body.data.id, version: 'fake-new' }, as(owner));
    expect(moved.body.data.last_test).toBeNull();
    for (const id of [created, untested, saved].map((r) => r.body.data.id)) {
      await t.call(`${API}/delete`, { id }, as(owner));
    }
  });

  it.each([
    [{ version: 'no-such-model' }, 'model_not_found'],
    [{ api_key: 'sk-wrong' }, 'auth'],
    [{ version: 'fake-429' }, 'rate_limited'],
    [{ version: 'fake-500' }, 'server_error'],
    [{ version: 'fake-stall' }, 'timeout'],
    [{ base_url: 'http://127.0.0.1:9/v1' }, 'unreachable'],
  ])('classifies a failed test: %j → %s', async (overrides, kind) => {
    const res = await t.call<Test>(`${API}/test_draft`, keyBody(overrides), as(owner));
    expect(res.body.data).toMatchObject({ ok: false, error_kind: kind });
    expect(res.body.data.detail).not.toContain('sk-wrong');
  });

  it('tests embedding keys with one embedding', async () => {
    const res = await t.call<Test>(
      `${API}/test_draft`,
      keyBody({ purpose: 'embedding', version: 'fake-embed' }),
      as(owner),
    );
    expect(res.body.data.ok).toBe(true);
  });

  it('records one usage row per test call', async () => {
    const rows = await t.database.db.select().from(llmUsage);
    expect(rows.length).toBeGreaterThanOrEqual(8);
    expect(rows.every((row) => row.source === 'model_key.test' && row.spaceId === space)).toBe(true);
    expect(rows.some((row) => row.outcome === 'error' && row.errorKind === 'auth')).toBe(true);
  });

  it('keeps one default per purpose', async () => {
    const second = await t.call<Key>(`${API}/create`, keyBody({ version: 'fake-chat' }), as(owner));
    expect(second.body.data.is_default).toBe(false);
    await t.call(`${API}/set_default`, { id: second.body.data.id }, as(owner));
    const list = await t.call<{ items: Key[] }>(`${API}/list`, { purpose: 'chat' }, as(owner));
    expect(list.body.data.items.filter((k) => k.is_default).map((k) => k.id)).toEqual([second.body.data.id]);
  });

  it('lets members use but not manage keys', async () => {
    expect((await t.call(`${API}/create`, keyBody(), as(member))).body.code).toBe(40300);
    const [first] = (await t.call<{ items: Key[] }>(`${API}/list`, {}, as(member))).body.data.items;
    expect((await t.call(`${API}/delete`, { id: first.id }, as(member))).body.code).toBe(40300);
    expect((await t.call(`${API}/test`, { id: first.id }, as(member))).body.code).toBe(40300);
  });

  it('hides keys from other spaces', async () => {
    const [first] = (await t.call<{ items: Key[] }>(`${API}/list`, {}, as(owner))).body.data.items;
    const stranger = await t.signInBySms('13000000003');
    const strangerSpace = (await t.call(spaceRoutes.list, {}, { token: stranger })).body.data.items[0].id;
    const theirs = { token: stranger, 'space-id': strangerSpace };
    expect((await t.call(`${API}/delete`, { id: first.id }, theirs)).body.code).toBe(40400);
    expect((await t.call<{ items: Key[] }>(`${API}/list`, {}, theirs)).body.data.items).toEqual([]);
    expect((await t.call(`${API}/list`, {}, { token: stranger, 'space-id': space })).body.code).toBe(16023);
  });

  it.each([
    [{ model_name: '' }, 40070, 'Model name cannot be empty.'],
    [{ version: ' ' }, 40071, 'Model version cannot be empty.'],
    [{ base_url: '' }, 40072, 'Request address cannot be empty.'],
    [{ base_url: 'ftp://example.com' }, 40073, 'The request address must be a valid http:// or https:// URL.'],
    [{ api_key: '' }, 40074, 'Key cannot be empty.'],
  ])('validates %j', async (overrides, code, msg) => {
    const res = await t.call(`${API}/create`, keyBody(overrides), as(owner, { language: 'en' }));
    expect(res.body).toMatchObject({ code, msg });
  });
});

describe('outbound guard', () => {
  let t: TestApp;
  let owner: string;
  beforeAll(async () => {
    t = await createTestApp();
    owner = await t.signInBySms('13000000009');
  });
  afterAll(() => t.close());

  it.each([
    'http://127.0.0.1:8080/v1',
    'http://169.254.169.254/latest',
    'http://10.0.0.1/v1',
    'http://[::1]:8080/v1',
    'http://localhost:8080/v1',
  ])('blocks %s unless an operator allows private endpoints', async (baseUrl) => {
    const space = (await t.call(spaceRoutes.list, {}, { token: owner })).body.data.items[0].id;
    const res = await t.call<Test>(
      `${API}/test_draft`,
      { model_name: 'local', version: 'llama3', base_url: baseUrl, api_key: 'x', purpose: 'chat' },
      { token: owner, 'space-id': space },
    );
    expect(res.body.data).toMatchObject({ ok: false, error_kind: 'blocked_address' });
  });

  it('tells the key page that private addresses are blocked here', async () => {
    const space = (await t.call(spaceRoutes.list, {}, { token: owner })).body.data.items[0].id;
    const listed = await t.call<{ private_addresses_allowed: boolean }>(
      `${API}/list`,
      {},
      { token: owner, 'space-id': space },
    );
    expect(listed.body.data.private_addresses_allowed).toBe(false);
  });
});
