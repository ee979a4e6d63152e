import { type Agent, type agentRoutes, agentStreams, type RouteData, shareRoutes } from '@athena/contract';
import { type FakeOpenAI, startFakeOpenAI } from '@athena/fake-openai';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/test-app.ts';
import { dataOf, stream, text } from './agent-test-helpers.ts';

const API = '/api/athena/v1';

describe('publishing agents', () => {
  let fake: FakeOpenAI;
  let t: TestApp;
  let owner: string;
  let space: string;
  let agent: Agent;
  let base: string;
  const as = (token = owner) => ({ token, 'space-id': space });
  const call = async <T>(path: string, body: unknown, headers = as()) =>
    (await t.call<T>(`${API}/${path}`, body, headers)).body;

  beforeAll(async () => {
    fake = await startFakeOpenAI({ tokenDelayMs: 1 });
    t = await createTestApp({ env: { ALLOW_PRIVATE_MODEL_ENDPOINTS: 'true', PUBLIC_URL: 'https://athena.example' } });
    owner = await t.signInBySms('13600000201');
    space = (await t.call<{ id: string }>(`${API}/team/create`, { name: 'Pub' }, { token: owner })).body.data.id;
    await call('model_key/create', {
      model_name: 'Fake',
      version: 'fake-chat',
      base_url: fake.url,
      api_key: 'sk-fake',
    });
    agent = (
      await call<Agent>('agent/create', {
        name: '售后助手',
        opening_message: '你好！',
        suggested_questions: ['How do I return an item?'],
        system_prompt: 'You are helpful.',
      })
    ).data;
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  describe('share links', () => {
    let code: string;
    it('opens a public page without signing in', async () => {
      const shared = await call<RouteData<typeof agentRoutes.share>>('agent/share', { id: agent.id, enabled: true });
      expect(shared.data.url).toMatch(/^https:\/\/athena\.example\/share\/[\w-]{16}$/);
      code = shared.data.url!.split('/').pop()!;
      const info = await t.call<RouteData<typeof shareRoutes.info>>(shareRoutes.info.path, { code }, {});
      expect(info.body.data).toEqual({
        name: '售后助手',
        avatar_url: null,
        description: '',
        opening_message: '你好！',
        suggested_questions: ['How do I return an item?'],
      });
    });

    it('chats as a visitor, who alone can read the conversation back', async () => {
      const res = await stream(
        t,
        agentStreams.shareChat,
        { code, visitor_id: 'visitor-aaaa', message: 'where is my order' },
        {},
      );
      expect(text(res.events)).toBe('Echo: where is my order');
      const { conversation_id } = dataOf(res.events, 'start')!;
      const mine = await t.call<RouteData<typeof shareRoutes.messages>>(
        `${API}/share/messages`,
        { code, visitor_id: 'visitor-aaaa', conversation_id },
        {},
      );
      expect(mine.body.data.items).toHaveLength(2);
      const theirs = await t.call(`${API}/share/messages`, { code, visitor_id: 'visitor-bbbb', conversation_id }, {});
      expect(theirs.body.code).toBe(40400);
    });

    it('limits how much one visitor can send', async () => {
      const codes: number[] = [];
      for (let i = 0; i < 21; i++) {
        const res = await stream(
          t,
          agentStreams.shareChat,
          { code, visitor_id: 'visitor-flood', message: `q${i}` },
          {},
        );
        codes.push(res.isStream ? 0 : (res.json?.code ?? -1));
      }
      expect(codes.slice(0, 19).every((c) => c === 0)).toBe(true);
      expect(codes.at(-1)).toBe(42900);
    });

    it('revokes the link when sharing is turned off, and a new link differs', async () => {
      await call('agent/share', { id: agent.id, enabled: false });
      expect((await t.call(`${API}/share/info`, { code }, {})).body.code).toBe(40096);
      const again = await call<RouteData<typeof agentRoutes.share>>('agent/share', { id: agent.id, enabled: true });
      expect(again.data.url?.endsWith(code)).toBe(false);
    });
  });

  describe('OpenAI-compatible API', () => {
    let key: string;
    let keyId: string;
    const client = () => new OpenAI({ apiKey: key, baseURL: `${base}/v1`, maxRetries: 0 });

    it('shows a new key once; lists keep only its prefix', async () => {
      const created = await call<RouteData<typeof agentRoutes.apiKeyCreate>>('agent/api_key/create', {
        agent_id: agent.id,
        name: 'CRM',
      });
      key = created.data.key;
      keyId = created.data.id;
      expect(key.startsWith(created.data.prefix)).toBe(true);
      const listed = await call<RouteData<typeof agentRoutes.apiKeyList>>('agent/api_key/list', { agent_id: agent.id });
      expect(JSON.stringify(listed.data)).not.toContain(key);
    });

    it('answers the official openai client, streaming and not', async () => {
      const completion = await client().chat.completions.create({
        model: agent.public_id,
        messages: [{ role: 'user', content: 'ping pong' }],
      });
      expect(completion.model).toBe(agent.public_id);
      expect(completion.choices[0].message.content).toBe('Echo: ping pong');

      const chunks = await client().chat.completions.create({
        model: agent.public_id,
        messages: [{ role: 'user', content: 'stream me please' }],
        stream: true,
      });
      let streamed = '';
      for await (const chunk of chunks) streamed += chunk.choices[0]?.delta?.content ?? '';
      expect(streamed).toBe('Echo: stream me please');
      // The agent's system prompt went first.
      const sent = fake.requests.at(-1)?.body as { messages: { role: string; content: string }[] };
      expect(sent.messages[0]).toEqual({ role: 'system', content: 'You are helpful.' });
    });

    it('streams exactly OpenAI’s wire format: data lines of chunks, then [DONE]', async () => {
      const res = await fetch(`${base}${agentStreams.completions.path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: agent.public_id, messages: [{ role: 'user', content: 'raw' }], stream: true }),
      });
      expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
      const blocks = (await res.text()).split('\n\n').filter((block) => block && block !== ': ping');
      expect(blocks.at(-1)).toBe(`data: ${agentStreams.completions.done}`);
      const chunks = blocks.slice(0, -1).map((block) => {
        expect(block.startsWith('data: ')).toBe(true);
        return agentStreams.completions.events.chunk.parse(JSON.parse(block.slice('data: '.length)));
      });
      expect(chunks.every((chunk) => chunk.model === agent.public_id)).toBe(true);
      expect(chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('')).toBe('Echo: raw');
    });

    it('refuses a wrong model and, once revoked, the key', async () => {
      await expect(
        client().chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'x' }] }),
      ).rejects.toBeInstanceOf(OpenAI.NotFoundError);
      await call('agent/api_key/revoke', { id: keyId });
      await expect(
        client().chat.completions.create({ model: agent.public_id, messages: [{ role: 'user', content: 'x' }] }),
      ).rejects.toBeInstanceOf(OpenAI.AuthenticationError);
    });

    it('lists published agents with their usage on /apps', async () => {
      const apps = await call<RouteData<typeof agentRoutes.apps>>('agent/app/list', {});
      const row = apps.data.items.find((item) => item.agent.id === agent.id)!;
      expect(row.conversations).toBeGreaterThanOrEqual(20);
      expect(row.messages).toBeGreaterThanOrEqual(40);
      expect(row.api_keys).toBe(0);
    });
  });

  // Dissolving ends every way into the team's agents, on every process: both lookups read the
  // space's state in the same query, so no cache can keep an old answer.
  it("stops a dissolved team's share link and API key", async () => {
    const gone = (await t.call<{ id: string }>(`${API}/team/create`, { name: 'Gone' }, { token: owner })).body.data.id;
    const inGone = { token: owner, 'space-id': gone };
    await call(
      'model_key/create',
      { model_name: 'F', version: 'fake-chat', base_url: fake.url, api_key: 'sk-fake' },
      inGone,
    );
    const doomed = (await call<Agent>('agent/create', { name: 'Doomed' }, inGone)).data;
    const shared = await call<RouteData<typeof agentRoutes.share>>(
      'agent/share',
      { id: doomed.id, enabled: true },
      inGone,
    );
    const shareCode = shared.data.url!.split('/').pop()!;
    const { key } = (
      await call<RouteData<typeof agentRoutes.apiKeyCreate>>(
        'agent/api_key/create',
        { agent_id: doomed.id, name: 'k' },
        inGone,
      )
    ).data;
    const api = new OpenAI({ apiKey: key, baseURL: `${base}/v1`, maxRetries: 0 });
    const ask = () =>
      api.chat.completions.create({ model: doomed.public_id, messages: [{ role: 'user', content: 'hi' }] });
    const shareInfo = async () => (await t.call(shareRoutes.info.path, { code: shareCode }, {})).body.code;
    expect((await ask()).choices[0]?.message.content).toBe('Echo: hi');
    expect(await shareInfo()).toBe(0);

    expect((await call('team/dissolve', { confirm_name: 'Gone' }, inGone)).code).toBe(0);
    expect(await shareInfo()).toBe(40096);
    const chat = await stream(
      t,
      agentStreams.shareChat,
      { code: shareCode, visitor_id: 'visitor-0001', message: 'hi' },
      {},
    );
    expect(chat.json?.code).toBe(40096);
    await expect(ask()).rejects.toBeInstanceOf(OpenAI.AuthenticationError);
  });
});
