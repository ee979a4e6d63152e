import { agentStreams } from '@athena/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stream } from '../../modules/agent/agent-test-helpers.ts';
import { spaces } from '../../modules/space/space.schema.ts';
import { createTestApp, type TestApp } from '../../testing/test-app.ts';

const API = '/api/athena/v1';

// Strings PostgreSQL cannot store (a NUL character, half a surrogate pair) are refused by the
// contract with 40014 before any handler runs: no 50000, and nothing written.
describe('text the database cannot store', () => {
  let t: TestApp;
  let token: string;
  let space: string;
  let agentId: string;
  const as = () => ({ token, 'space-id': space });
  const codeOf = async (path: string, body: unknown, headers: Record<string, string> = as()) =>
    (await t.call(path, body, headers)).body.code;

  beforeAll(async () => {
    t = await createTestApp();
    token = await t.signInBySms('13600000301');
    space = (await t.call<{ id: string }>(`${API}/team/create`, { name: 'Text' }, { token })).body.data.id;
    agentId = (await t.call<{ id: string }>(`${API}/agent/create`, { name: 'Plain' }, as())).body.data.id;
  });
  afterAll(() => t.close());

  it.each([
    ['a NUL character', 'a\u0000b'],
    ['a lone high surrogate', 'team \uD83D'],
    ['a lone low surrogate', '\uDC69 team'],
  ])('refuses %s in names, prompts, queries and chat messages', async (_what, bad) => {
    const before = (await t.database.db.select().from(spaces)).length;
    expect(await codeOf(`${API}/team/create`, { name: bad }, { token })).toBe(40014);
    expect((await t.database.db.select().from(spaces)).length).toBe(before);
    expect(await codeOf('/accountv2/user/update', { nickname: bad })).toBe(40014);
    expect(await codeOf(`${API}/agent/create`, { name: 'x', system_prompt: bad })).toBe(40014);
    expect(await codeOf(`${API}/knowledge/list`, { keyword: bad })).toBe(40014);
    const chat = await stream(t, agentStreams.chat, { agent_id: agentId, message: bad }, as());
    expect([chat.isStream, chat.json?.code]).toEqual([false, 40014]);
  });

  it('refuses a model key that is not printable ASCII, which a header could not carry', async () => {
    const key = { model_name: 'M', version: 'v', base_url: 'https://api.example.com/v1' };
    expect(await codeOf(`${API}/model_key/create`, { ...key, api_key: 'sk-👩‍👩‍👧' })).toBe(40076);
    expect(await codeOf(`${API}/model_key/create`, { ...key, api_key: 'sk-a\u0000' })).toBe(40014);
  });
});
