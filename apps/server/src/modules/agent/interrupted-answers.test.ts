import { type Agent, agentStreams, ERRORS } from '@athena/contract';
import { type FakeOpenAI, startFakeOpenAI } from '@athena/fake-openai';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drainStreams } from '../../platform/http/open-streams.ts';
import { createTestApp, type TestApp } from '../../testing/test-app.ts';
import { conversations, messages } from './agent.schema.ts';
import { parseSse } from './agent-test-helpers.ts';

const API = '/api/athena/v1';

/**
 * The process-level story (SIGTERM, kill -9, restart) is in main.test.ts; here the parts in-process:
 * a stream the server interrupts, and which orphaned answers the start-up sweep and the schedule mark.
 */
describe('answers the server stops', () => {
  let fake: FakeOpenAI;
  let t: TestApp;
  let owner: string;
  let space: string;
  let agent: Agent;
  const as = () => ({ token: owner, 'space-id': space });

  beforeAll(async () => {
    fake = await startFakeOpenAI();
    t = await createTestApp({ env: { ALLOW_PRIVATE_MODEL_ENDPOINTS: 'true' } });
    owner = await t.signInBySms('13600000301');
    space = (await t.call<{ id: string }>(`${API}/team/create`, { name: 'Stops' }, { token: owner })).body.data.id;
    // A model that never sends a token: the turn waits until someone ends it.
    await t.call(
      `${API}/model_key/create`,
      { model_name: 'Stall', version: 'fake-stall', base_url: fake.url, api_key: 'sk-fake', purpose: 'chat' },
      as(),
    );
    agent = (await t.call<Agent>(`${API}/agent/create`, { name: 'Stalled' }, as())).body.data;
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  it('tells a listener the server is restarting, ends the stream and keeps the answer as interrupted', async () => {
    const before = fake.requests.length;
    const answer = t.app.inject({
      method: 'POST',
      url: agentStreams.chat.path,
      headers: { 'content-type': 'application/json', ...as() },
      payload: JSON.stringify({ agent_id: agent.id, message: 'hello?' }),
    });
    while (fake.requests.length === before) await new Promise((resolve) => setTimeout(resolve, 10));

    await drainStreams(t.app.server, 50, t.app.log);
    const events = parseSse(agentStreams.chat, (await answer).body);
    expect(events.map((e) => e.event)).toEqual(['start', 'error', 'end']);
    expect(events[1].data).toMatchObject({ code: ERRORS.SERVER_RESTARTING.code, kind: 'shutdown' });
    expect(events[2].data).toEqual({ status: 'error' });

    const started = events[0].data as { message_id: string };
    const [row] = await t.database.db.select().from(messages).where(eq(messages.id, started.message_id));
    expect(row.status).toBe('interrupted');
  });

  it('marks answers whose process stopped writing: at start every one (the embedded database has one process), on schedule only stale ones', async () => {
    const [conversation] = await t.database.db
      .insert(conversations)
      .values({ agentId: agent.id, spaceId: space, channel: 'playground', title: 'orphans' })
      .returning();
    const answer = (content: string, streamedAt: Date) => ({
      conversationId: conversation.id,
      role: 'assistant',
      content,
      status: 'streaming',
      streamedAt,
    });
    const [dead, alive] = await t.database.db
      .insert(messages)
      .values([answer('half an ans', new Date(Date.now() - 60_000)), answer('still going', new Date())])
      .returning();
    const statusOf = async (id: string) => (await t.database.db.select().from(messages).where(eq(messages.id, id)))[0];
    const agentModule = t.app.appModules.find((module) => module.name === 'agent');

    await agentModule?.schedules?.find((job) => job.name === 'agent.interrupted-answers')?.run();
    expect(await statusOf(dead.id)).toMatchObject({ status: 'interrupted', content: 'half an ans' });
    expect((await statusOf(alive.id)).status).toBe('streaming');

    await agentModule?.onStart?.();
    expect((await statusOf(alive.id)).status).toBe('interrupted');
  });
});
