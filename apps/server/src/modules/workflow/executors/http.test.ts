import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type WorkflowGraphInput, workflowGraphSchema } from '@athena/contract';
import { type EngineEvent, runWorkflow } from '@athena/workflow-engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOutboundFetch } from '../../../platform/llm/outbound-guard.ts';
import { httpExecutor } from './http.ts';

// The HTTP node against real local servers, through the real outbound guard. The guard's test
// hooks stand in for DNS and its address rule: `first.test` and `second.test` are two origins
// (two ports on 127.0.0.1, the one address allowed), `inside.test` resolves to a private address.

const SECRET = 'ab/c+d= é';
type Hit = { host: string; path: string; headers: IncomingMessage['headers']; method: string };
const hits: Hit[] = [];
let first: Server;
let second: Server;
let firstPort = 0;
let secondPort = 0;

function listen(handle: (req: IncomingMessage, res: ServerResponse) => void): Promise<[Server, number]> {
  return new Promise((resolve) => {
    const server = createServer((req, res) => {
      hits.push({ host: req.headers.host ?? '', path: req.url ?? '', headers: req.headers, method: req.method ?? '' });
      handle(req, res);
    });
    server.listen(0, '127.0.0.1', () => resolve([server, (server.address() as AddressInfo).port]));
  });
}

const redirect = (res: ServerResponse, status: number, location: string) => {
  res.writeHead(status, { location });
  res.end();
};
const echo = (req: IncomingMessage, res: ServerResponse) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ url: req.url, headers: req.headers }));
};

beforeAll(async () => {
  [first, firstPort] = await listen((req, res) => {
    const path = req.url ?? '';
    if (path.startsWith('/away')) return redirect(res, 302, `http://second.test:${secondPort}/landed`);
    if (path.startsWith('/stay')) return redirect(res, 307, '/echo');
    if (path.startsWith('/inside')) return redirect(res, 302, `http://inside.test:${firstPort}/echo`);
    if (path.startsWith('/back')) return redirect(res, 303, `http://first.test:${firstPort}/echo`);
    echo(req, res);
  });
  [second, secondPort] = await listen((req, res) => {
    if ((req.url ?? '').startsWith('/bounce')) return redirect(res, 302, `http://first.test:${firstPort}/back`);
    echo(req, res);
  });
});
afterAll(() => {
  first.close();
  second.close();
});

const guarded = createOutboundFetch({
  allowPrivate: false,
  isAllowed: (ip) => ip === '127.0.0.1',
  lookup: (hostname, _options, callback) =>
    callback(null, [{ address: hostname === 'inside.test' ? '10.1.2.3' : '127.0.0.1', family: 4 }]),
});

type HttpData = Extract<WorkflowGraphInput['nodes'][number], { type: 'http' }>['data'];

async function runHttp(data: HttpData) {
  const graph = workflowGraphSchema.parse({
    nodes: [
      { id: 'start', type: 'start', data: { inputs: [] } },
      { id: 'http', type: 'http', data },
      { id: 'end', type: 'end', data: { outputs: [{ name: 'body', selector: ['http', 'body'] }] } },
    ],
    edges: [
      { id: 'e1', source: 'start', target: 'http' },
      { id: 'e2', source: 'http', target: 'end' },
    ],
    environment: [{ name: 'KEY', type: 'secret', value: SECRET }],
  } as WorkflowGraphInput);
  const events: EngineEvent[] = [];
  const summary = await runWorkflow({
    graph,
    inputs: {},
    system: { query: '', files: [], user_id: 'u', run_id: 'r', workflow_id: 'w', conversation_id: null },
    executors: { http: httpExecutor({ fetch: guarded }) },
    onEvent: (event) => events.push(event),
  });
  const finished = events.find((event) => event.type === 'node_finished' && event.node_id === 'http');
  if (finished?.type !== 'node_finished') throw new Error('the HTTP node did not finish');
  return { summary, finished, stored: JSON.stringify(events) };
}

/** A secret as a reader could recover it from a record: raw, decoded from a URL, or from base64. */
function leaks(stored: string): boolean {
  const decoded = decodeURIComponent(stored.replaceAll('+', ' '));
  const base64 = [...stored.matchAll(/[A-Za-z0-9+/]{12,}={0,2}/g)].map((m) => Buffer.from(m[0], 'base64').toString());
  return decoded.includes(SECRET) || base64.some((text) => text.includes(SECRET));
}

describe('the HTTP node', () => {
  it('records its request with secrets masked however the request encoded them', async () => {
    hits.length = 0;
    const { summary, finished, stored } = await runHttp({
      method: 'GET',
      url: `http://first.test:${firstPort}/echo?q={{#env.KEY#}}`,
      params: [{ key: 'k', value: '{{#env.KEY#}}' }],
      auth: { type: 'basic', username: 'me', password: '{{#env.KEY#}}' },
    });
    expect(summary.result).toBe('succeeded');
    // The server got the real values.
    expect(new URL(hits[0].path, 'http://x').searchParams.get('k')).toBe(SECRET);
    expect(hits[0].headers.authorization).toBe(`Basic ${Buffer.from(`me:${SECRET}`).toString('base64')}`);
    expect(finished.inputs.url).toBe(`http://first.test:${firstPort}/echo?q=******&k=******`);
    // The echoed body (URL percent-encoded, Authorization in base64) is masked too.
    expect(leaks(stored)).toBe(false);
    expect(stored).toContain('Basic ******');
  });

  it('keeps credentials on their own origin across redirects, and checks every hop', async () => {
    hits.length = 0;
    const { summary } = await runHttp({
      method: 'POST',
      url: `http://first.test:${firstPort}/away`,
      headers: [
        { key: 'X-Plain', value: 'kept' },
        { key: 'X-Carries', value: 'key={{#env.KEY#}}' },
      ],
      auth: { type: 'header', header: 'X-Token', value: '{{#env.KEY#}}' },
      body: { type: 'json', data: '{"a":1}' },
    });
    expect(summary.result).toBe('succeeded');
    const [sent, landed] = hits;
    expect(sent).toMatchObject({ host: `first.test:${firstPort}`, method: 'POST' });
    expect(sent.headers['x-token']).toBe(SECRET);
    expect(landed).toMatchObject({ host: `second.test:${secondPort}`, path: '/landed', method: 'GET' });
    expect(landed.headers['x-token']).toBeUndefined();
    expect(landed.headers['x-carries']).toBeUndefined();
    expect(landed.headers['x-plain']).toBe('kept');

    // Same origin: the credentials go along, and 307 keeps the method and body.
    hits.length = 0;
    await runHttp({
      method: 'PUT',
      url: `http://first.test:${firstPort}/stay`,
      auth: { type: 'bearer', token: '{{#env.KEY#}}' },
      body: { type: 'raw', data: 'hello' },
    });
    expect(hits.map((hit) => [hit.path, hit.method, hit.headers.authorization])).toEqual([
      ['/stay', 'PUT', `Bearer ${SECRET}`],
      ['/echo', 'PUT', `Bearer ${SECRET}`],
    ]);

    // Once gone to another origin, they do not come back when the chain returns to the first.
    hits.length = 0;
    await runHttp({
      method: 'GET',
      url: `http://second.test:${secondPort}/bounce`,
      auth: { type: 'bearer', token: '{{#env.KEY#}}' },
    });
    expect(hits.map((hit) => [hit.path, hit.headers.authorization ?? null])).toEqual([
      ['/bounce', `Bearer ${SECRET}`],
      ['/back', null],
      ['/echo', null],
    ]);

    // A hop to a private address is refused by the guard.
    const inside = await runHttp({ method: 'GET', url: `http://first.test:${firstPort}/inside` });
    expect(inside.summary.failure?.error).toMatchObject({
      code: 'WORKFLOW_HTTP_ADDRESS_BLOCKED',
      params: { host: '10.1.2.3' },
    });
  });
});
