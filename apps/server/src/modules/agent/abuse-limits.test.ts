import { type Agent, type agentRoutes, agentStreams, type ErrorEnvelope, type RouteData } from '@athena/contract';
import { type FakeOpenAI, startFakeOpenAI } from '@athena/fake-openai';
import { sql } from 'drizzle-orm';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../platform/db/sql.ts';
import { createTestApp, type TestApp } from '../../testing/test-app.ts';

// The limits of the public ways into an agent (docs/agents.md, Limits). Two test apps on one
// database stand for two server processes behind a load balancer: a caller who spreads requests
// over both is counted once.

const API = '/api/athena/v1';
const env = {
  ALLOW_PRIVATE_MODEL_ENDPOINTS: 'true',
  AGENT_API_CALLS_PER_MINUTE: '2',
  SHARE_CHAT_PER_VISITOR: '3',
  SHARE_CHAT_PER_ADDRESS: '4',
  SHARE_CHAT_WINDOW_SECONDS: '600',
};

describe('abuse limits on share links and the OpenAI-compatible API, across processes', () => {
  let fake: FakeOpenAI;
  let a: TestApp;
  let b: TestApp;
  let baseB: string;
  let owner: string;
  let space: string;
  let clock = Date.now();
  const now = () => new Date(clock);
  const later = (seconds: number) => {
    clock += seconds * 1000;
  };
  const call = async <T>(path: string, body: unknown) =>
    (await a.call<T>(`${API}/${path}`, body, { token: owner, 'space-id': space })).body.data;

  const newAgent = async (name: string) => {
    const agent = await call<Agent>('agent/create', { name });
    const shared = await call<RouteData<typeof agentRoutes.share>>('agent/share', { id: agent.id, enabled: true });
    return { agent, code: shared.url!.split('/').pop()! };
  };

  beforeAll(async () => {
    fake = await startFakeOpenAI({ tokenDelayMs: 0 });
    a = await createTestApp({ env, now });
    b = await createTestApp({ env, now, sameDatabaseAs: a });
    owner = await a.signInBySms('13600000301');
    space = (await a.call<{ id: string }>(`${API}/team/create`, { name: 'Limits' }, { token: owner })).body.data.id;
    await call('model_key/create', {
      model_name: 'Fake',
      version: 'fake-chat',
      base_url: fake.url,
      api_key: 'sk-fake',
    });
    baseB = await b.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await b.close();
    await a.close();
    await fake.close();
  });

  describe('per API key', () => {
    let agent: Agent;
    let key: string;
    let otherKey: string;
    const complete = (t: TestApp, bearer: string) =>
      t.app.inject({
        method: 'POST',
        url: agentStreams.completions.path,
        headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
        payload: JSON.stringify({ model: agent.public_id, messages: [{ role: 'user', content: 'hi' }] }),
      });

    beforeAll(async () => {
      agent = (await newAgent('API')).agent;
      const keyOf = async (name: string) =>
        (await call<RouteData<typeof agentRoutes.apiKeyCreate>>('agent/api_key/create', { agent_id: agent.id, name }))
          .key;
      key = await keyOf('CRM');
      otherKey = await keyOf('ERP');
    });

    it('answers 429 in OpenAI’s shape with Retry-After once a key has used its calls on either process', async () => {
      expect((await complete(a, key)).statusCode).toBe(200);
      later(20);
      expect((await complete(b, key)).statusCode).toBe(200);
      const refused = await complete(a, key);
      expect(refused.statusCode).toBe(429);
      expect(refused.headers['retry-after']).toBe('40');
      expect(refused.json()).toEqual({
        error: {
          message: 'Too many requests. Please slow down. Try again in 40 s.',
          type: 'requests',
          code: 'rate_limit_exceeded',
          param: null,
        },
      });
      // Each key has calls of its own; a made-up key is still told it is unknown.
      expect((await complete(b, otherKey)).statusCode).toBe(200);
      expect((await complete(b, 'ath-made-up')).statusCode).toBe(401);
    });

    it('is what the official openai client reads as a rate limit, streaming or not', async () => {
      const client = new OpenAI({ apiKey: key, baseURL: `${baseB}/v1`, maxRetries: 0 });
      const ask = (stream: boolean) =>
        client.chat.completions.create({ model: agent.public_id, messages: [{ role: 'user', content: 'x' }], stream });
      await expect(ask(false)).rejects.toBeInstanceOf(OpenAI.RateLimitError);
      await expect(ask(true)).rejects.toMatchObject({ status: 429, code: 'rate_limit_exceeded' });
      later(40);
      const answer = await client.chat.completions.create({
        model: agent.public_id,
        messages: [{ role: 'user', content: 'x' }],
      });
      expect(answer.choices[0].message.content).toBe('Echo: x');
    });
  });

  describe('per share link', () => {
    const chat = (t: TestApp, code: string, visitor: string, remoteAddress: string) =>
      t.app.inject({
        method: 'POST',
        url: agentStreams.shareChat.path,
        remoteAddress,
        headers: { 'content-type': 'application/json', language: 'en' },
        payload: JSON.stringify({ code, visitor_id: visitor, message: 'hello' }),
      });
    const answered = (res: { headers: Record<string, unknown> }) =>
      String(res.headers['content-type']).startsWith('text/event-stream');

    it('limits a visitor, whichever process and address they reach', async () => {
      const { code } = await newAgent('Visitor limit');
      expect(answered(await chat(a, code, 'visitor-one', '198.51.100.1'))).toBe(true);
      expect(answered(await chat(b, code, 'visitor-one', '198.51.100.2'))).toBe(true);
      later(100);
      expect(answered(await chat(a, code, 'visitor-one', '203.0.113.3'))).toBe(true);
      const refused = await chat(b, code, 'visitor-one', '203.0.113.4');
      expect(refused.statusCode).toBe(429);
      expect(refused.headers['retry-after']).toBe('500');
      expect(refused.json<ErrorEnvelope>()).toMatchObject({
        code: 42900,
        msg: 'Too many requests. Please slow down.',
        retry_after: 500,
      });
      // Another visitor of the same link is not held back.
      expect(answered(await chat(b, code, 'visitor-two', '203.0.113.4'))).toBe(true);
    });

    it('limits an address by its /64, whatever visitor ids it makes up, on each link', async () => {
      const { code } = await newAgent('Address limit');
      const sameSubnet = ['2001:db8:5:5::1', '2001:db8:5:5::2', '2001:db8:5:5:aaaa::1', '2001:db8:5:5:ffff::ffff'];
      for (const [i, address] of sameSubnet.entries()) {
        expect(answered(await chat(i % 2 ? a : b, code, `visitor-${i}-made-up`, address))).toBe(true);
      }
      const refused = await chat(a, code, 'visitor-fresh-id', '2001:db8:5:5:1234::5');
      expect(refused.statusCode).toBe(429);
      expect(refused.json<ErrorEnvelope>().code).toBe(42900);
      // The next /64 is someone else, and the same /64 starts afresh on another link.
      expect(answered(await chat(b, code, 'visitor-fresh-id', '2001:db8:5:6::1'))).toBe(true);
      const other = await newAgent('Other link');
      expect(answered(await chat(b, other.code, 'visitor-fresh-id', '2001:db8:5:5:1234::5'))).toBe(true);
      // Once the window has passed, the address is welcome again.
      later(600);
      expect(answered(await chat(a, code, 'visitor-fresh-id', '2001:db8:5:5:1234::5'))).toBe(true);
    });

    it('keeps no count for the visitor ids of an address it refuses', async () => {
      const { agent, code } = await newAgent('Visitor rows');
      const visitorRows = async () =>
        rowsOf<{ n: number }>(
          await a.database.db.execute(
            sql`SELECT count(*)::int AS n FROM rate_limits WHERE key LIKE ${`share-visitor:${agent.id}:%`}`,
          ),
        )[0].n;
      for (let i = 0; i < 4; i++) expect(answered(await chat(a, code, `made-up-${i}`, '198.51.100.77'))).toBe(true);
      expect(await visitorRows()).toBe(4);
      for (let i = 4; i < 14; i++) {
        expect((await chat(i % 2 ? a : b, code, `made-up-${i}`, '198.51.100.77')).statusCode).toBe(429);
      }
      expect(await visitorRows()).toBe(4);
    });
  });
});
