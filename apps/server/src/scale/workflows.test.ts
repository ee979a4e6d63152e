import { createHmac } from 'node:crypto';
import {
  type RouteBody,
  type RouteData,
  type RouteDescriptor,
  workflowTriggerRoutes as tr,
  type WorkflowGraphInput,
  workflowRoutes,
  workflowRunRoutes,
  workflowRunStreams,
} from '@athena/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSse } from '../modules/agent/agent-test-helpers.ts';
import { TRIGGER_QUEUE } from '../modules/workflow/triggers/trigger-queue.ts';
import type { AthenaProcess } from '../testing/athena-process.ts';
import { API, startTwoProcesses, type Team, type TwoProcesses } from './two-processes.ts';

/** start(q) → code (JavaScript, in the sandbox thread) → llm (the fake) → answer → end. */
const graph = {
  nodes: [
    { id: 'start', type: 'start', data: { inputs: [{ name: 'q', type: 'paragraph', required: true }] } },
    {
      id: 'code',
      type: 'code',
      data: {
        language: 'javascript',
        code: 'function main({ q }) { return { out: q.toUpperCase() } }',
        variables: [{ name: 'q', selector: ['start', 'q'] }],
        outputs: [{ name: 'out', type: 'string' }],
      },
    },
    { id: 'llm', type: 'llm', data: { model: '', user_prompt: '{{#code.out#}}' } },
    { id: 'answer', type: 'answer', data: { text: 'Said: {{#llm.text#}}' } },
    {
      id: 'end',
      type: 'end',
      data: {
        outputs: [
          { name: 'a', selector: ['llm', 'text'] },
          { name: 'shout', selector: ['code', 'out'] },
        ],
      },
    },
  ],
  edges: [
    { id: 'e1', source: 'start', target: 'code' },
    { id: 'e2', source: 'code', target: 'llm' },
    { id: 'e3', source: 'llm', target: 'answer' },
    { id: 'e4', source: 'answer', target: 'end' },
  ],
} as WorkflowGraphInput;

const idsOf = (body: string) => [...body.matchAll(/^id: (\d+)$/gm)].map((match) => Number(match[1]));

/**
 * Workflow runs on PostgreSQL 15 rather than the embedded PGlite: the end of a run is one statement
 * of data-modifying CTEs over jsonb_to_recordset, and webhooks run through pg-boss, where either
 * process may take the job.
 */
describe('two processes on one PostgreSQL server: workflow runs', () => {
  let two: TwoProcesses;
  let team: Team;
  let workflowId: string;

  async function ok<R extends RouteDescriptor>(on: AthenaProcess, route: R, body: RouteBody<R>) {
    const answer = await on.call<RouteData<R>>(route.path, body, team.as(team.creator));
    expect(answer.code, `${on.name} ${route.path}: ${answer.msg}`).toBe(0);
    return answer.data;
  }
  const post = (on: AthenaProcess, path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${on.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...team.as(team.creator), ...headers },
      body: JSON.stringify(body),
    });

  beforeAll(async () => {
    two = await startTwoProcesses();
    team = await two.buildTeam('1390000007', 'Workflow team');
    const key = await two.a.call(
      `${API}/model_key/create`,
      { model_name: 'Chat', version: 'fake-chat', base_url: two.fake.url, api_key: two.fake.apiKey, purpose: 'chat' },
      team.as(team.creator),
    );
    expect(key.code, key.msg).toBe(0);
    const created = await ok(two.a, workflowRoutes.create, { name: 'On PostgreSQL' });
    workflowId = created.id;
    await ok(two.a, workflowRoutes.draftSave, { id: workflowId, graph, base_revision: created.draft_revision });
    await ok(two.a, workflowRoutes.publish, { id: workflowId, note: 'first' });
  });
  afterAll(async () => {
    if (two) expect(await two.stop()).toEqual([0, 0]);
  });

  it('runs blocking on A; B reads the run, every node execution, the tokens and the last result', async () => {
    const summary = await ok(two.a, workflowRunRoutes.runBlocking, { workflow_id: workflowId, inputs: { q: 'hello' } });
    expect(summary).toMatchObject({ result: 'succeeded', outputs: { a: 'Echo: HELLO', shout: 'HELLO' } });
    expect(summary.tokens).toBeGreaterThan(0);

    const { run, nodes } = await ok(two.b, workflowRunRoutes.detail, { run_id: summary.run_id });
    expect(run).toMatchObject({ status: 'finished', result: 'succeeded', answer: 'Said: Echo: HELLO' });
    expect(run.tokens).toBe(summary.tokens);
    expect(run.outputs).toEqual({ a: 'Echo: HELLO', shout: 'HELLO' });
    expect(nodes.map((node) => [node.node_id, node.status])).toEqual([
      ['start', 'succeeded'],
      ['code', 'succeeded'],
      ['llm', 'succeeded'],
      ['answer', 'succeeded'],
      ['end', 'succeeded'],
    ]);
    const llm = nodes.find((node) => node.node_id === 'llm');
    expect(llm?.tokens).toBe(run.tokens);
    expect(llm?.inputs.user_prompt).toBe('HELLO');
    expect(nodes.find((node) => node.node_id === 'code')?.outputs).toEqual({ out: 'HELLO' });
    for (const node of nodes) expect(node.finished_at, node.node_id).not.toBeNull();

    // The workflow's last result, written by the same statement, seen and filtered on through B.
    expect((await ok(two.b, workflowRoutes.detail, { id: workflowId })).last_run?.result).toBe('succeeded');
    const listed = await ok(two.b, workflowRoutes.list, { last_result: 'succeeded' });
    expect(listed.items.map((item) => item.id)).toContain(workflowId);
  });

  it('streams a run on A and replays its events after a Last-Event-ID on B, from the table', async () => {
    const streamed = await post(two.a, workflowRunStreams.run.path, {
      workflow_id: workflowId,
      inputs: { q: 'stream' },
    });
    expect(streamed.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const body = await streamed.text();
    const events = parseSse(workflowRunStreams.run, body);
    expect(events.at(-1)).toMatchObject({ event: 'run_finished', data: { result: 'succeeded' } });
    const ids = idsOf(body);
    expect(ids).toEqual(events.map((_, index) => index + 1));
    const runId = (events[0].data as { run_id: string }).run_id;

    const after = 3;
    const replayed = await post(
      two.b,
      workflowRunStreams.events.path,
      { run_id: runId },
      { 'last-event-id': `${after}` },
    );
    const replayBody = await replayed.text();
    expect(idsOf(replayBody)).toEqual(ids.slice(after));
    expect(parseSse(workflowRunStreams.events, replayBody)).toEqual(events.slice(after));
  });

  it('runs a signed webhook sent to B through the pg-boss queue to the end', async () => {
    const hook = await ok(two.a, tr.webhookSet, { workflow_id: workflowId, enabled: true });
    const secret = hook.secret ?? '';
    expect(secret).toMatch(/^whsec_/);
    const body = JSON.stringify({ q: 'from a hook' });
    const at = Math.floor(Date.now() / 1000);
    const digest = createHmac('sha256', secret).update(`${at}.${body}`).digest('hex');
    const accepted = await fetch(`${two.b.url}${hook.path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-athena-signature': `t=${at},v1=${digest}` },
      body,
    });
    expect(accepted.status, await accepted.clone().text()).toBe(202);
    const { run_id: runId } = (await accepted.json()) as { run_id: string };

    const finished = async () => {
      const { items } = await ok(two.a, workflowRunRoutes.list, { workflow_id: workflowId, page: 1, page_size: 20 });
      return items.find((item) => item.id === runId && item.status === 'finished') ?? null;
    };
    await expect.poll(finished, { timeout: 15_000, interval: 100 }).not.toBeNull();
    expect(await finished()).toMatchObject({
      trigger: 'webhook',
      result: 'succeeded',
      outputs: { a: 'Echo: FROM A HOOK', shout: 'FROM A HOOK' },
    });
    // One job on the shared queue, taken once by one of the two processes and completed.
    const jobStates = async () =>
      (
        await two.rows<{ state: string }>(`SELECT state FROM pgboss.job WHERE name = $1 AND data->>'workflowId' = $2`, [
          TRIGGER_QUEUE,
          workflowId,
        ])
      ).map((job) => job.state);
    await expect.poll(jobStates, { timeout: 5_000, interval: 100 }).toEqual(['completed']);
  });
});
