import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { agentStreams, type ChatStreamDescriptor, defineStream, type StreamEvent } from '@athena/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, createApiClient } from './api-client.ts';
import { STORAGE_KEYS } from './storage-keys.ts';
import { isAbortError, type StreamClientDeps, stream, toStreamEvent } from './stream-client.ts';

type Handler = (res: ServerResponse) => void;
type ChatEvent = StreamEvent<ChatStreamDescriptor>;
const handlers = new Map<string, Handler>();
const seen: { path: string; headers: IncomingHttpHeaders; body: string }[] = [];
let server: Server;
let base: string;
/** Resolves when the server sees the client go away (Stop). */
let closed: Promise<void> = Promise.resolve();

const sse = (res: ServerResponse) => res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8' });
const event = (name: string, data: unknown) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => {
      body += chunk.toString();
    });
    req.on('end', () => {
      seen.push({ path: req.url ?? '', headers: req.headers, body });
      closed = new Promise((resolve) => res.on('close', () => resolve()));
      handlers.get(req.url ?? '')?.(res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** The contract's chat stream, pointed at this test's server path. */
const at = (path: string) => defineStream({ ...agentStreams.chat, path: `${base}${path}` });

function deps(): { deps: StreamClientDeps; assigned: string[] } {
  const map = new Map<string, string>([
    [STORAGE_KEYS.token, 'tok-1'],
    [STORAGE_KEYS.spaceId, 'space-1'],
  ]);
  const assigned: string[] = [];
  const client = createApiClient({
    fetch,
    storage: {
      getItem: (key) => map.get(key) ?? null,
      setItem: (key, value) => void map.set(key, value),
      removeItem: (key) => void map.delete(key),
      clear: () => map.clear(),
    },
    assignLocation: (url) => assigned.push(url),
    notify: () => {},
    getLanguage: () => 'en',
    getTimezone: () => 'Asia/Shanghai',
  });
  return { deps: { fetch, headers: client.headers, settle: client.settle }, assigned };
}

describe('stream', () => {
  it('sends the client’s headers and hands over each event as it arrives', async () => {
    handlers.set('/ok', (res) => {
      sse(res);
      res.write(event('start', { conversation_id: 'c1', message_id: 'm1' }));
      res.write(': ping\n\n');
      res.write('event: delta\ndata: {"text":"Ec');
      setTimeout(() => {
        res.write('ho:"}\n\n');
        res.write(event('delta', { text: ' hi' }));
        res.write(event('usage', { input_tokens: 4, output_tokens: 2 }));
        res.end(event('end', { status: 'complete' }));
      }, 20);
    });
    const events: ChatEvent[] = [];
    const result = await stream(
      at('/ok'),
      { agent_id: 'a1', message: 'hi' },
      { signal: new AbortController().signal, onEvent: (e) => events.push(e), deps: deps().deps },
    );
    expect(result).toEqual({ ended: true });
    expect(events).toEqual([
      { event: 'start', data: { conversation_id: 'c1', message_id: 'm1' } },
      { event: 'delta', data: { text: 'Echo:' } },
      { event: 'delta', data: { text: ' hi' } },
      { event: 'usage', data: { input_tokens: 4, output_tokens: 2 } },
      { event: 'end', data: { status: 'complete' } },
    ]);
    const request = seen.at(-1);
    expect(request?.headers).toMatchObject({
      token: 'tok-1',
      'space-id': 'space-1',
      language: 'en',
      accept: 'text/event-stream',
    });
    expect(JSON.parse(request?.body ?? '')).toEqual({ agent_id: 'a1', message: 'hi' });
  });

  it('hands over the sources of an answer before its words', async () => {
    const citation = {
      marker: 1,
      knowledge_id: 'k1',
      unit_id: 'u1',
      segment_id: 's1',
      file_name: '退货政策.pdf',
      snippet: '七天无理由退货',
      score: 0.82,
    };
    handlers.set('/cited', (res) => {
      sse(res);
      res.write(event('start', { conversation_id: 'c3', message_id: 'm3' }));
      res.write(event('citations', { items: [citation] }));
      res.write(event('delta', { text: '可以退货[1]。' }));
      res.end(event('end', { status: 'complete' }));
    });
    const events: ChatEvent[] = [];
    await stream(
      at('/cited'),
      { agent_id: 'a1' },
      { signal: new AbortController().signal, onEvent: (e) => events.push(e), deps: deps().deps },
    );
    expect(events.slice(1, 3)).toEqual([
      { event: 'citations', data: { items: [citation] } },
      { event: 'delta', data: { text: '可以退货[1]。' } },
    ]);
  });

  it('checks each event against the contract: broken data and unknown names are left out', async () => {
    handlers.set('/broken', (res) => {
      sse(res);
      res.write(event('start', { conversation_id: 'c4', message_id: 'm4' }));
      res.write(event('citations', { items: 'nope' }));
      res.write('event: delta\ndata: {not json\n\n');
      res.write(event('delta', { text: 42 }));
      res.write(event('surprise', { text: 'from a newer server' }));
      res.write(event('delta', { text: 'ok' }));
      res.end(event('end', { status: 'complete' }));
    });
    const events: ChatEvent[] = [];
    const result = await stream(
      at('/broken'),
      { agent_id: 'a1' },
      { signal: new AbortController().signal, onEvent: (e) => events.push(e), deps: deps().deps },
    );
    expect(result).toEqual({ ended: true });
    expect(events.map((e) => e.event)).toEqual(['start', 'delta', 'end']);
    expect(toStreamEvent(agentStreams.chat, { event: 'citations', data: '{"items":"nope"}' })).toBeNull();
    expect(toStreamEvent(agentStreams.chat, { event: 'delta', data: '{"text":"x"}' })).toEqual({
      event: 'delta',
      data: { text: 'x' },
    });
  });

  it('rejects with the server’s message when it answers with a JSON error instead', async () => {
    handlers.set('/refused', (res) => {
      res.writeHead(429, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ code: 42900, msg: 'Too many requests. Please slow down.' }));
    });
    const error = await stream(
      at('/refused'),
      { agent_id: 'a1' },
      { signal: new AbortController().signal, onEvent: () => {}, deps: deps().deps },
    ).catch((e) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: 42900, message: 'Too many requests. Please slow down.', kind: 'business' });
  });

  it('applies the client’s session rule (10001) to a JSON error', async () => {
    handlers.set('/expired', (res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ code: 10001, msg: 'expired' }));
    });
    const { deps: d, assigned } = deps();
    const error = await stream(
      at('/expired'),
      { agent_id: 'a1' },
      { signal: new AbortController().signal, onEvent: () => {}, deps: d },
    ).catch((e) => e);
    expect(error).toMatchObject({ code: 10001, handled: true });
    expect(assigned).toEqual(['/']);
  });

  it('passes an error event on and reports a stream cut before `end`', async () => {
    handlers.set('/cut', (res) => {
      sse(res);
      res.write(event('delta', { text: 'part' }));
      res.write(event('error', { code: 40094, kind: 'server_error', msg: 'The model call failed: server_error' }));
      res.end();
    });
    const events: ChatEvent[] = [];
    const result = await stream(
      at('/cut'),
      { agent_id: 'a1' },
      { signal: new AbortController().signal, onEvent: (e) => events.push(e), deps: deps().deps },
    );
    expect(result).toEqual({ ended: false });
    expect(events.at(-1)).toEqual({
      event: 'error',
      data: { code: 40094, kind: 'server_error', msg: 'The model call failed: server_error' },
    });
  });

  it('stops on abort: rejects with an AbortError and the server sees the request close', async () => {
    handlers.set('/long', (res) => {
      sse(res);
      res.write(event('start', { conversation_id: 'c2', message_id: 'm2' }));
      const timer = setInterval(() => res.write(event('delta', { text: ' more' })), 10);
      res.on('close', () => clearInterval(timer));
    });
    const controller = new AbortController();
    const events: ChatEvent[] = [];
    const running = stream(
      at('/long'),
      { agent_id: 'a1' },
      {
        signal: controller.signal,
        onEvent: (e) => {
          events.push(e);
          if (events.length === 4) controller.abort();
        },
        deps: deps().deps,
      },
    );
    const error = await running.catch((e) => e);
    expect(isAbortError(error)).toBe(true);
    await closed;
    expect(events.length).toBeGreaterThanOrEqual(4);
  });
});
