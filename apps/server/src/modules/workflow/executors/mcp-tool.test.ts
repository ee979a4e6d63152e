import {
  type Envelope,
  mcpExternalRoutes,
  type RouteBody,
  type RouteData,
  type RouteDescriptor,
  workflowRunRoutes as r,
  type WorkflowGraphInput,
  workflowRoutes,
} from '@athena/contract';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildTeam, type TeamFixture } from '../../../testing/fixtures.ts';
import { startLocalMcpServer } from '../../../testing/local-mcp-server.ts';
import { createTestApp, type TestApp } from '../../../testing/test-app.ts';

/** A local MCP server (the SDK's own), stateless over Streamable HTTP, with the tools a flow calls. */
function localTools() {
  const server = new McpServer({ name: 'shop', version: '1.0.0' });
  server.registerTool(
    'price',
    {
      description: 'The price of some units',
      inputSchema: { product: z.string(), units: z.number().int(), gift: z.boolean().optional() },
      outputSchema: { total: z.number() },
    },
    async ({ product, units, gift }) => ({
      content: [{ type: 'text', text: `${units} × ${product}${gift ? ' (gift)' : ''}` }],
      structuredContent: { total: units * 12.5 },
    }),
  );
  server.registerTool('refuse', { description: 'Always says no' }, async () => ({
    content: [{ type: 'text', text: 'out of stock' }],
    isError: true,
  }));
  return server;
}

/** start(product, units) → mcp_tool(tool, arguments) → end(text, total); the node's error handling as given. */
function flowOf(serverId: string, tool: string, args: { name: string; value: string }[], errors?: object) {
  return {
    nodes: [
      {
        id: 'start',
        type: 'start',
        data: {
          inputs: [
            { name: 'product', type: 'text' },
            { name: 'units', type: 'text' },
          ],
        },
      },
      {
        id: 'tool',
        type: 'mcp_tool',
        title: 'Shop',
        data: { server_id: serverId, tool, arguments: args, timeout_ms: 10_000 },
        ...(errors ? { errors } : {}),
      },
      {
        id: 'end',
        type: 'end',
        data: {
          outputs: [
            { name: 'text', selector: ['tool', 'text'] },
            { name: 'total', selector: ['tool', 'structured', 'total'] },
          ],
        },
      },
    ],
    edges: [
      { id: 'e1', source: 'start', target: 'tool' },
      { id: 'e2', source: 'tool', target: 'end' },
    ],
  } as WorkflowGraphInput;
}

describe('workflow MCP tool node: calls a tool of the team’s external MCP server', () => {
  let t: TestApp;
  let team: TeamFixture;
  let local: Awaited<ReturnType<typeof startLocalMcpServer>>;
  let serverId: string;

  async function call<R extends RouteDescriptor>(route: R, body: RouteBody<R>, token = team.creator, space?: string) {
    return (await t.call(route.path, body, team.as(token, space))).body as Envelope<RouteData<R>>;
  }
  async function ok<R extends RouteDescriptor>(route: R, body: RouteBody<R>, token = team.creator) {
    const answer = await call(route, body, token);
    expect(answer.code, `${route.path}: ${answer.msg}`).toBe(0);
    return answer.data;
  }
  async function run(graph: WorkflowGraphInput, inputs: Record<string, string>) {
    const created = await ok(workflowRoutes.create, { name: `Shop ${Math.random()}` });
    const saved = await call(workflowRoutes.draftSave, {
      id: created.id,
      graph,
      base_revision: created.draft_revision,
    });
    expect(saved.code, saved.msg).toBe(0);
    return ok(r.runBlocking, { workflow_id: created.id, inputs });
  }

  beforeAll(async () => {
    local = await startLocalMcpServer(localTools);
    const url = local.url;
    // The switch that lets servers sit on loopback, as a self-hosted team's own MCP servers would.
    t = await createTestApp({ env: { ALLOW_PRIVATE_MODEL_ENDPOINTS: 'true' } });
    team = await buildTeam(t, { phonePrefix: '139540000' });
    const added = await ok(mcpExternalRoutes.add, { name: 'Shop', url, transport: 'streamable_http', headers: [] });
    serverId = added.id;
    await ok(mcpExternalRoutes.refresh, { id: serverId });
  }, 60_000);

  afterAll(async () => {
    await t?.close();
    await local?.close();
  });

  it('renders the arguments, reads numbers and booleans as the schema wants, and outputs text and structured content', async () => {
    const summary = await run(
      flowOf(serverId, 'price', [
        { name: 'product', value: '{{#start.product#}}' },
        { name: 'units', value: '{{#start.units#}}' },
        { name: 'gift', value: 'true' },
      ]),
      { product: '耳机', units: '4' },
    );
    expect(summary.result, JSON.stringify(summary.failure)).toBe('succeeded');
    expect(summary.outputs).toEqual({ text: '4 × 耳机 (gift)', total: 50 });
  });

  it('fails the node, naming the argument, when text is not the JSON the schema wants', async () => {
    const summary = await run(
      flowOf(serverId, 'price', [
        { name: 'product', value: 'x' },
        { name: 'units', value: '{{#start.units#}}' },
      ]),
      { product: 'x', units: 'four' },
    );
    expect(summary.result).toBe('failed');
    expect(summary.failure?.node_id).toBe('tool');
    expect(JSON.stringify(summary.failure)).toContain('argument \\"units\\" should be integer');
  });

  it('fails on a tool’s own error answer, in its words; with default outputs the run goes on', async () => {
    const failed = await run(flowOf(serverId, 'refuse', []), { product: 'x', units: '1' });
    expect(failed.result).toBe('failed');
    expect(JSON.stringify(failed.failure)).toContain('out of stock');
    const defaults = await run(
      flowOf(serverId, 'refuse', [], {
        on_error: 'default',
        default_outputs: { text: 'no price today', structured: {} },
      }),
      { product: 'x', units: '1' },
    );
    // Finished, with the node's error noted (`has_error`) and its default outputs used.
    expect(defaults.result, JSON.stringify(defaults.failure)).toBe('has_error');
    expect(defaults.outputs).toMatchObject({ text: 'no price today' });
  });

  it('finds no server of another team, and no tool its cached list lacks', async () => {
    const other = await run(
      flowOf(
        serverId.replace(/.$/, (c) => (c === '0' ? '1' : '0')),
        'price',
        [],
      ),
      {
        product: 'x',
        units: '1',
      },
    );
    expect(other.result).toBe('failed');
    expect(JSON.stringify(other.failure)).toContain('not in this team');
    const unknown = await run(flowOf(serverId, 'no_such_tool', []), { product: 'x', units: '1' });
    expect(unknown.result).toBe('failed');
    expect(JSON.stringify(unknown.failure)).toContain('not in this team');
  });

  it('records the calls as the workflow’s in the server’s usage', async () => {
    const list = await ok(mcpExternalRoutes.list, {});
    const shop = list.items.find((item) => item.id === serverId);
    // The priced call, and the two refused ones (a tool's `isError` answer is its result, not a failed call).
    expect(shop?.calls).toBe(3);
  });
});
