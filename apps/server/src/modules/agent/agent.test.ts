import {
  type Agent,
  type agentRoutes,
  agentStreams,
  ERRORS,
  type modelKeyRoutes,
  type RouteData,
} from '@athena/contract';
import { type FakeOpenAI, startFakeOpenAI } from '@athena/fake-openai';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/test-app.ts';
import { llmUsage } from '../model-key/model-key.schema.ts';
import { messages } from './agent.schema.ts';
import { dataOf, stream, text } from './agent-test-helpers.ts';

const API = '/api/athena/v1';
type Messages = RouteData<typeof agentRoutes.messages>;
type ModelKey = RouteData<typeof modelKeyRoutes.create>;

describe('agents and chat', () => {
  let fake: FakeOpenAI;
  let t: TestApp;
  let owner: string;
  let member: string;
  let space: string;
  let memberId: string;
  const as = (token: string) => ({ token, 'space-id': space });
  const call = async <T>(path: string, body: unknown, token = owner) => {
    const res = await t.call<T>(`${API}/${path}`, body, as(token));
    return res.body;
  };

  beforeAll(async () => {
    fake = await startFakeOpenAI({ tokenDelayMs: 2 });
    t = await createTestApp({ env: { ALLOW_PRIVATE_MODEL_ENDPOINTS: 'true' } });
    owner = await t.signInBySms('13600000101');
    member = await t.signInBySms('13600000102');
    space = (await t.call<{ id: string }>(`${API}/team/create`, { name: 'Agents' }, { token: owner })).body.data.id;
    const invite = await t.call<{ code: string }>(`${API}/team/invite/create`, {}, as(owner));
    await t.call(`${API}/invite/accept`, { code: invite.body.data.code }, { token: member });
    memberId = (await t.call<{ id: string }>('/accountv2/user/info', {}, { token: member })).body.data.id;
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  it('says plainly when the space has no chat model key yet', async () => {
    const agent = (await call<Agent>('agent/create', { name: 'Early' })).data;
    const res = await stream(t, agentStreams.chat, { agent_id: agent.id, message: 'hi' }, as(owner));
    expect(res.isStream).toBe(false);
    expect(res.json?.code).toBe(40093);
    await call('model_key/create', {
      model_name: 'Fake',
      version: 'fake-chat',
      base_url: fake.url,
      api_key: 'sk-fake',
      purpose: 'chat',
    });
  });

  it('creates, edits, duplicates and deletes agents with the permission table', async () => {
    const mine = (await call<Agent>('agent/create', { name: '客服助手', system_prompt: 'Be brief.' }, member)).data;
    const theirs = (await call<Agent>('agent/create', { name: 'Owner agent' })).data;
    expect((await call('agent/update', { id: mine.id, name: '客服助手 2' }, member)).code).toBe(0);
    expect((await call('agent/update', { id: theirs.id, name: 'x' }, member)).code).toBe(40300);
    expect((await call('agent/delete', { id: theirs.id }, member)).code).toBe(40300);
    expect((await call('agent/update', { id: mine.id, name: 'Admin edit' })).code).toBe(0);
    const copy = (await call<Agent>('agent/duplicate', { id: theirs.id }, member)).data;
    expect(copy.name).toBe('Owner agent (copy)');
    expect(copy.public_id).not.toBe(theirs.public_id);
    expect((await call('agent/delete', { id: copy.id }, member)).code).toBe(0);
    expect((await call('agent/create', { name: '' }, member)).code).toBe(40090);
  });

  it('keeps a removed member’s agents, marked as a former member’s', async () => {
    const stranger = await t.signInBySms('13600000103');
    expect((await t.call(`${API}/agent/list`, {}, { token: stranger, 'space-id': space })).body.code).toBe(16023);
    const invite = await t.call<{ code: string }>(`${API}/team/invite/create`, {}, as(owner));
    await t.call(`${API}/invite/accept`, { code: invite.body.data.code }, { token: stranger });
    const made = (await call<Agent>('agent/create', { name: 'Left behind' }, stranger)).data;
    const strangerId = (await t.call<{ id: string }>('/accountv2/user/info', {}, { token: stranger })).body.data.id;
    await call('team/member/remove', { user_id: strangerId });
    const kept = (await call<Agent>('agent/get', { id: made.id })).data;
    expect(kept.created_by.former_member).toBe(true);
  });

  it('streams an answer token by token and keeps the conversation', async () => {
    const agent = (await call<Agent>('agent/create', { name: 'Echo' })).data;
    const res = await stream(t, agentStreams.chat, { agent_id: agent.id, message: 'hello there world' }, as(member));
    expect(res.isStream).toBe(true);
    expect(res.events.map((e) => e.event)).toEqual(expect.arrayContaining(['start', 'delta', 'usage', 'end']));
    expect(res.events.filter((e) => e.event === 'delta').length).toBeGreaterThan(2);
    expect(text(res.events)).toBe('Echo: hello there world');
    const { conversation_id } = dataOf(res.events, 'start')!;

    const second = await stream(
      t,
      agentStreams.chat,
      { agent_id: agent.id, conversation_id, message: 'again' },
      as(member),
    );
    expect(text(second.events)).toBe('Echo: again');
    const history = await call<Messages>('agent/conversation/messages', { conversation_id }, member);
    expect(history.data.items.map((m) => [m.role, m.content, m.status])).toEqual([
      ['user', 'hello there world', 'complete'],
      ['assistant', 'Echo: hello there world', 'complete'],
      ['user', 'again', 'complete'],
      ['assistant', 'Echo: again', 'complete'],
    ]);
    // Somebody else's conversation is not theirs to read.
    expect((await call('agent/conversation/messages', { conversation_id })).code).toBe(40400);

    const regenerated = await stream(
      t,
      agentStreams.chat,
      { agent_id: agent.id, conversation_id, regenerate: true },
      as(member),
    );
    expect(text(regenerated.events)).toBe('Echo: again');
    const after = await call<Messages>('agent/conversation/messages', { conversation_id }, member);
    expect(after.data.items).toHaveLength(4);

    const usage = await t.database.db.select().from(llmUsage).where(eq(llmUsage.source, 'agent.chat'));
    expect(usage.length).toBeGreaterThanOrEqual(3);
    expect(usage.every((row) => row.outcome === 'ok' && row.outputTokens > 0)).toBe(true);

    await call('agent/conversation/rename', { id: conversation_id, title: 'Renamed' }, member);
    const list = await call<RouteData<typeof agentRoutes.conversations>>(
      'agent/conversation/list',
      { agent_id: agent.id },
      member,
    );
    expect(list.data.items[0].title).toBe('Renamed');
    expect((await call('agent/conversation/delete', { id: conversation_id }, member)).code).toBe(0);
  });

  it('shows the model failure in the chat and keeps what streamed before it', async () => {
    const key = (
      await call<ModelKey>('model_key/create', {
        model_name: 'Broken',
        version: 'fake-malformed',
        base_url: fake.url,
        api_key: 'sk-fake',
        purpose: 'chat',
      })
    ).data;
    const agent = (await call<Agent>('agent/create', { name: 'Fragile', model_key_id: key.id })).data;
    const res = await stream(
      t,
      agentStreams.chat,
      { agent_id: agent.id, message: 'one two three' },
      { ...as(owner), language: 'en' },
    );
    const error = dataOf(res.events, 'error');
    expect(error?.code).toBe(ERRORS.MODEL_CALL_FAILED.code);
    expect(error?.msg).toMatch(/^The model call failed/);
    expect(res.events.at(-1)).toMatchObject({ event: 'end', data: { status: 'error' } });
    const { message_id } = dataOf(res.events, 'start')!;
    const [saved] = await t.database.db.select().from(messages).where(eq(messages.id, message_id));
    expect(saved.status).toBe('error');
    expect(saved.content).toBe(text(res.events));
  });

  it('stops mid-stream when the browser goes away, keeping the partial answer', async () => {
    const slow = await startFakeOpenAI({ tokenDelayMs: 40 });
    try {
      const key = (
        await call<ModelKey>('model_key/create', {
          model_name: 'Slow',
          version: 'fake-chat',
          base_url: slow.url,
          api_key: 'sk-fake',
          purpose: 'chat',
        })
      ).data;
      const agent = (await call<Agent>('agent/create', { name: 'Slow', model_key_id: key.id })).data;
      const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
      // A raw request, so "the browser goes away" is exactly a closed connection.
      const { request } = await import('node:http');
      const messageId = await new Promise<string>((resolve, reject) => {
        const req = request(`${base}${agentStreams.chat.path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...as(owner) },
        });
        req.on('response', (res) => {
          let received = '';
          res.on('data', (chunk: Buffer) => {
            received += chunk.toString();
            if (received.includes('event: delta')) {
              req.destroy();
              resolve(/"message_id":"([^"]+)"/.exec(received)![1]);
            }
          });
        });
        req.on('error', (error) => {
          if (!req.destroyed) reject(error);
        });
        req.end(
          JSON.stringify({ agent_id: agent.id, message: Array.from({ length: 60 }, (_, i) => `w${i}`).join(' ') }),
        );
      });
      await expect
        .poll(async () => (await t.database.db.select().from(messages).where(eq(messages.id, messageId)))[0].status, {
          timeout: 5000,
        })
        .toBe('stopped');
      const [saved] = await t.database.db.select().from(messages).where(eq(messages.id, messageId));
      expect(saved.content.startsWith('Echo')).toBe(true);
      expect(saved.content.length).toBeLessThan(200);
      const cancelled = await t.database.db.select().from(llmUsage).where(eq(llmUsage.outcome, 'cancelled'));
      expect(cancelled.length).toBeGreaterThanOrEqual(1);
    } finally {
      await slow.close();
    }
  });

  it('validates chat bodies', async () => {
    const agent = (await call<Agent>('agent/create', { name: 'Quiet' })).data;
    expect((await stream(t, agentStreams.chat, { agent_id: agent.id }, as(owner))).json?.code).toBe(40092);
    expect((await stream(t, agentStreams.chat, { agent_id: agent.id, message: '  ' }, as(owner))).json?.code).toBe(
      40092,
    );
    expect((await stream(t, agentStreams.chat, { agent_id: 'x', message: 'hi' }, as(owner))).json?.code).toBe(40400);
    expect((await stream(t, agentStreams.chat, { agent_id: 'x', message: 'hi' }, { token: 'nope' })).json?.code).toBe(
      10001,
    );
    void memberId;
  });

  it('ends the stream with an error when the answer cannot be saved (its agent deleted before the first token)', async () => {
    const slow = await startFakeOpenAI({ tokenDelayMs: 400 });
    try {
      const key = (
        await call<ModelKey>('model_key/create', {
          model_name: 'Slower',
          version: 'fake-chat',
          base_url: slow.url,
          api_key: 'sk-fake',
          purpose: 'chat',
        })
      ).data;
      const agent = (await call<Agent>('agent/create', { name: 'Doomed', model_key_id: key.id })).data;
      const pending = stream(t, agentStreams.chat, { agent_id: agent.id, message: 'one two' }, as(owner));
      await new Promise((resolve) => setTimeout(resolve, 150));
      expect((await call('agent/delete', { id: agent.id })).code).toBe(0);
      const res = await pending;
      expect(text(res.events)).toContain('Echo');
      expect(dataOf(res.events, 'error')?.code).toBe(ERRORS.SYSTEM_ERROR.code);
      expect(res.events.at(-1)).toEqual({ event: 'end', data: { status: 'error' } });
    } finally {
      await slow.close();
    }
  });

  it("refuses another team's model key and knowledge bases as not found, on create and on update", async () => {
    const other = await t.signInBySms('13600000104');
    const otherSpace = (await t.call<{ id: string }>(`${API}/team/create`, { name: 'Theirs' }, { token: other })).body
      .data.id;
    const inOther = { token: other, 'space-id': otherSpace };
    const theirKey = (
      await t.call<ModelKey>(
        `${API}/model_key/create`,
        { model_name: 'Theirs', version: 'fake-chat', base_url: fake.url, api_key: 'sk-fake' },
        inOther,
      )
    ).body.data.id;
    const theirBase = (
      await t.call<{ id: string }>(`${API}/knowledge/create`, { name: 'Theirs', embedding_model_key_id: null }, inOther)
    ).body.data.id;
    const noKnowledge = { knowledge_ids: [], workflow_ids: [], mcp_tools: [] };
    const withBase = { ...noKnowledge, knowledge_ids: [theirBase] };

    expect((await call('agent/create', { name: 'Borrower', model_key_id: theirKey })).code).toBe(40400);
    expect((await call('agent/create', { name: 'Borrower', attachments: withBase })).code).toBe(40400);
    const agent = (await call<Agent>('agent/create', { name: 'Borrower' })).data;
    const edit = (fields: object) => call('agent/update', { ...agent, ...fields, id: agent.id });
    expect((await edit({ model_key_id: theirKey })).code).toBe(40400);
    expect((await edit({ attachments: withBase })).code).toBe(40400);
    expect((await edit({ model_key_id: crypto.randomUUID() })).code).toBe(40400);
    const unchanged = (await call<Agent>('agent/get', { id: agent.id })).data;
    expect([unchanged.model_key_id, unchanged.attachments.knowledge_ids]).toEqual([null, []]);
    // Its own team's ids are fine.
    const ownKeys = (await call<{ items: ModelKey[] }>('model_key/list', {})).data.items;
    expect((await edit({ model_key_id: ownKeys[0].id })).code).toBe(0);
  });

  it('keeps a member who left from reading, renaming or deleting their old conversations from another space', async () => {
    const leaver = await t.signInBySms('13600000105');
    const invite = await t.call<{ code: string }>(`${API}/team/invite/create`, {}, as(owner));
    await t.call(`${API}/invite/accept`, { code: invite.body.data.code }, { token: leaver });
    const agent = (await call<Agent>('agent/create', { name: 'Before leaving' })).data;
    const res = await stream(t, agentStreams.chat, { agent_id: agent.id, message: 'private words' }, as(leaver));
    const { conversation_id } = dataOf(res.events, 'start')!;
    expect((await call<Messages>('agent/conversation/messages', { conversation_id }, leaver)).code).toBe(0);

    const info = await t.call<{ id: string; space: { id: string } }>('/accountv2/user/info', {}, { token: leaver });
    await call('team/member/remove', { user_id: info.body.data.id });
    const own = (
      await t.call<{ items: { id: string; personal: boolean }[] }>(`${API}/space/list`, {}, { token: leaver })
    ).body.data.items;
    const elsewhere = { token: leaver, 'space-id': own.find((s) => s.personal)!.id };
    const codeOf = async (path: string, body: object) => (await t.call(`${API}/${path}`, body, elsewhere)).body.code;
    expect(await codeOf('agent/conversation/messages', { conversation_id })).toBe(40400);
    expect(await codeOf('agent/conversation/rename', { id: conversation_id, title: 'mine' })).toBe(40400);
    expect(await codeOf('agent/conversation/delete', { id: conversation_id })).toBe(40400);
    expect((await t.database.db.select().from(messages)).some((m) => m.content === 'private words')).toBe(true);
  });
});
