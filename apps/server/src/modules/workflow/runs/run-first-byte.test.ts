import type { AddressInfo } from 'node:net';
import { Worker } from 'node:worker_threads';
import { workflowRunStreams as s, type WorkflowGraphInput, workflowRoutes } from '@athena/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTeam, type TeamFixture } from '../../../testing/fixtures.ts';
import { createTestApp, type TestApp } from '../../../testing/test-app.ts';

// The reader runs in a worker thread with its own event loop, so it sees bytes when the server
// sends them; a reader on the server's own thread would only read once the server's work is done.
const READER = `
const { parentPort, workerData } = require('node:worker_threads');
(async () => {
  const firsts = [];
  for (let i = 0; i < workerData.runs; i++) {
    const res = await fetch(workerData.url, { method: 'POST', headers: workerData.headers, body: workerData.body });
    const reader = res.body.getReader();
    const decoder = new TextDecoder();
    let first = null;
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      const text = decoder.decode(value, { stream: true });
      if (first === null && text.trim() !== '') first = [...text.matchAll(/^event: (\\w+)$/gm)].map((m) => m[1]);
    }
    firsts.push(first);
  }
  parentPort.postMessage(firsts);
})().catch((error) => parentPort.postMessage(String(error)));
`;

/** start → answer → end: nothing in it waits for outside I/O, only the run's storage does. */
const echoGraph = {
  nodes: [
    { id: 'start', type: 'start', data: { inputs: [{ name: 'q', type: 'text' }] } },
    { id: 'answer', type: 'answer', data: { text: 'You said: {{#start.q#}}' } },
    { id: 'end', type: 'end', data: { outputs: [{ name: 'a', selector: ['start', 'q'] }] } },
  ],
  edges: [
    { id: 'e1', source: 'start', target: 'answer' },
    { id: 'e2', source: 'answer', target: 'end' },
  ],
} as WorkflowGraphInput;

describe('workflow run stream: first byte', () => {
  let t: TestApp;
  let team: TeamFixture;
  let base: string;

  beforeAll(async () => {
    t = await createTestApp();
    team = await buildTeam(t, { phonePrefix: '139400000' });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  it('sends run_started before the run has been stored, also when no node waits for I/O', async () => {
    const created = await t.call(workflowRoutes.create, { name: 'Echo' }, team.as(team.creator));
    const workflow = created.body.data;
    const saved = await t.call(
      workflowRoutes.draftSave,
      { id: workflow.id, graph: echoGraph, base_revision: workflow.draft_revision },
      team.as(team.creator),
    );
    expect(saved.body.code).toBe(0);

    const runs = 5;
    const worker = new Worker(READER, {
      eval: true,
      workerData: {
        runs,
        url: `${base}${s.run.path}`,
        headers: { 'content-type': 'application/json', ...team.as(team.creator) },
        body: JSON.stringify({ workflow_id: workflow.id, inputs: { q: 'hi' } }),
      },
    });
    const firsts = await new Promise<string[][] | string>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    await worker.terminate();
    expect(Array.isArray(firsts), String(firsts)).toBe(true);
    // Each run's first bytes open with run_started. Before, the whole stream went out in one write
    // at the end: the engine's and the embedded database's promises kept the microtask queue busy,
    // and Node sends a response's writes on process.nextTick, after that queue is empty. A loaded
    // machine may still merge two writes in one read now and then, so one clean run of five proves it.
    for (const first of firsts as string[][]) expect(first[0]).toBe('run_started');
    const early = (firsts as string[][]).filter((first) => !first.includes('run_finished'));
    expect(early.length, JSON.stringify(firsts)).toBeGreaterThanOrEqual(1);
  });
});
