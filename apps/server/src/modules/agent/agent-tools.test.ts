import {
  type Agent,
  type AgentToolStep,
  agentMcpToolRef,
  type agentRoutes,
  agentStreams,
  ERRORS,
  type McpExternalServer,
  type RouteData,
} from '@athena/contract';
import { type FakeOpenAI, startFakeOpenAI } from '@athena/fake-openai';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildTeam, type TeamFixture } from '../../testing/fixtures.ts';
import { startLocalMcpServer } from '../../testing/local-mcp-server.ts';
import { createTestApp, type TestApp } from '../../testing/test-app.ts';
import { stream, text } from './agent-test-helpers.ts';

const API = '/api/athena/v1';
type Messages = RouteData<typeof agentRoutes.messages>;

/** A local MCP server: the weather (the fake model calls the first tool it is offered with {"city":"Shanghai"}). */
function weatherTools() {
  const server = new McpServer({ name: 'weather', version: '1.0.0' });
  server.registerTool(
    'get_weather',
    { description: 'Today’s weather in a city', inputSchema: { city: z.string() } },
    async ({ city }) => ({ content: [{ type: 'text', text: `Sunny, 24°C in ${city}` }] }),
  );
  server.registerTool(
    'raw_feed',
    { description: 'A feed with bytes no database stores', inputSchema: { city: z.string() } },
    async () => ({
      content: [{ type: 'text', text: `line one\u0000line two ${'\uD83D'}` }],
    }),
  );
  server.registerTool(
    'storm_warning',
    { description: 'Warnings for a city', inputSchema: { city: z.string() } },
    async () => ({ content: [{ type: 'text', text: 'warning service down' }], isError: true }),
  );
  return server;
}

describe('agents calling MCP tools of the team’s external servers', () => {
  let fake: FakeOpenAI;
  let t: TestApp;
  let team: TeamFixture;
  let local: Awaited<ReturnType<typeof startLocalMcpServer>>;
  let weather: McpExternalServer;
  const call = async <T>(path: string, body: unknown, token = team.creator, space?: string) =>
    (await t.call<T>(`${API}/${path}`, body, team.as(token, space))).body;

  beforeAll(async () => {
    fake = await startFakeOpenAI({ tokenDelayMs: 1 });
    local = await startLocalMcpServer(weatherTools);
    const url = local.url;
    t = await createTestApp({ env: { ALLOW_PRIVATE_MODEL_ENDPOINTS: 'true' } });
    team = await buildTeam(t, { phonePrefix: '139550000' });
    await call('model_key/create', {
      model_name: 'Fake',
      version: 'fake-chat',
      base_url: fake.url,
      api_key: 'sk-fake',
      purpose: 'chat',
    });
    weather = (
      await call<McpExternalServer>('mcp/external/add', { name: 'Weather', url, transport: 'streamable_http' })
    ).data;
    expect((await call('mcp/external/refresh', { id: weather.id })).code).toBe(0);
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await fake?.close();
    await local?.close();
  });

  async function agentWith(tools: string[], token = team.creator) {
    const made = await call<Agent>('agent/create', { name: `Weather ${Math.random()}` }, token);
    expect(made.code, made.msg).toBe(0);
    const updated = await call<Agent>(
      'agent/update',
      { ...made.data, attachments: { knowledge_ids: [], workflow_ids: [], mcp_tools: tools } },
      token,
    );
    expect(updated.code, updated.msg).toBe(0);
    return updated.data;
  }
  /** A member's question to the agent, streamed. */
  const ask = (agentId: string, message: string) =>
    stream(t, agentStreams.chat, { agent_id: agentId, message }, team.as(team.member));
  /** The answer the turn kept, as the conversation shows it after a reload. */
  async function keptAnswer(agentId: string, events: { event: string; data: unknown }[]) {
    const start = events.find((e) => e.event === 'start')?.data as { conversation_id: string };
    const kept = await call<Messages>(
      'agent/conversation/messages',
      { agent_id: agentId, conversation_id: start.conversation_id },
      team.member,
    );
    return kept.data.items.at(-1);
  }
  const steps = (events: { event: string; data: unknown }[]) =>
    events.filter((e) => e.event === 'tool').map((e) => e.data as AgentToolStep);

  it('lets the model call the tool, shows the call as it runs and ends, and answers with what it said', async () => {
    const agent = await agentWith([agentMcpToolRef(weather.id, 'get_weather')]);
    const res = await ask(agent.id, 'What is the weather today?');
    expect(res.isStream).toBe(true);
    const [running, done] = steps(res.events);
    expect(running).toMatchObject({ tool: 'get_weather', server_name: 'Weather', status: 'running' });
    expect(done).toMatchObject({
      id: running?.id,
      status: 'ok',
      arguments: '{"city":"Shanghai"}',
      output: 'Sunny, 24°C in Shanghai',
    });
    expect(done?.duration_ms).toBeGreaterThanOrEqual(0);
    // The tool's events come before the text, which says what the tool said.
    const firstDelta = res.events.findIndex((e) => e.event === 'delta');
    expect(res.events.findIndex((e) => e.event === 'tool')).toBeLessThan(firstDelta);
    expect(text(res.events)).toBe('Tool said: Sunny, 24°C in Shanghai');
    // Kept with the answer: the conversation shows the step after a reload.
    const answer = await keptAnswer(agent.id, res.events);
    expect(answer?.steps).toEqual([done]);
    // The server's usage counts the agent's call.
    const servers = await call<{ items: McpExternalServer[] }>('mcp/external/list', {});
    expect(servers.data.items.find((s) => s.id === weather.id)?.calls).toBeGreaterThanOrEqual(1);
  });

  it('passes a tool’s error to the model as an error step, and the answer still comes', async () => {
    const agent = await agentWith([agentMcpToolRef(weather.id, 'storm_warning')]);
    const res = await ask(agent.id, 'weather warnings?');
    expect(steps(res.events).at(-1)).toMatchObject({ status: 'error', output: 'warning service down' });
    expect(text(res.events)).toBe('Tool said: warning service down');
  });

  it('keeps an answer whose tool said what PostgreSQL cannot store (NUL, half an emoji)', async () => {
    const agent = await agentWith([agentMcpToolRef(weather.id, 'raw_feed')]);
    const res = await ask(agent.id, 'weather feed?');
    expect(res.events.at(-1)).toMatchObject({ event: 'end', data: { status: 'complete' } });
    const answer = await keptAnswer(agent.id, res.events);
    expect(answer?.status).toBe('complete');
    expect(answer?.steps[0]?.output).toBe('line one\uFFFDline two \uFFFD');
  });

  it('offers no tool its server no longer lists, and answers without tools then', async () => {
    const agent = await agentWith([agentMcpToolRef(weather.id, 'gone_tool')]);
    const res = await ask(agent.id, 'weather?');
    expect(steps(res.events)).toEqual([]);
    expect(text(res.events)).toBe('Echo: weather?');
  });

  it('attaches only tools of this team’s servers', async () => {
    const made = await call<Agent>('agent/create', { name: 'Strict' });
    const attach = (mcp_tools: string[], token = team.creator, space?: string) =>
      call(
        'agent/update',
        { ...made.data, attachments: { knowledge_ids: [], workflow_ids: [], mcp_tools } },
        token,
        space,
      );
    expect((await attach(['not-a-ref'])).code).toBe(ERRORS.BAD_REQUEST.code);
    expect((await attach([agentMcpToolRef('00000000-0000-4000-8000-000000000000', 'get_weather')])).code).toBe(
      ERRORS.NOT_FOUND.code,
    );
    // A stranger's agent cannot name this team's server.
    const theirs = await call<Agent>('agent/create', { name: 'Theirs' }, team.stranger, team.strangerTeamId);
    const foreign = await call(
      'agent/update',
      {
        ...theirs.data,
        attachments: { knowledge_ids: [], workflow_ids: [], mcp_tools: [agentMcpToolRef(weather.id, 'get_weather')] },
      },
      team.stranger,
      team.strangerTeamId,
    );
    expect(foreign.code).toBe(ERRORS.NOT_FOUND.code);
    expect((await attach(Array.from({ length: 21 }, (_, i) => agentMcpToolRef(weather.id, `t${i}`)))).code).toBe(
      ERRORS.BAD_REQUEST.code,
    );
  });
});
