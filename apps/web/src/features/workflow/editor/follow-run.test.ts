import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { defineStream, workflowRunStreams } from '@athena/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, createApiClient } from '../../../lib/api-client.ts';
import type { StreamClientDeps } from '../../../lib/stream-client.ts';
import { followTestRun } from './follow-run.ts';
import { applyRunEvent, emptyRun, type LiveRun } from './live-run.ts';

// A loopback server stands in for the network: it drops connections where a real one might.

type Handler = (res: ServerResponse, body: string) => void;
let handlers: Handler[] = [];
const bodies: { path: string; body: unknown }[] = [];
let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => {
      body += chunk.toString();
    });
    req.on('end', () => {
      bodies.push({ path: req.url ?? '', body: JSON.parse(body) });
      const handler = handlers.shift();
      if (handler) handler(res, body);
      else res.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const deps = (): StreamClientDeps => {
  const client = createApiClient({
    fetch,
    storage: { getItem: () => null, setItem: () => {}, removeItem: () => {}, clear: () => {} },
    assignLocation: () => {},
    notify: () => {},
    getLanguage: () => 'en',
    getTimezone: () => 'Asia/Shanghai',
  });
  return { fetch, headers: client.headers, settle: client.settle };
};

const streams = () => ({
  run: defineStream({ ...workflowRunStreams.run, path: `${base}/run` }),
  events: defineStream({ ...workflowRunStreams.events, path: `${base}/events` }),
});

let seq = 0;
const sse = (res: ServerResponse) => res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8' });
const send = (res: ServerResponse, name: string, data: unknown) => {
  seq += 1;
  res.write(`id: ${seq}\nevent: ${name}\ndata: ${JSON.stringify(data)}\n\n`);
};
const scope = { path: [] };
const started = (id: string) => ({ execution_id: id, node_id: id, node_type: 'llm', title: id, scope });
const finished = (id: string) => ({
  execution_id: id,
  node_id: id,
  status: 'succeeded',
  inputs: {},
  outputs: { text: 'ok' },
  error: null,
  elapsed_ms: 5,
  tokens: 3,
  attempts: 1,
});
const summary = {
  run_id: 'r1',
  result: 'succeeded',
  outputs: { text: 'ok' },
  answer: '',
  failure: null,
  steps: 2,
  tokens: 3,
  elapsed_ms: 20,
};

function follower() {
  let run: LiveRun = emptyRun();
  let reconnects = 0;
  return {
    options: {
      body: { workflow_id: 'w1', inputs: { q: 'hi' }, query: '' },
      signal: new AbortController().signal,
      onEvent: (event: Parameters<typeof applyRunEvent>[1]) => {
        run = applyRunEvent(run, event);
      },
      current: () => run,
      onReconnecting: () => {
        reconnects += 1;
      },
      deps: deps(),
      streams: streams(),
      delay: () => 10,
    },
    run: () => run,
    reconnects: () => reconnects,
  };
}

describe('following a test run', () => {
  it('reconnects after a dropped stream from the last event seen, until run_finished', async () => {
    seq = 0;
    bodies.length = 0;
    handlers = [
      (res) => {
        sse(res);
        send(res, 'run_started', { run_id: 'r1', workflow_id: 'w1', version_id: null, trigger: 'editor' });
        send(res, 'node_started', started('a'));
        setTimeout(() => res.destroy(), 20);
      },
      (res) => {
        sse(res);
        send(res, 'text_chunk', { node_id: 'a', text: 'o' });
        send(res, 'node_finished', finished('a'));
        // Closed politely but early: still not the end of the run.
        res.end();
      },
      (res) => {
        sse(res);
        send(res, 'run_finished', summary);
        res.end();
      },
    ];
    const follow = follower();
    expect(await followTestRun(follow.options)).toEqual({ outcome: 'ended' });
    expect(bodies).toEqual([
      { path: '/run', body: { workflow_id: 'w1', inputs: { q: 'hi' }, query: '' } },
      { path: '/events', body: { run_id: 'r1', after_seq: 2 } },
      { path: '/events', body: { run_id: 'r1', after_seq: 4 } },
    ]);
    expect(follow.reconnects()).toBe(2);
    expect(follow.run().seq).toBe(5);
    expect(follow.run().nodes).toMatchObject([{ node_id: 'a', status: 'succeeded', tokens: 3 }]);
    expect(follow.run().summary?.result).toBe('succeeded');
  });

  it('says the run was refused, with the server’s message, when it answers JSON instead of a stream', async () => {
    bodies.length = 0;
    handlers = [
      (res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ code: 40231, msg: 'Fill in “Question”.', data: null }));
      },
    ];
    const result = await followTestRun(follower().options);
    expect(result.outcome).toBe('refused');
    expect(result.outcome === 'refused' && result.error).toBeInstanceOf(ApiError);
    expect(result.outcome === 'refused' && result.error.message).toBe('Fill in “Question”.');
    expect(bodies).toHaveLength(1);
  });

  it('gives up when the stream drops before the run has a number, and after five failed reconnects', async () => {
    bodies.length = 0;
    handlers = [(res) => res.destroy()];
    expect((await followTestRun(follower().options)).outcome).toBe('lost');
    expect(bodies).toHaveLength(1);

    bodies.length = 0;
    seq = 0;
    handlers = [
      (res) => {
        sse(res);
        send(res, 'run_started', { run_id: 'r2', workflow_id: 'w1', version_id: null, trigger: 'editor' });
        res.end();
      },
    ];
    const follow = follower();
    expect((await followTestRun(follow.options)).outcome).toBe('lost');
    // One start and five reconnects, each of which the server dropped at once.
    expect(bodies.map((item) => item.path)).toEqual(['/run', ...Array(5).fill('/events')]);
  });
});
