import { defineStream, type StreamEvent } from '@athena/contract';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { openEventStream, streamRoute } from './sse.ts';

const named = defineStream({
  path: '/named',
  body: z.object({}),
  events: { delta: z.object({ text: z.string() }), end: z.object({ status: z.literal('complete') }) },
  framing: 'event',
  end: 'end',
  auth: false,
  summary: 'test',
  tag: 'test',
});
const dataOnly = defineStream({
  path: '/data',
  body: z.object({}),
  events: { chunk: z.object({ n: z.number() }) },
  framing: 'data',
  done: '[DONE]',
  auth: false,
  summary: 'test',
  tag: 'test',
});

describe('openEventStream', () => {
  const app = Fastify();
  beforeAll(async () => {
    app.post('/named', async (_request, reply) => {
      const stream = openEventStream(reply, named, { heartbeatMs: 20 });
      stream.send('delta', { text: 'a' });
      await new Promise((resolve) => setTimeout(resolve, 70));
      const last: StreamEvent<typeof named> = { event: 'end', data: { status: 'complete' } };
      stream.emit(last);
      // A name outside the descriptor only gets this far through a cast; it is refused all the same.
      expect(() => (stream.send as (event: string, data: unknown) => void)('other', {})).toThrow(/no event "other"/);
      stream.end();
    });
    app.post('/data', async (_request, reply) => {
      const stream = openEventStream(reply, dataOnly, { heartbeatMs: 20 });
      stream.send('chunk', { n: 1 });
      await new Promise((resolve) => setTimeout(resolve, 50));
      stream.send('chunk', { n: 2 });
      stream.done();
      stream.end();
    });
    await app.ready();
  });
  afterAll(() => app.close());

  it('writes named events with heartbeat comments between them', async () => {
    const res = await app.inject({ method: 'POST', url: '/named', payload: {} });
    expect(res.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(res.headers['x-accel-buffering']).toBe('no');
    const blocks = res.body.split('\n\n').filter(Boolean);
    expect(blocks[0]).toBe('event: delta\ndata: {"text":"a"}');
    expect(blocks.filter((block) => block === ': ping').length).toBeGreaterThanOrEqual(2);
    expect(blocks.at(-1)).toBe('event: end\ndata: {"status":"complete"}');
  });

  it('writes OpenAI-style data lines, the done line and heartbeats for a data stream', async () => {
    const res = await app.inject({ method: 'POST', url: '/data', payload: {} });
    const blocks = res.body.split('\n\n').filter(Boolean);
    expect(blocks.filter((block) => block !== ': ping')).toEqual(['data: {"n":1}', 'data: {"n":2}', 'data: [DONE]']);
    expect(blocks).toContain(': ping');
  });
});

describe('streamRoute', () => {
  it('refuses at start-up a stream opened by API key, which must answer in its own format', () => {
    const byKey = defineStream({ ...dataOnly, path: '/by-key', auth: 'api_key' });
    // @ts-expect-error the types allow only streams opened with or without a session
    expect(() => streamRoute(Fastify(), byKey, async () => {})).toThrow('/by-key is opened by API key');
  });
});
