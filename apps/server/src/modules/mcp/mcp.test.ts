import { setTimeout as delay } from 'node:timers/promises';
import {
  agentRoutes,
  type Envelope,
  ERRORS,
  MCP_RPC_ERRORS,
  mcpRoutes,
  type RouteBody,
  type RouteData,
  type RouteDescriptor,
  teamRoutes,
  type WorkflowGraphInput,
  workflowRoutes,
  workflowRunRoutes,
} from '@athena/contract';
import { type FakeOpenAI, startFakeOpenAI } from '@athena/fake-openai';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTeam, type TeamFixture } from '../../testing/fixtures.ts';
import { createTestApp, type TestApp } from '../../testing/test-app.ts';
import { caller, upload, waitForUnit } from '../knowledge/knowledge-test-helpers.ts';

const code = (key: keyof typeof ERRORS) => ERRORS[key].code;
const SECRET = 'The lighthouse keeper on Athena island paints the door heliotrope every spring.';

/** start(q) → llm → answer → end: four nodes, so a call reports progress. */
const answerGraph = (model: { model_key_id?: string; model?: string } = {}) =>
  ({
    nodes: [
      { id: 'start', type: 'start', data: { inputs: [{ name: 'q', type: 'paragraph', required: true }] } },
      { id: 'llm', type: 'llm', data: { model: '', ...model, user_prompt: '{{#start.q#}}' } },
      { id: 'answer', type: 'answer', data: { text: '{{#llm.text#}}' } },
      { id: 'end', type: 'end', data: { outputs: [{ name: 'a', selector: ['llm', 'text'] }] } },
    ],
    edges: [
      { id: 'e1', source: 'start', target: 'llm' },
      { id: 'e2', source: 'llm', target: 'answer' },
      { id: 'e3', source: 'answer', target: 'end' },
    ],
  }) as WorkflowGraphInput;

const textOf = (result: CallToolResult) =>
  result.content.map((part) => (part.type === 'text' ? part.text : '')).join('');

describe('the MCP server', () => {
  let fake: FakeOpenAI;
  let t: TestApp;
  let team: TeamFixture;
  let base: string;
  let modelKeyId: string;
  let knowledgeId: string;
  let agentId: string;
  let workflowId: string;
  let slowWorkflowId: string;
  let token: string;
  let tokenId: string;
  const clients: Client[] = [];

  async function call<R extends RouteDescriptor>(route: R, body: RouteBody<R>, who = team.creator, space?: string) {
    return (await t.call(route.path, body, team.as(who, space))).body as Envelope<RouteData<R>>;
  }
  async function ok<R extends RouteDescriptor>(route: R, body: RouteBody<R>, who = team.creator) {
    const answer = await call(route, body, who);
    expect(answer.code, `${route.path}: ${answer.msg}`).toBe(0);
    return answer.data;
  }
  async function workflow(name: string, graph: WorkflowGraphInput) {
    const created = await ok(workflowRoutes.create, { name });
    await ok(workflowRoutes.draftSave, { id: created.id, graph, base_revision: created.draft_revision });
    await ok(workflowRoutes.publish, { id: created.id, note: '' });
    return created.id;
  }
  async function connect(bearer = token, path = `/mcp/${team.teamId}`) {
    const client = new Client({ name: 'athena-test', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(`${base}${path}`), {
      requestInit: { headers: { authorization: `Bearer ${bearer}` } },
    });
    await client.connect(transport);
    clients.push(client);
    return client;
  }
  /** One raw JSON-RPC POST, as a misbehaving client would send it. */
  async function post(body: string, headers: Record<string, string> = {}, path = `/mcp/${team.teamId}`) {
    const res = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${token}`,
        ...headers,
      },
      body,
    });
    const text = await res.text();
    return { status: res.status, text, json: () => JSON.parse(text) as { error?: { code: number; message: string } } };
  }
  const ping = (bearer: string, path?: string) =>
    post(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }), { authorization: `Bearer ${bearer}` }, path);

  beforeAll(async () => {
    fake = await startFakeOpenAI({ tokenDelayMs: 1 });
    t = await createTestApp({ jobs: true, env: { ALLOW_PRIVATE_MODEL_ENDPOINTS: 'true' } });
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    team = await buildTeam(t, { phonePrefix: '139510000' });
    const key = await t.call(
      '/api/athena/v1/model_key/create',
      { model_name: 'Chat', version: 'fake-chat', base_url: fake.url, api_key: 'sk-fake', purpose: 'chat' },
      team.as(team.creator),
    );
    modelKeyId = (key.body as Envelope<{ id: string }>).data.id;
    const kb = await t.call(
      '/api/athena/v1/knowledge/create',
      { name: 'Island facts', embedding_model_key_id: null },
      team.as(team.creator),
    );
    knowledgeId = (kb.body as Envelope<{ id: string }>).data.id;
    const unit = await upload(t, team.as(team.creator), knowledgeId, 'island.txt', Buffer.from(SECRET));
    await t.call(
      '/api/athena/v1/knowledge/unit/start',
      { ids: [unit.body.data.id], chunking: { mode: 'auto' } },
      team.as(team.creator),
    );
    await waitForUnit(caller(t, team.as(team.creator)), unit.body.data.id, (u) => u.status === 'indexed', 30_000);
    const agent = await ok(agentRoutes.create, {
      name: 'Island guide',
      system_prompt: 'You know the island.',
      model_key_id: modelKeyId,
      attachments: { knowledge_ids: [knowledgeId] },
    });
    agentId = agent.id;
    workflowId = await workflow('Answer', answerGraph());
    slowWorkflowId = await workflow('Stalls', answerGraph({ model_key_id: modelKeyId, model: 'fake-stall' }));
  }, 90_000);

  afterAll(async () => {
    for (const client of clients) await client.close().catch(() => {});
    await t?.close();
    await fake?.close();
  });

  describe('the page’s calls: who may do what', () => {
    it('lets any member look, and only the creator and admins change anything', async () => {
      const seen = await ok(mcpRoutes.settingsGet, {}, team.member);
      expect(seen).toEqual({ enabled: false, endpoint_path: `/mcp/${team.teamId}`, can_manage: false });
      expect((await ok(mcpRoutes.settingsGet, {}, team.admin)).can_manage).toBe(true);
      for (const [route, body] of [
        [mcpRoutes.settingsSet, { enabled: true }],
        [mcpRoutes.tokenCreate, { name: 'member' }],
        [mcpRoutes.toolAdd, { kind: 'knowledge', target_id: knowledgeId }],
      ] as const) {
        expect((await call(route, body as never, team.member)).code, route.path).toBe(code('FORBIDDEN'));
      }
      // The admin turns it on and makes the token every client below uses.
      expect((await ok(mcpRoutes.settingsSet, { enabled: true }, team.admin)).enabled).toBe(true);
      const made = await ok(mcpRoutes.tokenCreate, { name: 'Desktop' }, team.admin);
      token = made.token;
      tokenId = made.id;
      expect(made.token.startsWith(made.prefix)).toBe(true);
      expect(made.active).toBe(true);
      // The member reads the tokens (never the secret) and the tools, but revokes nothing.
      const tokens = await ok(mcpRoutes.tokenList, {}, team.member);
      expect(tokens.items.map((item) => item.name)).toEqual(['Desktop']);
      expect(JSON.stringify(tokens)).not.toContain(made.token);
      expect((await call(mcpRoutes.tokenRevoke, { id: tokenId }, team.member)).code).toBe(code('FORBIDDEN'));
    });

    it('exposes tools with checked names, and shows each input schema', async () => {
      const candidates = await ok(mcpRoutes.toolCandidates, {}, team.admin);
      const wf = candidates.items.find((item) => item.target_id === workflowId);
      expect(wf?.input_schema).toEqual({ type: 'object', properties: { q: { type: 'string' } }, required: ['q'] });
      const knowledge = await ok(mcpRoutes.toolAdd, {
        kind: 'knowledge',
        target_id: knowledgeId,
        name: 'island_facts',
        description: 'Facts about the island',
      });
      expect(knowledge.input_schema.required).toEqual(['query']);
      await ok(mcpRoutes.toolAdd, { kind: 'workflow', target_id: workflowId, name: 'answer' });
      await ok(mcpRoutes.toolAdd, { kind: 'workflow', target_id: slowWorkflowId, name: 'stalls' });
      const agent = await ok(mcpRoutes.toolAdd, { kind: 'agent', target_id: agentId }, team.admin);
      expect(agent.name).toMatch(/^agent_Island_guide$/);
      await ok(mcpRoutes.toolUpdate, { id: agent.id, name: 'guide', description: 'Asks the island guide' });

      expect((await call(mcpRoutes.toolAdd, { kind: 'agent', target_id: agentId, name: 'x' })).code).toBe(
        code('MCP_TOOL_ALREADY_EXPOSED'),
      );
      expect((await call(mcpRoutes.toolUpdate, { id: agent.id, name: 'answer', description: '' })).code).toBe(
        code('MCP_TOOL_NAME_TAKEN'),
      );
      expect((await call(mcpRoutes.toolUpdate, { id: agent.id, name: 'has space', description: '' })).code).toBe(
        code('MCP_TOOL_NAME_INVALID'),
      );
      const draftOnly = await ok(workflowRoutes.create, { name: 'Never published' });
      expect((await call(mcpRoutes.toolAdd, { kind: 'workflow', target_id: draftOnly.id })).code).toBe(
        code('MCP_WORKFLOW_NOT_EFFECTIVE'),
      );
      const list = await ok(mcpRoutes.toolList, {}, team.member);
      expect(list.items.map((item) => item.name)).toEqual(['island_facts', 'answer', 'stalls', 'guide']);
      expect(list.items.every((item) => item.available)).toBe(true);
    });

    it('answers a stranger as if team A did not exist', async () => {
      const [tool] = (await ok(mcpRoutes.toolList, {})).items;
      // Naming team A: not a member.
      const named = await call(mcpRoutes.toolList, {}, team.stranger, team.teamId);
      expect(named.code).toBe(code('SPACE_UNAVAILABLE'));
      // From their own team, with team A's ids: nothing is found, nothing changes.
      const own = (route: RouteDescriptor, body: unknown) =>
        call(route, body as never, team.stranger, team.strangerTeamId);
      expect((await own(mcpRoutes.tokenRevoke, { id: tokenId })).code).toBe(code('NOT_FOUND'));
      expect((await own(mcpRoutes.toolUpdate, { id: tool.id, name: 'mine', description: '' })).code).toBe(
        code('NOT_FOUND'),
      );
      expect((await own(mcpRoutes.toolRemove, { id: tool.id })).code).toBe(code('NOT_FOUND'));
      expect((await own(mcpRoutes.toolAdd, { kind: 'knowledge', target_id: knowledgeId })).code).toBe(
        code('NOT_FOUND'),
      );
      expect((await own(mcpRoutes.callList, { tool_id: tool.id })).code).toBe(code('NOT_FOUND'));
      expect((await ok(mcpRoutes.tokenList, {})).items[0].revoked).toBe(false);
    });

    it('writes who switched the server, made tokens and exposed tools to the team’s audit log', async () => {
      const entries = (await ok(teamRoutes.auditList, { page: 1, page_size: 100 })).items;
      const actions = entries.filter((entry) => entry.action.startsWith('mcp.')).map((entry) => entry.action);
      expect(actions).toEqual(expect.arrayContaining(['mcp.server', 'mcp.token_create', 'mcp.tool_add']));
      const made = entries.find((entry) => entry.action === 'mcp.token_create');
      // The entry names the token, never its secret.
      expect(made?.details.name).toBeTruthy();
      expect(JSON.stringify(entries)).not.toContain('athmcp_');
    });
  });

  describe('the endpoint, with the official SDK client over HTTP', () => {
    it('initializes and lists the exposed tools with their schemas', async () => {
      const client = await connect();
      expect(client.getServerVersion()?.name).toBe('athena');
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(['island_facts', 'answer', 'stalls', 'guide']);
      expect(tools.find((tool) => tool.name === 'guide')?.description).toBe('Asks the island guide');
      expect(tools.find((tool) => tool.name === 'answer')?.inputSchema.required).toEqual(['q']);
    });

    it('speaks the old HTTP+SSE transport too, to the token that opened the session only', async () => {
      const headers = { authorization: `Bearer ${token}` };
      const client = new Client({ name: 'athena-sse-test', version: '1.0.0' });
      await client.connect(
        new SSEClientTransport(new URL(`${base}/mcp/${team.teamId}/sse`), { requestInit: { headers } }),
      );
      clients.push(client);
      expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('island_facts');
      const found = (await client.callTool({ name: 'island_facts', arguments: { query: 'door' } })) as CallToolResult;
      expect(found.isError ?? false).toBe(false);
      // Without a token no stream opens; another session id (or none) finds nothing.
      expect((await fetch(`${base}/mcp/${team.teamId}/sse`)).status).toBe(401);
      const stray = await fetch(`${base}/mcp/${team.teamId}/messages?sessionId=nope`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
      });
      expect(stray.status).toBe(404);
      expect(((await stray.json()) as { error?: { message: string } }).error?.message).toMatch(/No such SSE session/);

      // Revoking a token ends its open sessions at once: the stream closes.
      const old = await ok(mcpRoutes.tokenCreate, { name: 'Old client' });
      const opened = await fetch(`${base}/mcp/${team.teamId}/sse`, {
        headers: { authorization: `Bearer ${old.token}`, accept: 'text/event-stream' },
      });
      const reader = (opened.body as ReadableStream<Uint8Array>).getReader();
      expect(new TextDecoder().decode((await reader.read()).value)).toContain('event: endpoint');
      await ok(mcpRoutes.tokenRevoke, { id: old.id });
      let done = false;
      while (!done) done = (await reader.read()).done;
    });

    it('searches a knowledge base and returns segments with their sources', async () => {
      const client = await connect();
      const result = (await client.callTool({
        name: 'island_facts',
        arguments: { query: 'heliotrope door' },
      })) as CallToolResult;
      expect(result.isError).toBeFalsy();
      expect(textOf(result)).toContain('heliotrope');
      const items = (result.structuredContent as { items: { source: { file_name: string; knowledge_id: string } }[] })
        .items;
      expect(items[0].source).toMatchObject({ file_name: 'island.txt', knowledge_id: knowledgeId });
    });

    it('runs a workflow’s effective version and reports progress', async () => {
      const client = await connect();
      const progress: { progress: number; total?: number; message?: string }[] = [];
      const result = (await client.callTool({ name: 'answer', arguments: { q: 'Say hello' } }, undefined, {
        onprogress: (update) => progress.push(update),
      })) as CallToolResult;
      expect(result.isError, textOf(result)).toBeFalsy();
      const structured = result.structuredContent as { result: string; answer: string; run_id: string };
      expect(structured.result).toBe('succeeded');
      expect(textOf(result)).toBe(structured.answer);
      expect(progress.length).toBeGreaterThanOrEqual(3);
      expect(progress.map((update) => update.progress)).toEqual(progress.map((_, index) => index + 1));
      expect(progress[0]).toMatchObject({ total: 4 });
      const runs = await ok(workflowRunRoutes.list, { workflow_id: workflowId, page: 1, page_size: 5 });
      expect(runs.items.find((run) => run.id === structured.run_id)?.trigger).toBe('api');
    });

    it('asks an agent: an answer with citations', async () => {
      const client = await connect();
      const result = (await client.callTool({
        name: 'guide',
        arguments: { question: 'What colour is the door? heliotrope' },
      })) as CallToolResult;
      expect(result.isError, textOf(result)).toBeFalsy();
      const structured = result.structuredContent as { answer: string; citations: { file_name: string }[] };
      expect(structured.answer.length).toBeGreaterThan(0);
      expect(structured.citations[0]?.file_name).toBe('island.txt');
      expect(textOf(result)).toContain('Sources:');
    });

    it('refuses arguments that break the schema as tool errors, and an unknown tool as a protocol error', async () => {
      const client = await connect();
      const wrongType = (await client.callTool({ name: 'island_facts', arguments: { query: 5 } })) as CallToolResult;
      expect(wrongType.isError).toBe(true);
      expect(textOf(wrongType)).toContain('query');
      const extra = (await client.callTool({
        name: 'guide',
        arguments: { question: 'hi', evil: 1 },
      })) as CallToolResult;
      expect(extra.isError).toBe(true);
      const missing = (await client.callTool({ name: 'answer', arguments: {} })) as CallToolResult;
      expect(missing.isError).toBe(true);
      expect(textOf(missing)).toContain('q');
      await expect(client.callTool({ name: 'nope', arguments: {} })).rejects.toThrow(/Unknown tool/);
      // The server keeps answering.
      expect((await client.listTools()).tools).toHaveLength(4);
    });

    it('cancels a running workflow when the client cancels the call', async () => {
      const client = await connect();
      const controller = new AbortController();
      const pending = client.callTool({ name: 'stalls', arguments: { q: 'wait' } }, undefined, {
        signal: controller.signal,
        timeout: 30_000,
      });
      // The run is under way once its call is.
      const started = Date.now();
      let runId: string | undefined;
      while (!runId && Date.now() - started < 10_000) {
        const runs = await ok(workflowRunRoutes.list, { workflow_id: slowWorkflowId, page: 1, page_size: 5 });
        runId = runs.items[0]?.id;
        if (!runId) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(runId).toBeDefined();
      controller.abort('enough');
      await expect(pending).rejects.toThrow();
      let finished: { status: string; result: string | null } | undefined;
      while (Date.now() - started < 15_000) {
        const runs = await ok(workflowRunRoutes.list, { workflow_id: slowWorkflowId, page: 1, page_size: 5 });
        finished = runs.items.find((run) => run.id === runId);
        if (finished?.status === 'finished') break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(finished?.status).toBe('finished');
      expect(finished?.result).toBe('failed');
    });

    it('reports a workflow locked or made not effective meanwhile as a clear tool error', async () => {
      const client = await connect();
      await ok(workflowRoutes.lock, { id: workflowId, locked: true });
      const locked = (await client.callTool({ name: 'answer', arguments: { q: 'hi' } })) as CallToolResult;
      expect(locked.isError).toBe(true);
      expect(textOf(locked)).toBe('The workflow Answer is locked and cannot be called through MCP for now.');
      expect((await client.listTools()).tools.map((tool) => tool.name)).not.toContain('answer');
      await ok(workflowRoutes.lock, { id: workflowId, locked: false });
      await ok(workflowRoutes.effectiveSet, { id: workflowId, effective: false });
      const off = (await client.callTool({ name: 'answer', arguments: { q: 'hi' } })) as CallToolResult;
      expect(off.isError).toBe(true);
      expect(textOf(off)).toContain('Only an effective workflow');
      const tool = (await ok(mcpRoutes.toolList, {})).items.find((item) => item.name === 'answer');
      expect(tool).toMatchObject({ available: false });
      await ok(workflowRoutes.effectiveSet, { id: workflowId, effective: true });
      const again = (await client.callTool({ name: 'answer', arguments: { q: 'hi' } })) as CallToolResult;
      expect(again.isError, textOf(again)).toBeFalsy();
    });
  });

  describe('refusals at the door', () => {
    it('answers a missing, wrong, revoked, expired or other team’s token with 401 and a JSON-RPC error', async () => {
      const refused = async (answer: Awaited<ReturnType<typeof post>>) => {
        expect(answer.status).toBe(401);
        expect(answer.json().error?.code).toBe(MCP_RPC_ERRORS.unauthorized);
      };
      await refused(await ping('athmcp_made-up'));
      await refused(await post(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }), { authorization: '' }));

      const revoked = await ok(mcpRoutes.tokenCreate, { name: 'Revoked' });
      expect((await ping(revoked.token)).status).toBe(200);
      await ok(mcpRoutes.tokenRevoke, { id: revoked.id });
      await refused(await ping(revoked.token));

      // Expiry is time: a token used (and so cached by the endpoint) stops working when it passes.
      const expiring = await ok(mcpRoutes.tokenCreate, {
        name: 'Expiring',
        expires_at: new Date(Date.now() + 1_500).toISOString(),
      });
      expect((await ping(expiring.token)).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 1_600));
      await refused(await ping(expiring.token));
      expect((await ok(mcpRoutes.tokenList, {})).items.find((item) => item.id === expiring.id)?.active).toBe(false);
      expect((await call(mcpRoutes.tokenCreate, { name: 'Past', expires_at: '2001-01-01T00:00:00Z' })).code).toBe(
        code('MCP_TOKEN_EXPIRY_INVALID'),
      );

      // The stranger's team, with its own server and token: refused at team A's address, and at
      // the bare /mcp it sees only its own (empty) tools; team A's tool names mean nothing there.
      const theirs = (route: RouteDescriptor, body: unknown) =>
        call(route, body as never, team.stranger, team.strangerTeamId);
      await theirs(mcpRoutes.settingsSet, { enabled: true });
      const other = ((await theirs(mcpRoutes.tokenCreate, { name: 'Other' })) as Envelope<{ token: string }>).data
        .token;
      await refused(await ping(other));
      expect((await ping(other, `/mcp/${team.strangerTeamId}`)).status).toBe(200);
      const client = await connect(other, '/mcp');
      expect((await client.listTools()).tools).toEqual([]);
      await expect(client.callTool({ name: 'island_facts', arguments: { query: 'door' } })).rejects.toThrow(
        /Unknown tool/,
      );
    });

    it('says so when the team’s server is turned off', async () => {
      await ok(mcpRoutes.settingsSet, { enabled: false });
      const answer = await ping(token);
      expect(answer.status).toBe(403);
      expect(answer.json().error).toEqual({
        code: MCP_RPC_ERRORS.serverOff,
        message: "This team's MCP server is turned off; a team admin can turn it on.",
      });
      await ok(mcpRoutes.settingsSet, { enabled: true });
      expect((await ping(token)).status).toBe(200);
    });

    it('answers malformed JSON-RPC and huge arguments with JSON-RPC errors, and keeps answering', async () => {
      const broken = await post('{"jsonrpc": "2.0", "id": 1, "method": ');
      expect(broken.status).toBe(400);
      expect(broken.json().error?.code).toBe(-32700);
      const notRpc = await post(JSON.stringify({ hello: 'world' }));
      expect(notRpc.status).toBe(400);
      expect(notRpc.json().error?.code).toBeLessThan(-32000);
      const huge = await post(
        JSON.stringify({
          jsonrpc: '2.0',
          id: 2,
          method: 'tools/call',
          params: { name: 'island_facts', arguments: { query: 'x'.repeat(2 * 1024 * 1024) } },
        }),
      );
      expect(huge.status).toBe(413);
      expect(huge.json().error?.code).toBe(MCP_RPC_ERRORS.tooLarge);
      const get = await fetch(`${base}/mcp/${team.teamId}`, { headers: { authorization: `Bearer ${token}` } });
      expect(get.status).toBe(405);
      await get.body?.cancel();
      expect((await ping(token)).status).toBe(200);
    });

    it('limits the requests of one token per minute', async () => {
      const limited = await ok(mcpRoutes.tokenCreate, { name: 'Busy' });
      let last = 0;
      for (let i = 0; i < 121; i++) last = (await ping(limited.token)).status;
      expect(last).toBe(429);
      // Another token is counted apart.
      expect((await ping(token)).status).toBe(200);
    });
  });

  describe('the call log', () => {
    it('records every tool call with its token, duration and error, and counts usage per tool', async () => {
      const log = await ok(mcpRoutes.callList, { page: 1, page_size: 100 }, team.member);
      expect(log.total).toBeGreaterThanOrEqual(10);
      const failed = log.items.find((item) => item.tool_name === 'answer' && item.error.includes('locked'));
      expect(failed?.token_name).toBe('Desktop');
      expect(log.items.every((item) => item.duration_ms >= 0)).toBe(true);
      // The cancelled call: the run stopped because the client cancelled, not by a timeout.
      const cancelled = log.items.find((item) => item.tool_name === 'stalls');
      expect(cancelled?.error).toMatch(/^The workflow run cancelled/);
      const tools = (await ok(mcpRoutes.toolList, {})).items;
      const facts = tools.find((item) => item.name === 'island_facts');
      // Once over SSE, once over Streamable HTTP, once refused for its arguments.
      expect(facts?.calls).toBe(3);
      expect(facts?.errors).toBe(1);
      const page = await ok(mcpRoutes.callList, { tool_id: facts?.id, page: 1, page_size: 1 });
      expect(page).toMatchObject({ total: 3 });
      expect(page.items).toHaveLength(1);
      // Removing a tool keeps its log.
      const guide = tools.find((item) => item.name === 'guide');
      await ok(mcpRoutes.toolRemove, { id: guide?.id ?? '' });
      const after = await ok(mcpRoutes.callList, { page: 1, page_size: 100 });
      expect(after.items.some((item) => item.tool_name === 'guide' && item.tool_id === null)).toBe(true);
    });
  });

  describe('a dissolved team', () => {
    // The token is cached by the endpoint once used: the dissolve drops it (`space:<team>`), and
    // ends the team's open SSE sessions, on every process.
    it("refuses a dissolved team's MCP token at once, and ends its open SSE session", async () => {
      const gone = await buildTeam(t, { phonePrefix: '139520000', name: 'Dissolved MCP' });
      const inGone = gone.as(gone.creator);
      const goneOk = async <R extends RouteDescriptor>(route: R, body: RouteBody<R>) => {
        const answer = (await t.call(route.path, body, inGone)).body as Envelope<RouteData<R>>;
        expect(answer.code, `${route.path}: ${answer.msg}`).toBe(0);
        return answer.data;
      };
      await goneOk(mcpRoutes.settingsSet, { enabled: true });
      const made = await goneOk(mcpRoutes.tokenCreate, { name: 'Desktop' });
      const path = `/mcp/${gone.teamId}`;
      expect((await ping(made.token, path)).status).toBe(200);
      const opened = await fetch(`${base}${path}/sse`, {
        headers: { authorization: `Bearer ${made.token}`, accept: 'text/event-stream' },
      });
      const reader = (opened.body as ReadableStream<Uint8Array>).getReader();
      expect(new TextDecoder().decode((await reader.read()).value)).toContain('event: endpoint');

      // A balance change drops the team's cached rows as well (`space:<team>`): the session stays.
      const read = reader.read();
      await t.app.modules.billing.ledger.post({
        spaceId: gone.teamId,
        kind: 'adjustment',
        amount: 100,
        idempotencyKey: `mcp-stays:${gone.teamId}`,
      });
      const after = read.then((chunk) => (chunk.done ? 'ended' : 'sent something'));
      expect(await Promise.race([after, delay(300).then(() => 'open')])).toBe('open');

      await goneOk(teamRoutes.dissolve, { confirm_name: 'Dissolved MCP', forfeit_balance: true });
      let done = false;
      while (!done) done = (await reader.read()).done;
      const refused = await ping(made.token, path);
      expect(refused.status).toBe(401);
      expect(refused.json().error?.code).toBe(MCP_RPC_ERRORS.unauthorized);
      expect((await fetch(`${base}${path}/sse`, { headers: { authorization: `Bearer ${made.token}` } })).status).toBe(
        401,
      );
    });
  });
});
