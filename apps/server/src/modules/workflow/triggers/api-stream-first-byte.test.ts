import type { AddressInfo } from 'node:net';
import { Worker } from 'node:worker_threads';
import {
  type Envelope,
  type RouteBody,
  type RouteData,
  type RouteDescriptor,
  workflowTriggerRoutes as tr,
  WORKFLOW_API_RUN_PATH,
  type WorkflowGraphInput,
  workflowRoutes,
} from '@athena/contract';
import { type FakeOpenAI, startFakeOpenAI } from '@athena/fake-openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTeam, type TeamFixture } from '../../../testing/fixtures.ts';
import { createTestApp, type TestApp } from '../../../testing/test-app.ts';

// The reader runs in a worker thread with its own event loop, so it sees bytes when the server
// sends them, and times them; a reader on the server's own thread would read when the server idles.
const READER = `
const { parentPort, workerData } = require('node:worker_threads');
(async () => {
  const started = Date.now();
  const res = await fetch(workerData.url, { method: 'POST', headers: workerData.headers, body: workerData.body });
  const headersAt = Date.now() - started;
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  const chunks = [];
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    chunks.push({ at: Date.now() - started, text: decoder.decode(value, { stream: true }) });
  }
  parentPort.postMessage({
    status: res.status,
    contentType: res.headers.get('content-type'),
    encoding: res.headers.get('content-encoding'),
    headersAt,
    endAt: Date.now() - started,
    chunks,
  });
})().catch((error) => parentPort.postMessage({ error: String(error) }));
`;

interface Reading {
  error?: string;
  status: number;
  contentType: string;
  encoding: string | null;
  headersAt: number;
  endAt: number;
  chunks: { at: number; text: string }[];
}

/** Reads one stream in a worker thread and tells when each chunk arrived. */
async function read(url: string, request: { headers: Record<string, string>; body: unknown }) {
  const worker = new Worker(READER, {
    eval: true,
    workerData: { url, headers: request.headers, body: JSON.stringify(request.body) },
  });
  try {
    const reading = await new Promise<Reading>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    expect(reading.error).toBeUndefined();
    return reading;
  } finally {
    await worker.terminate();
  }
}

/** The events of a stream, each with when the chunk that carried it arrived. */
const eventsOf = (reading: Reading) =>
  reading.chunks.flatMap((chunk) =>
    [...chunk.text.matchAll(/^event: (\w+)$/gm)].map((match) => ({ event: match[1], at: chunk.at })),
  );

/** start(q) → a slow model → answer → end: the run takes seconds, in steps the stream reports. */
const slowGraph = {
  nodes: [
    { id: 'start', type: 'start', data: { inputs: [{ name: 'q', type: 'paragraph', required: true }] } },
    { id: 'llm', type: 'llm', data: { model: '', user_prompt: '{{#start.q#}}' } },
    { id: 'answer', type: 'answer', data: { text: '{{#llm.text#}}' } },
    { id: 'end', type: 'end', data: { outputs: [{ name: 'a', selector: ['llm', 'text'] }] } },
  ],
  edges: [
    { id: 'e1', source: 'start', target: 'llm' },
    { id: 'e2', source: 'llm', target: 'answer' },
    { id: 'e3', source: 'answer', target: 'end' },
  ],
} as WorkflowGraphInput;

/**
 * A run that never waits for I/O: a loop of a thousand rounds, each appending to a list, on the
 * embedded database. It keeps the process busy for a second or more and emits thousands of events.
 */
const busyGraph = {
  nodes: [
    { id: 'start', type: 'start', data: { inputs: [] } },
    {
      id: 'loop',
      type: 'loop',
      data: {
        variables: [
          { name: 'n', type: 'number', initial: '0' },
          { name: 'seen', type: 'array', initial: '[]' },
        ],
        max_count: 1_000,
      },
    },
    {
      id: 'step',
      type: 'assigner',
      parent_id: 'loop',
      data: {
        items: [
          { target: ['loop', 'n'], operation: 'add', constant: '1' },
          { target: ['loop', 'seen'], operation: 'append', source: ['loop', 'n'] },
        ],
      },
    },
    { id: 'end', type: 'end', data: { outputs: [{ name: 'n', selector: ['loop', 'n'] }] } },
  ],
  edges: [
    { id: 'e1', source: 'start', target: 'loop' },
    { id: 'e2', source: 'loop', source_handle: 'body', target: 'step' },
    { id: 'e3', source: 'loop', target: 'end' },
  ],
  settings: { max_steps: 10_000, max_run_ms: 120_000 },
} as WorkflowGraphInput;

describe('the workflow API streams as the run goes', () => {
  let fake: FakeOpenAI;
  let t: TestApp;
  let team: TeamFixture;
  let base: string;

  async function ok<R extends RouteDescriptor>(route: R, body: RouteBody<R>) {
    const answer = (await t.call(route.path, body, team.as(team.creator))).body as Envelope<RouteData<R>>;
    expect(answer.code, `${route.path}: ${answer.msg}`).toBe(0);
    return answer.data;
  }

  beforeAll(async () => {
    // Each token of the model's answer (an echo of the question) comes 100 ms after the last.
    fake = await startFakeOpenAI({ tokenDelayMs: 100 });
    t = await createTestApp({ env: { ALLOW_PRIVATE_MODEL_ENDPOINTS: 'true' } });
    team = await buildTeam(t, { phonePrefix: '139620000' });
    await t.call(
      '/api/athena/v1/model_key/create',
      { model_name: 'Chat', version: 'fake-chat', base_url: fake.url, api_key: 'sk-fake', purpose: 'chat' },
      team.as(team.creator),
    );
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  it('sends run_started over real HTTP long before a slow run ends, unbuffered and uncompressed', async () => {
    const created = await ok(workflowRoutes.create, { name: 'Slow API' });
    await ok(workflowRoutes.draftSave, { id: created.id, graph: slowGraph, base_revision: created.draft_revision });
    await ok(workflowRoutes.publish, { id: created.id, note: '' });
    const { key } = await ok(tr.apiKeyCreate, { workflow_id: created.id, name: 'stream' });

    const question = Array.from({ length: 30 }, (_, i) => `w${i}`).join(' ');
    const reading = await read(`${base}${WORKFLOW_API_RUN_PATH}`, {
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': 'application/json',
        // What browsers and most HTTP clients send: nothing may hold the stream back to compress it.
        'accept-encoding': 'gzip, deflate, br',
      },
      body: { inputs: { q: question }, response_mode: 'streaming', user: 'first-byte' },
    });
    expect(reading.status).toBe(200);
    expect(reading.contentType).toMatch(/^text\/event-stream/);
    expect(reading.encoding).toBeNull();

    const events = eventsOf(reading);
    const started = events.find((e) => e.event === 'run_started');
    const finished = events.find((e) => e.event === 'run_finished');
    const summary = JSON.stringify({ headersAt: reading.headersAt, endAt: reading.endAt, events });
    expect(started, summary).toBeDefined();
    expect(finished, summary).toBeDefined();
    // The model takes about 3 s (30 tokens, 100 ms apart); run_started must not wait for it.
    expect(reading.endAt, summary).toBeGreaterThan(2_500);
    expect(reading.headersAt, summary).toBeLessThan(1_500);
    expect(started?.at, summary).toBeLessThan(1_500);
    expect((finished?.at ?? 0) - (started?.at ?? 0), summary).toBeGreaterThan(2_000);
    // And the model's text arrives as it is made, in several pieces, not in one at the end.
    const streamed = events.filter((e) => e.event !== 'run_started' && e.event !== 'run_finished');
    expect(new Set(streamed.map((e) => e.at)).size, summary).toBeGreaterThan(1);
  });

  it('sends each event as it happens during a run that never waits for outside I/O', async () => {
    const created = await ok(workflowRoutes.create, { name: 'Busy API' });
    await ok(workflowRoutes.draftSave, { id: created.id, graph: busyGraph, base_revision: created.draft_revision });
    await ok(workflowRoutes.publish, { id: created.id, note: '' });
    const { key } = await ok(tr.apiKeyCreate, { workflow_id: created.id, name: 'busy' });

    const reading = await read(`${base}${WORKFLOW_API_RUN_PATH}`, {
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: { inputs: {}, response_mode: 'streaming' },
    });
    const events = eventsOf(reading);
    const summary = JSON.stringify({ headersAt: reading.headersAt, endAt: reading.endAt, events: events.slice(0, 8) });
    const started = events.find((e) => e.event === 'run_started');
    const firstNode = events.find((e) => e.event === 'node_started');
    const finished = events.find((e) => e.event === 'run_finished');
    expect(started && firstNode && finished, summary).toBeTruthy();
    const took = (finished?.at ?? 0) - (started?.at ?? 0);
    // Long enough to tell "as it goes" from "all at the end" on a loaded machine.
    expect(took, summary).toBeGreaterThan(500);
    // Before, every event after run_started left with run_finished: the loop's rounds (and the
    // embedded database's writes) kept the microtask queue busy, and the response waited for it.
    expect((firstNode?.at ?? 0) - (started?.at ?? 0), summary).toBeLessThan(took / 3);
    expect(new Set(events.map((e) => e.at)).size, summary).toBeGreaterThan(3);
  });
});
