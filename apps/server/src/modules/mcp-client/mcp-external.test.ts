import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import {
  type Envelope,
  ERRORS,
  type McpExternalServer,
  type RouteBody,
  type RouteData,
  type RouteDescriptor,
  mcpExternalRoutes as r,
} from '@athena/contract';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { decryptSecret } from '../../platform/crypto.ts';
import { buildTeam, type TeamFixture } from '../../testing/fixtures.ts';
import { createTestApp, type TestApp } from '../../testing/test-app.ts';

const code = (key: keyof typeof ERRORS) => ERRORS[key].code;
/** The header value the local server wants; it must never come back in an answer. */
const API_KEY = 'sk-local-mcp-0123456789-very-secret';

/** The local MCP server's tools, built per request (stateless) or per session (SSE). */
function localServer(signals: { aborted: number }) {
  const server = new McpServer({ name: 'local', version: '1.0.0' });
  server.registerTool(
    'echo',
    { title: 'Echo', description: 'Says the text back.', inputSchema: { text: z.string() } },
    async ({ text }) => ({ content: [{ type: 'text', text: `echo: ${text}` }] }),
  );
  server.registerTool(
    'add',
    {
      description: 'Adds two numbers.',
      inputSchema: { a: z.number(), b: z.number() },
      outputSchema: { sum: z.number() },
    },
    async ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }], structuredContent: { sum: a + b } }),
  );
  server.registerTool('fail', { description: 'Always fails.' }, async () => {
    throw new Error('the tool broke on purpose');
  });
  server.registerTool(
    'slow',
    { description: 'Never answers.' },
    (extra) =>
      new Promise<CallToolResult>(() => {
        extra.signal.addEventListener('abort', () => {
          signals.aborted += 1;
        });
      }),
  );
  server.registerTool('huge', { description: 'Answers 5 MB.' }, async () => ({
    content: [{ type: 'text', text: 'x'.repeat(5 * 1024 * 1024) }],
  }));
  return server;
}

describe('external MCP servers', () => {
  let t: TestApp;
  let strict: TestApp;
  let team: TeamFixture;
  let strictTeam: TeamFixture;
  let local: Server;
  let port: number;
  const requests: string[] = [];
  const signals = { aborted: 0 };
  const sseSessions = new Map<string, SSEServerTransport>();

  async function call<R extends RouteDescriptor>(route: R, body: RouteBody<R>, who = team.creator, space?: string) {
    return (await t.call(route.path, body, team.as(who, space))).body as Envelope<RouteData<R>>;
  }
  async function ok<R extends RouteDescriptor>(route: R, body: RouteBody<R>, who = team.creator) {
    const answer = await call(route, body, who);
    expect(answer.code, `${route.path}: ${answer.msg}`).toBe(0);
    return answer.data;
  }
  const url = (path: string) => `http://127.0.0.1:${port}${path}`;
  const headers = [{ name: 'X-Api-Key', value: API_KEY }];
  async function add(name: string, path: string, transport: 'streamable_http' | 'sse' = 'streamable_http') {
    return ok(r.add, { name, url: url(path), transport, headers, enabled: true });
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const path = req.url ?? '';
    requests.push(`${req.method} ${path}`);
    if (path.startsWith('/mcp')) {
      if (req.headers['x-api-key'] !== API_KEY) return res.writeHead(401).end('no key');
      if (req.method !== 'POST') return res.writeHead(405).end();
      const server = localServer(signals);
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      res.on('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      return transport.handleRequest(req, res);
    }
    if (path === '/sse') {
      if (req.headers['x-api-key'] !== API_KEY) return res.writeHead(401).end('no key');
      const transport = new SSEServerTransport('/messages', res);
      sseSessions.set(transport.sessionId, transport);
      res.on('close', () => sseSessions.delete(transport.sessionId));
      return localServer(signals).connect(transport);
    }
    if (path.startsWith('/messages')) {
      const session = sseSessions.get(new URL(path, 'http://x').searchParams.get('sessionId') ?? '');
      if (!session) return res.writeHead(404).end();
      return session.handlePostMessage(req, res);
    }
    if (path === '/garbage') {
      req.resume();
      return res.writeHead(200, { 'content-type': 'application/json' }).end('{"jsonrpc": oops, not json at all');
    }
    if (path === '/garbage-stream') {
      req.resume();
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      return res.end('event: message\ndata: <html>surprise</html>\n\n');
    }
    if (path === '/endless') {
      // An answer that never stops: the size cap must end it.
      req.resume();
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const chunk = `: ${'z'.repeat(64 * 1024)}\n`;
      const pump = () => {
        while (!res.destroyed && res.write(chunk)) {}
        if (!res.destroyed) res.once('drain', pump);
      };
      return pump();
    }
    if (path === '/hang') return; // never answers
    res.writeHead(404).end('not here');
  }

  beforeAll(async () => {
    local = createServer((req, res) => void handle(req, res));
    await new Promise<void>((resolve) => local.listen(0, '127.0.0.1', resolve));
    port = (local.address() as AddressInfo).port;
    t = await createTestApp({ env: { ALLOW_PRIVATE_MODEL_ENDPOINTS: 'true' } });
    team = await buildTeam(t, { phonePrefix: '139520000' });
    strict = await createTestApp();
    strictTeam = await buildTeam(strict, { phonePrefix: '139530000' });
  }, 60_000);

  afterAll(async () => {
    local?.closeAllConnections();
    await new Promise((resolve) => local?.close(resolve));
    await t?.close();
    await strict?.close();
  });

  it('adds a Streamable HTTP server, lists its tools, and tries them', async () => {
    const added = await add('Local', '/mcp');
    expect(added).toMatchObject({
      name: 'Local',
      transport: 'streamable_http',
      enabled: true,
      headers: [{ name: 'X-Api-Key', set: true }],
      tools_count: 0,
      tools_read_at: null,
      last_error: '',
    });
    const refreshed = await ok(r.refresh, { id: added.id });
    expect(refreshed.tools.map((tool) => tool.name).sort()).toEqual(['add', 'echo', 'fail', 'huge', 'slow']);
    const echo = refreshed.tools.find((tool) => tool.name === 'echo');
    expect(echo).toMatchObject({ title: 'Echo', description: 'Says the text back.' });
    expect(echo?.input_schema).toMatchObject({ type: 'object', properties: { text: { type: 'string' } } });
    expect(refreshed.server).toMatchObject({ tools_count: 5, last_error: '' });
    expect(refreshed.server.tools_read_at).not.toBeNull();

    const cached = await ok(r.tools, { id: added.id }, team.member);
    expect(cached.items).toHaveLength(5);

    const echoed = await ok(r.try, { id: added.id, tool_name: 'echo', arguments: { text: 'hello' } });
    expect(echoed).toMatchObject({ is_error: false, content: 'echo: hello', structured: '', truncated: false });
    const sum = await ok(r.try, { id: added.id, tool_name: 'add', arguments: { a: 2, b: 3 } });
    expect(sum.content).toBe('5');
    expect(JSON.parse(sum.structured)).toEqual({ sum: 5 });

    // A tool's own failure is its answer, not our error.
    const failed = await ok(r.try, { id: added.id, tool_name: 'fail', arguments: {} });
    expect(failed.is_error).toBe(true);
    expect(failed.content).toContain('the tool broke on purpose');
    // Arguments that break the tool's schema: the server says so, as a tool error.
    const wrong = await ok(r.try, { id: added.id, tool_name: 'add', arguments: { a: 'two' } });
    expect(wrong.is_error).toBe(true);
    // A name the cached list does not have is refused without connecting.
    const before = requests.length;
    expect((await call(r.try, { id: added.id, tool_name: 'nope', arguments: {} })).code).toBe(
      code('MCP_EXTERNAL_TOOL_UNKNOWN'),
    );
    expect(requests.length).toBe(before);

    const [listed] = (await ok(r.list, {})).items.filter((item) => item.id === added.id);
    expect(listed).toMatchObject({ calls: 4, errors: 2 });
    expect(listed.last_called_at).not.toBeNull();
  });

  it('speaks the old SSE transport too', async () => {
    const added = await add('Local SSE', '/sse', 'sse');
    const refreshed = await ok(r.refresh, { id: added.id });
    expect(refreshed.tools).toHaveLength(5);
    const echoed = await ok(r.try, { id: added.id, tool_name: 'echo', arguments: { text: 'over sse' } });
    expect(echoed.content).toBe('echo: over sse');
  });

  it('keeps header values sealed and never answers them', async () => {
    const added = await add('Sealed', '/mcp');
    const rows = await t.database.db.execute<{ headers_sealed: string; header_names: string[] }>(
      sql`select headers_sealed, header_names from mcp_external_servers where id = ${added.id}`,
    );
    const [row] = (rows as unknown as { rows: { headers_sealed: string; header_names: string[] }[] }).rows;
    expect(row.headers_sealed.startsWith('v1.')).toBe(true);
    expect(row.headers_sealed).not.toContain(API_KEY);
    expect(JSON.parse(decryptSecret(t.masterKey, row.headers_sealed))).toEqual(headers);
    expect(row.header_names).toEqual(['X-Api-Key']);

    // Editing without a value keeps the stored one; a header left out is removed.
    const kept = await ok(r.update, {
      id: added.id,
      name: 'Sealed',
      url: url('/mcp'),
      transport: 'streamable_http',
      headers: [{ name: 'X-Api-Key' }, { name: 'X-Empty', value: '' }],
      enabled: true,
    });
    expect(kept.headers).toEqual([
      { name: 'X-Api-Key', set: true },
      { name: 'X-Empty', set: false },
    ]);
    expect((await ok(r.refresh, { id: added.id })).tools).toHaveLength(5);
    const all = [
      await call(r.list, {}),
      await call(r.list, {}, team.member),
      await call(r.tools, { id: added.id }),
      await call(r.refresh, { id: added.id }),
    ];
    for (const answer of all) expect(JSON.stringify(answer)).not.toContain(API_KEY);

    // Another origin gets no stored value: it must be sent again (here it is not, so it is empty).
    const moved = await ok(r.update, {
      id: added.id,
      name: 'Sealed',
      url: url('/mcp').replace('127.0.0.1', 'localhost'),
      transport: 'streamable_http',
      headers: [{ name: 'X-Api-Key' }],
      enabled: true,
    });
    expect(moved.headers).toEqual([{ name: 'X-Api-Key', set: false }]);
    await ok(r.update, {
      id: added.id,
      name: 'Sealed',
      url: url('/mcp'),
      transport: 'streamable_http',
      headers: [{ name: 'X-Api-Key', value: API_KEY }],
      enabled: true,
    });
    expect((await ok(r.refresh, { id: added.id })).tools).toHaveLength(5);

    const dropped = await ok(r.update, {
      id: added.id,
      name: 'Sealed',
      url: url('/mcp'),
      transport: 'streamable_http',
      headers: [],
      enabled: true,
    });
    expect(dropped.headers).toEqual([]);
    const refused = await call(r.refresh, { id: added.id });
    expect(refused.code).toBe(code('MCP_EXTERNAL_UNAUTHORIZED'));
    const [after] = (await ok(r.list, {})).items.filter((item) => item.id === added.id);
    expect(after.last_error).toContain('401');
    // The list read before the failure stays.
    expect(after.tools_count).toBe(5);
  });

  it('refuses bad names, URLs and headers', async () => {
    const base = { url: url('/mcp'), transport: 'streamable_http' as const, headers: [], enabled: true };
    await add('Taken', '/mcp');
    expect((await call(r.add, { ...base, name: 'Taken' })).code).toBe(code('MCP_EXTERNAL_NAME_TAKEN'));
    for (const bad of ['ftp://example.com/mcp', 'not a url', 'http://user:pw@example.com/mcp']) {
      expect((await call(r.add, { ...base, name: 'Bad', url: bad })).code, bad).toBe(code('MCP_EXTERNAL_URL_INVALID'));
    }
    for (const header of [
      { name: 'Host', value: 'x' },
      { name: 'Bad Name', value: 'x' },
      { name: 'X-Split', value: 'a\r\nInjected: yes' },
    ]) {
      const answer = await call(r.add, { ...base, name: 'Bad', headers: [header] });
      expect(answer.code, header.name).toBe(code('MCP_EXTERNAL_HEADER_INVALID'));
    }
  });

  it('turns an unreachable, hanging, huge or garbled server into clear codes', async () => {
    const wrongPath = await add('Wrong path', '/nowhere');
    const notFound = await call(r.refresh, { id: wrongPath.id });
    expect(notFound.code).toBe(code('MCP_EXTERNAL_UNREACHABLE'));
    expect(notFound.msg).toContain('404');

    const closed = await ok(r.add, { name: 'Closed', url: 'http://127.0.0.1:9/mcp', transport: 'streamable_http' });
    expect((await call(r.refresh, { id: closed.id })).code).toBe(code('MCP_EXTERNAL_UNREACHABLE'));

    for (const path of ['/garbage', '/garbage-stream']) {
      const garbled = await add(`Garbled ${path}`, path);
      const started = Date.now();
      const answer = await call(r.refresh, { id: garbled.id });
      expect(answer.code, path).toBe(code('MCP_EXTERNAL_PROTOCOL'));
      expect(Date.now() - started, path).toBeLessThan(5_000);
    }

    const endless = await add('Endless', '/endless');
    expect((await call(r.refresh, { id: endless.id })).code).toBe(code('MCP_EXTERNAL_TOO_LARGE'));

    const local = await add('Huge answers', '/mcp');
    await ok(r.refresh, { id: local.id });
    expect((await call(r.try, { id: local.id, tool_name: 'huge', arguments: {} })).code).toBe(
      code('MCP_EXTERNAL_TOO_LARGE'),
    );

    // The server keeps answering after all of that.
    expect((await ok(r.try, { id: local.id, tool_name: 'echo', arguments: { text: 'still here' } })).content).toBe(
      'echo: still here',
    );
  });

  it('times out and cancels calls through callExternalTool', async () => {
    const { callExternalTool } = t.app.modules.mcpClient;
    const hang = await add('Hangs', '/hang');
    let started = Date.now();
    await expect(callExternalTool(team.teamId, hang.id, 'anything', {}, { timeoutMs: 400 })).rejects.toMatchObject({
      key: 'MCP_EXTERNAL_TIMEOUT',
    });
    expect(Date.now() - started).toBeLessThan(3_000);

    const local = await add('Slow tools', '/mcp');
    started = Date.now();
    await expect(callExternalTool(team.teamId, local.id, 'slow', {}, { timeoutMs: 400 })).rejects.toMatchObject({
      key: 'MCP_EXTERNAL_TIMEOUT',
    });
    expect(Date.now() - started).toBeLessThan(3_000);

    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    await expect(
      callExternalTool(team.teamId, local.id, 'slow', {}, { signal: controller.signal, source: 'workflow' }),
    ).rejects.toMatchObject({ key: 'MCP_EXTERNAL_CANCELLED' });

    const result = await callExternalTool(team.teamId, local.id, 'echo', { text: 'direct' }, { source: 'agent' });
    expect(result.content).toEqual([{ type: 'text', text: 'echo: direct' }]);
    // Another team's id is simply not found.
    await expect(callExternalTool(team.strangerTeamId, local.id, 'echo', {})).rejects.toMatchObject({
      key: 'NOT_FOUND',
    });

    const log = await t.database.db.execute(
      sql`select source, ok, error_key from mcp_external_calls where server_id = ${local.id} order by created_at`,
    );
    expect((log as unknown as { rows: unknown[] }).rows).toEqual([
      { source: 'api', ok: false, error_key: 'MCP_EXTERNAL_TIMEOUT' },
      { source: 'workflow', ok: false, error_key: 'MCP_EXTERNAL_CANCELLED' },
      { source: 'agent', ok: true, error_key: '' },
    ]);

    const off = await ok(r.update, {
      id: local.id,
      name: 'Slow tools',
      url: url('/mcp'),
      transport: 'streamable_http',
      headers: [{ name: 'X-Api-Key' }],
      enabled: false,
    });
    expect(off.enabled).toBe(false);
    await expect(callExternalTool(team.teamId, local.id, 'echo', { text: 'x' })).rejects.toMatchObject({
      key: 'MCP_EXTERNAL_DISABLED',
    });
  });

  it('refuses private and loopback addresses unless the switch allows them', async () => {
    const as = strictTeam.as(strictTeam.creator);
    const body = { name: 'Loopback', url: url('/mcp'), transport: 'streamable_http', headers } as const;
    const literal = (await strict.call(r.add, body, as)).body;
    expect(literal.code).toBe(code('MCP_EXTERNAL_ADDRESS_BLOCKED'));
    expect(literal.msg).toContain('127.0.0.1');
    for (const address of ['http://10.0.0.8/mcp', 'http://169.254.169.254/latest', 'http://[::1]:80/mcp']) {
      expect((await strict.call(r.add, { ...body, url: address }, as)).body.code, address).toBe(
        code('MCP_EXTERNAL_ADDRESS_BLOCKED'),
      );
    }
  });

  it('refuses on save a host name that means this machine or resolves to a private address, on add and on update', async () => {
    const as = strictTeam.as(strictTeam.creator);
    const body = { name: 'Named', transport: 'streamable_http', headers } as const;
    const seen = requests.length;
    const names = [
      `http://localhost:${port}/mcp`,
      `http://LOCALHOST.:${port}/mcp`,
      `http://tools.localhost:${port}/mcp`,
      `http://${os.hostname()}:${port}/mcp`,
      `http://${os.hostname().toUpperCase()}:${port}/mcp`,
    ];
    for (const url of names) {
      const refused = (await strict.call(r.add, { ...body, url }, as)).body;
      expect(refused.code, url).toBe(code('MCP_EXTERNAL_ADDRESS_BLOCKED'));
      expect(refused.msg, url).toContain(new URL(url).hostname);
    }
    // A public-looking name that does not resolve here is left to the guard, which checks every connection.
    const saved = await strict.call(r.add, { ...body, url: 'https://mcp.invalid/mcp' }, as);
    expect(saved.body.code, saved.body.msg).toBe(0);
    const id = (saved.body as Envelope<McpExternalServer>).data.id;
    const moved = (await strict.call(r.update, { ...body, id, url: `http://localhost:${port}/mcp`, enabled: true }, as))
      .body;
    expect(moved.code).toBe(code('MCP_EXTERNAL_ADDRESS_BLOCKED'));
    expect(requests.length).toBe(seen);
  });

  it('lets members look, admins manage, and keeps strangers out', async () => {
    const server = await ok(
      r.add,
      { name: 'Admin added', url: url('/mcp'), transport: 'streamable_http', headers },
      team.admin,
    );
    await ok(r.refresh, { id: server.id }, team.admin);
    expect((await ok(r.try, { id: server.id, tool_name: 'echo', arguments: { text: 'a' } }, team.admin)).content).toBe(
      'echo: a',
    );

    const member = await ok(r.list, {}, team.member);
    expect(member.can_manage).toBe(false);
    expect(member.items.some((item) => item.id === server.id)).toBe(true);
    expect((await ok(r.tools, { id: server.id }, team.member)).items).toHaveLength(5);
    const FORBIDDEN = code('FORBIDDEN');
    expect((await call(r.add, { name: 'M', url: url('/mcp'), transport: 'sse' }, team.member)).code).toBe(FORBIDDEN);
    expect((await call(r.refresh, { id: server.id }, team.member)).code).toBe(FORBIDDEN);
    expect((await call(r.try, { id: server.id, tool_name: 'echo', arguments: {} }, team.member)).code).toBe(FORBIDDEN);
    expect((await call(r.remove, { id: server.id }, team.member)).code).toBe(FORBIDDEN);
    const update = {
      id: server.id,
      name: 'M',
      url: url('/mcp'),
      transport: 'sse' as const,
      headers: [],
      enabled: true,
    };
    expect((await call(r.update, update, team.member)).code).toBe(FORBIDDEN);

    // The stranger: team A's space is closed to them, and from their own team the id is unknown.
    expect((await call(r.list, {}, team.stranger)).code).toBe(code('SPACE_UNAVAILABLE'));
    const own = team.strangerTeamId;
    expect((await call(r.tools, { id: server.id }, team.stranger, own)).code).toBe(code('NOT_FOUND'));
    expect((await call(r.refresh, { id: server.id }, team.stranger, own)).code).toBe(code('NOT_FOUND'));
    expect((await call(r.remove, { id: server.id }, team.stranger, own)).code).toBe(code('NOT_FOUND'));
    expect((await call(r.list, {}, team.stranger, own)).data?.items).toEqual([]);

    expect(await ok(r.remove, { id: server.id }, team.admin)).toBeNull();
    expect((await call(r.tools, { id: server.id })).code).toBe(code('NOT_FOUND'));
  });

  it('keeps at most 20 servers per team', async () => {
    const other = await buildTeam(t, { people: team, name: 'Many' });
    const as = other.as(other.creator);
    for (let n = 0; n < 20; n++) {
      const answer = await t.call(r.add, { name: `s${n}`, url: 'https://example.com/mcp', transport: 'sse' }, as);
      expect(answer.body.code).toBe(0);
    }
    const over = await t.call(r.add, { name: 's20', url: 'https://example.com/mcp', transport: 'sse' }, as);
    expect(over.body.code).toBe(code('MCP_EXTERNAL_TOO_MANY'));
  });
});
