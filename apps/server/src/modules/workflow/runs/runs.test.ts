import {
  billingUsageRoutes,
  type Envelope,
  ERRORS,
  type RouteBody,
  type RouteData,
  type RouteDescriptor,
  workflowRunRoutes as r,
  type StreamEvent,
  workflowRunStreams as s,
  type WorkflowGraphInput,
  workflowRoutes,
} from '@athena/contract';
import { type FakeOpenAI, startFakeOpenAI } from '@athena/fake-openai';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drainStreams } from '../../../platform/http/open-streams.ts';
import { buildTeam, type TeamFixture } from '../../../testing/fixtures.ts';
import { createTestApp, type TestApp } from '../../../testing/test-app.ts';
import { parseSse } from '../../agent/agent-test-helpers.ts';
import { workflowRuns } from '../run.schema.ts';

type RunEvent = StreamEvent<typeof s.run>;
const code = (key: keyof typeof ERRORS) => ERRORS[key].code;

/** start(q) → llm(model) → answer → end(a = llm.text); the llm's error handling as given. */
function llmGraph(options: { model?: string; errors?: object; optional?: boolean } = {}): WorkflowGraphInput {
  return {
    nodes: [
      {
        id: 'start',
        type: 'start',
        data: { inputs: [{ name: 'q', type: 'paragraph', required: !options.optional }] },
      },
      {
        id: 'llm',
        type: 'llm',
        title: 'Model',
        data: { model: options.model ?? '', user_prompt: '{{#start.q#}}' },
        ...(options.errors ? { errors: options.errors } : {}),
      },
      { id: 'answer', type: 'answer', data: { text: 'Said: {{#llm.text#}}' } },
      { id: 'end', type: 'end', data: { outputs: [{ name: 'a', selector: ['llm', 'text'] }] } },
    ],
    edges: [
      { id: 'e1', source: 'start', target: 'llm' },
      { id: 'e2', source: 'llm', target: 'answer' },
      { id: 'e3', source: 'answer', target: 'end' },
    ],
  } as WorkflowGraphInput;
}

const echoGraph: WorkflowGraphInput = {
  nodes: [
    { id: 'start', type: 'start', data: { inputs: [{ name: 'q', type: 'text', required: false }] } },
    { id: 'end', type: 'end', data: { outputs: [{ name: 'a', selector: ['start', 'q'] }] } },
  ],
  edges: [{ id: 'e1', source: 'start', target: 'end' }],
} as WorkflowGraphInput;

const httpGraph: WorkflowGraphInput = {
  nodes: [
    { id: 'start', type: 'start', data: { inputs: [{ name: 'url', type: 'text' }] } },
    { id: 'http', type: 'http', data: { method: 'GET', url: '{{#start.url#}}' } },
    { id: 'end', type: 'end', data: { outputs: [{ name: 'body', selector: ['http', 'body'] }] } },
  ],
  edges: [
    { id: 'e1', source: 'start', target: 'http' },
    { id: 'e2', source: 'http', target: 'end' },
  ],
} as WorkflowGraphInput;

/** SSE blocks with their `id:` lines, for checking the numbering. */
const idsOf = (body: string) => [...body.matchAll(/^id: (\d+)$/gm)].map((match) => Number(match[1]));

describe('workflow runs: stream, blocking, results, cancel, reconnect, history, single node', () => {
  let fake: FakeOpenAI;
  let t: TestApp;
  let team: TeamFixture;

  async function call<R extends RouteDescriptor>(route: R, body: RouteBody<R>, token = team.creator, space?: string) {
    const res = await t.call(route.path, body, team.as(token, space));
    return res.body as Envelope<RouteData<R>>;
  }
  async function ok<R extends RouteDescriptor>(route: R, body: RouteBody<R>, token = team.creator) {
    const answer = await call(route, body, token);
    expect(answer.code, `${route.path}: ${answer.msg}`).toBe(0);
    return answer.data;
  }
  async function workflowOf(graph: WorkflowGraphInput, name = 'Flow') {
    const created = await ok(workflowRoutes.create, { name });
    await ok(workflowRoutes.draftSave, { id: created.id, graph, base_revision: created.draft_revision });
    return created.id;
  }
  async function runStream(body: RouteBody<typeof r.runBlocking>, token = team.creator) {
    const res = await t.app.inject({
      method: 'POST',
      url: s.run.path,
      headers: { 'content-type': 'application/json', ...team.as(token) },
      payload: JSON.stringify(body),
    });
    const isStream = String(res.headers['content-type']).startsWith('text/event-stream');
    return {
      body: res.body,
      events: isStream ? parseSse(s.run, res.body) : [],
      json: isStream ? null : (res.json() as Envelope),
    };
  }
  const finished = (events: RunEvent[]) =>
    events.find((e): e is Extract<RunEvent, { event: 'run_finished' }> => e.event === 'run_finished')?.data;

  beforeAll(async () => {
    fake = await startFakeOpenAI({ tokenDelayMs: 10 });
    t = await createTestApp({ env: { ALLOW_PRIVATE_MODEL_ENDPOINTS: 'true' } });
    team = await buildTeam(t, { phonePrefix: '139300000' });
    await t.call(
      '/api/athena/v1/model_key/create',
      { model_name: 'Chat', version: 'fake-chat', base_url: fake.url, api_key: 'sk-fake', purpose: 'chat' },
      team.as(team.creator),
    );
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  it('streams start → LLM → answer → end in order, numbered, with tokens and text, and keeps the run', async () => {
    const workflowId = await workflowOf(llmGraph());
    const { body, events } = await runStream({ workflow_id: workflowId, inputs: { q: 'hello there' } }, team.member);
    const names = events.map((e) => e.event);
    expect(names[0]).toBe('run_started');
    expect(names.at(-1)).toBe('run_finished');
    const order = events
      .filter((e) => e.event === 'node_started' || e.event === 'node_finished')
      .map((e) => `${e.event === 'node_started' ? '+' : '-'}${(e.data as { node_id: string }).node_id}`);
    expect(order).toEqual(['+start', '-start', '+llm', '-llm', '+answer', '-answer', '+end', '-end']);
    const chunks = events
      .filter((e) => e.event === 'text_chunk')
      .map((e) => e.data as { node_id: string; text: string });
    expect(
      chunks
        .filter((c) => c.node_id === 'llm')
        .map((c) => c.text)
        .join(''),
    ).toBe('Echo: hello there');
    expect(idsOf(body)).toEqual(events.map((_, index) => index + 1));

    const summary = finished(events);
    expect(summary).toMatchObject({ result: 'succeeded', outputs: { a: 'Echo: hello there' }, failure: null });
    expect(summary?.answer).toBe('Said: Echo: hello there');
    expect(summary?.tokens).toBeGreaterThan(0);
    const llm = events.find(
      (e): e is Extract<RunEvent, { event: 'node_finished' }> =>
        e.event === 'node_finished' && e.data.node_id === 'llm',
    )?.data;
    expect(llm?.tokens).toBe(summary?.tokens);
    expect(llm?.inputs.user_prompt).toBe('hello there');
    // `usage`, as the variable picker offers it: what the gateway reported for the call.
    const usage = llm?.outputs.usage as { prompt_tokens: number; completion_tokens: number; total_tokens: number };
    expect(usage.prompt_tokens).toBeGreaterThan(0);
    expect(usage.completion_tokens).toBeGreaterThan(0);
    expect(usage.total_tokens).toBe(usage.prompt_tokens + usage.completion_tokens);
    expect(usage.total_tokens).toBe(llm?.tokens);

    const workflow = await ok(workflowRoutes.detail, { id: workflowId });
    expect(workflow.last_run?.result).toBe('succeeded');

    // The call's fee record names the workflow and the run that made it (the fees page opens the run).
    const started = events[0].data as { run_id: string };
    const records = await ok(billingUsageRoutes.usageList, { kind: 'workflow', subject_id: workflowId });
    expect(records.items.map((item) => item.subject)).toEqual([
      { id: workflowId, name: 'Flow', run_id: started.run_id },
    ]);
  });

  it('answers a blocking run with its summary, and refuses bad inputs before a run starts', async () => {
    const workflowId = await workflowOf(llmGraph());
    const summary = await ok(r.runBlocking, { workflow_id: workflowId, inputs: { q: 'blocked' } });
    expect(summary).toMatchObject({ result: 'succeeded', outputs: { a: 'Echo: blocked' } });
    const missing = await call(r.runBlocking, { workflow_id: workflowId, inputs: {} });
    expect(missing.code).toBe(code('WORKFLOW_INPUT_REQUIRED'));
    const { json } = await runStream({ workflow_id: workflowId, inputs: { q: '' } });
    expect(json?.code).toBe(code('WORKFLOW_INPUT_REQUIRED'));
  });

  it('tells the four results apart: empty_output, has_error (default value), failed (abort)', async () => {
    const empty = await workflowOf(echoGraph);
    expect((await ok(r.runBlocking, { workflow_id: empty, inputs: { q: '' } })).result).toBe('empty_output');
    expect((await ok(r.runBlocking, { workflow_id: empty, inputs: { q: 'x' } })).result).toBe('succeeded');

    const handled = await workflowOf(
      llmGraph({ model: 'fake-401', errors: { on_error: 'default', default_outputs: { text: 'fallback' } } }),
    );
    const soft = await ok(r.runBlocking, { workflow_id: handled, inputs: { q: 'hi' } });
    expect(soft).toMatchObject({ result: 'has_error', outputs: { a: 'fallback' }, failure: null });

    const aborting = await workflowOf(llmGraph({ model: 'fake-401' }));
    const { events } = await runStream({ workflow_id: aborting, inputs: { q: 'hi' } });
    const hard = finished(events);
    expect(hard?.result).toBe('failed');
    expect(hard?.failure).toMatchObject({ reason: 'node_error', node_id: 'llm' });
    expect(hard?.failure?.error).toMatchObject({ code: code('MODEL_CALL_FAILED'), key: 'MODEL_CALL_FAILED' });
    // The failure kind in the reader's words (auth: the provider refused the key).
    expect(hard?.failure?.error.msg).toContain('密钥无效或无权限');
    const failedNode = events.find((e) => e.event === 'node_finished' && e.data.node_id === 'llm')?.data;
    expect(failedNode).toMatchObject({ status: 'failed', error: { code: code('MODEL_CALL_FAILED') } });
  });

  it('cancels a run for who started it or an admin, not for another member; the run ends failed (cancelled)', async () => {
    const workflowId = await workflowOf(llmGraph({ model: 'fake-stall' }));
    const before = fake.requests.length;
    const streaming = runStream({ workflow_id: workflowId, inputs: { q: 'wait' } });
    while (fake.requests.length === before) await new Promise((resolve) => setTimeout(resolve, 10));
    const list = await ok(r.list, { workflow_id: workflowId });
    const runId = list.items[0].id;
    expect(list.items[0].status).toBe('running');

    expect((await call(r.cancel, { run_id: runId }, team.member)).code).toBe(code('FORBIDDEN'));
    expect((await call(r.cancel, { run_id: runId }, team.stranger, team.strangerTeamId)).code).toBe(
      code('WORKFLOW_RUN_NOT_FOUND'),
    );
    expect((await call(r.cancel, { run_id: runId }, team.admin)).code).toBe(0);
    const summary = finished((await streaming).events);
    expect(summary).toMatchObject({ run_id: runId, result: 'failed', failure: { reason: 'cancelled' } });
    expect(summary?.failure?.error.code).toBe(code('WORKFLOW_RUN_CANCELLED'));
    expect((await call(r.cancel, { run_id: runId }, team.admin)).code).toBe(code('WORKFLOW_RUN_FINISHED'));
  });

  it('reconnects with Last-Event-ID mid-run, here and in another process, to exactly the missing events', async () => {
    const words = Array.from({ length: 40 }, (_, index) => `w${index}`).join(' ');
    const workflowId = await workflowOf(llmGraph());
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const other = await createTestApp({
      env: { ALLOW_PRIVATE_MODEL_ENDPOINTS: 'true' },
      sameDatabaseAs: { database: t.database, masterKey: t.masterKey },
    });
    try {
      const controller = new AbortController();
      const response = await fetch(`${address}${s.run.path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...team.as(team.creator) },
        body: JSON.stringify({ workflow_id: workflowId, inputs: { q: words } }),
        signal: controller.signal,
      });
      // Read until a few of the model's chunks have come, then drop the connection mid-run.
      const reader = (response.body as ReadableStream<Uint8Array>).getReader();
      let text = '';
      while ((text.match(/event: text_chunk/g) ?? []).length < 3) {
        const { value } = await reader.read();
        text += new TextDecoder().decode(value);
      }
      const complete = text.slice(0, text.lastIndexOf('\n\n') + 2);
      controller.abort();
      const seen = idsOf(complete);
      const last = seen.at(-1) as number;
      const runId = (parseSse(s.run, complete)[0].data as { run_id: string }).run_id;

      const reconnect = (app: TestApp) =>
        app.app.inject({
          method: 'POST',
          url: s.events.path,
          headers: { 'content-type': 'application/json', 'last-event-id': String(last), ...team.as(team.creator) },
          payload: JSON.stringify({ run_id: runId }),
        });
      const [here, there] = await Promise.all([reconnect(t), reconnect(other)]);
      for (const res of [here, there]) {
        const ids = idsOf(res.body);
        expect(ids[0]).toBe(last + 1);
        expect(ids).toEqual(ids.map((_, index) => last + 1 + index));
        const events = parseSse(s.events, res.body);
        expect(events.at(-1)?.event).toBe('run_finished');
        expect(events.at(-1)?.data).toMatchObject({ result: 'succeeded' });
      }
      // Read from memory here, from the table there (jsonb orders keys its own way): the same events.
      expect(parseSse(s.events, there.body)).toEqual(parseSse(s.events, here.body));
      // The whole run, replayed from the table by after_seq, is the first part plus the rest.
      const replay = await other.app.inject({
        method: 'POST',
        url: s.events.path,
        headers: { 'content-type': 'application/json', ...team.as(team.member) },
        payload: JSON.stringify({ run_id: runId, after_seq: 0 }),
      });
      expect(idsOf(replay.body)).toEqual([...seen, ...idsOf(here.body)]);
      expect(parseSse(s.events, replay.body)).toEqual([
        ...parseSse(s.events, complete),
        ...parseSse(s.events, here.body),
      ]);
    } finally {
      await other.close();
    }
  });

  it('lists runs by result, newest first, and shows a run with every node execution', async () => {
    const workflowId = await workflowOf(llmGraph({ optional: true }));
    await ok(r.runBlocking, { workflow_id: workflowId, inputs: { q: 'first' } });
    await ok(r.runBlocking, { workflow_id: workflowId, inputs: { q: 'second' } });
    const all = await ok(r.list, { workflow_id: workflowId }, team.member);
    expect(all.total).toBe(2);
    expect(all.items.map((run) => run.inputs.q)).toEqual(['second', 'first']);
    expect(all.items[0]).toMatchObject({ trigger: 'editor', status: 'finished', result: 'succeeded' });
    expect((await ok(r.list, { workflow_id: workflowId, result: 'failed' })).items).toEqual([]);
    expect((await ok(r.list, { workflow_id: workflowId, page: 2, page_size: 1 })).items[0].inputs.q).toBe('first');

    const detail = await ok(r.detail, { run_id: all.items[0].id }, team.member);
    expect(detail.nodes.map((node) => node.node_id)).toEqual(['start', 'llm', 'answer', 'end']);
    const llm = detail.nodes[1];
    expect(llm).toMatchObject({ node_type: 'llm', title: 'Model', status: 'succeeded', attempts: 1 });
    expect(llm.inputs).toMatchObject({ user_prompt: 'second' });
    expect(llm.outputs).toEqual({
      text: 'Echo: second',
      usage: { prompt_tokens: expect.any(Number), completion_tokens: expect.any(Number), total_tokens: llm.tokens },
    });
    expect(llm.tokens).toBeGreaterThan(0);
    expect(detail.run.outputs).toEqual({ a: 'Echo: second' });
  });

  it('runs one node with hand-given values and keeps it as a single_node run', async () => {
    const workflowId = await workflowOf(llmGraph());
    const result = await ok(r.nodeRun, { workflow_id: workflowId, node_id: 'llm', values: { 'start.q': 'alone' } });
    expect(result).toMatchObject({ status: 'succeeded', outputs: { text: 'Echo: alone' }, error: null });
    const runs = await ok(r.list, { workflow_id: workflowId });
    expect(runs.items[0]).toMatchObject({ id: result.run_id, trigger: 'single_node', result: 'succeeded' });
    expect((await call(r.nodeRun, { workflow_id: workflowId, node_id: 'nope', values: {} })).code).toBe(
      code('NOT_FOUND'),
    );
  });

  it('cancels a single node stalled on its model: the run ends failed (cancelled), not left running', async () => {
    const workflowId = await workflowOf(llmGraph({ model: 'fake-stall' }));
    const before = fake.requests.length;
    const running = call(r.nodeRun, { workflow_id: workflowId, node_id: 'llm', values: { 'start.q': 'wait' } });
    while (fake.requests.length === before) await new Promise((resolve) => setTimeout(resolve, 10));
    const runId = (await ok(r.list, { workflow_id: workflowId })).items[0].id;
    expect((await call(r.cancel, { run_id: runId }, team.member)).code).toBe(code('FORBIDDEN'));
    expect((await call(r.cancel, { run_id: runId })).code).toBe(0);
    const result = await running;
    expect(result.data).toMatchObject({
      run_id: runId,
      status: 'failed',
      error: { code: code('WORKFLOW_RUN_CANCELLED') },
    });
    const detail = await ok(r.detail, { run_id: runId });
    expect(detail.run).toMatchObject({ status: 'finished', result: 'failed', failure_reason: 'cancelled' });
  });

  it('runs a JavaScript code node in the sandbox', async () => {
    const workflowId = await workflowOf({
      nodes: [
        { id: 'start', type: 'start', data: { inputs: [{ name: 'n', type: 'number' }] } },
        {
          id: 'code',
          type: 'code',
          data: {
            language: 'javascript',
            variables: [{ name: 'n', selector: ['start', 'n'] }],
            code: 'function main({ n }) { return { double: n * 2 } }',
            outputs: [{ name: 'double', type: 'number' }],
          },
        },
        { id: 'end', type: 'end', data: { outputs: [{ name: 'double', selector: ['code', 'double'] }] } },
      ],
      edges: [
        { id: 'e1', source: 'start', target: 'code' },
        { id: 'e2', source: 'code', target: 'end' },
      ],
    } as WorkflowGraphInput);
    const summary = await ok(r.runBlocking, { workflow_id: workflowId, inputs: { n: '21' } });
    expect(summary).toMatchObject({ result: 'succeeded', outputs: { double: 42 } });
  });

  it('runs classifier, extractor and agent nodes through the model, each read leniently', async () => {
    const classify = await workflowOf({
      nodes: [
        { id: 'start', type: 'start', data: { inputs: [{ name: 'q', type: 'text' }] } },
        {
          id: 'kind',
          type: 'classifier',
          data: {
            query: ['start', 'q'],
            classes: [
              { id: 'refund', name: 'wants money back' },
              { id: 'bug', name: 'reports a defect' },
            ],
          },
        },
        { id: 'money', type: 'answer', data: { text: 'refund desk' } },
        { id: 'defect', type: 'answer', data: { text: 'bug desk' } },
      ],
      edges: [
        { id: 'e1', source: 'start', target: 'kind' },
        { id: 'e2', source: 'kind', source_handle: 'refund', target: 'money' },
        { id: 'e3', source: 'kind', source_handle: 'bug', target: 'defect' },
      ],
    } as WorkflowGraphInput);
    const routed = await ok(r.runBlocking, { workflow_id: classify, inputs: { q: 'my app has a bug' } });
    expect(routed).toMatchObject({ result: 'succeeded', answer: 'bug desk' });

    const agent = await t.call<{ id: string }>(
      '/api/athena/v1/agent/create',
      { name: 'Helper', system_prompt: 'Be brief.' },
      team.as(team.creator),
    );
    const extract = await workflowOf({
      nodes: [
        { id: 'start', type: 'start', data: { inputs: [{ name: 'q', type: 'paragraph' }] } },
        {
          id: 'params',
          type: 'extractor',
          data: {
            query: ['start', 'q'],
            parameters: [
              { name: 'city', type: 'string', required: true },
              { name: 'days', type: 'number', required: true },
            ],
          },
        },
        { id: 'helper', type: 'agent', data: { agent_id: agent.body.data.id, query: 'Trip to {{#params.city#}}' } },
        {
          id: 'end',
          type: 'end',
          data: {
            outputs: [
              { name: 'city', selector: ['params', 'city'] },
              { name: 'days', selector: ['params', 'days'] },
              { name: 'ok', selector: ['params', '__is_success'] },
              { name: 'said', selector: ['helper', 'text'] },
            ],
          },
        },
      ],
      edges: [
        { id: 'e1', source: 'start', target: 'params' },
        { id: 'e2', source: 'params', target: 'helper' },
        { id: 'e3', source: 'helper', target: 'end' },
      ],
    } as WorkflowGraphInput);
    const extracted = await ok(r.runBlocking, { workflow_id: extract, inputs: { q: '{"city":"Paris","days":"3"}' } });
    expect(extracted.outputs).toEqual({ city: 'Paris', days: 3, ok: 1, said: 'Echo: Trip to Paris' });
    const vague = await ok(r.runBlocking, { workflow_id: extract, inputs: { q: 'somewhere, some day' } });
    expect(vague.outputs).toMatchObject({ city: null, ok: 0 });
  });

  it('runs a sub-workflow’s effective version as a run of its own, and stops workflows that call each other', async () => {
    const plain: WorkflowGraphInput = {
      nodes: [
        { id: 'start', type: 'start', data: { inputs: [] } },
        { id: 'answer', type: 'answer', data: { text: 'from one' } },
        { id: 'end', type: 'end', data: { outputs: [{ name: 'x', selector: ['answer', 'answer'] }] } },
      ],
      edges: [
        { id: 'e1', source: 'start', target: 'answer' },
        { id: 'e2', source: 'answer', target: 'end' },
      ],
    } as WorkflowGraphInput;
    const calling = (target: string): WorkflowGraphInput =>
      ({
        nodes: [
          { id: 'start', type: 'start', data: { inputs: [] } },
          { id: 'sub', type: 'sub_workflow', data: { workflow_id: target } },
          {
            id: 'end',
            type: 'end',
            data: {
              outputs: [
                { name: 'got', selector: ['sub', 'answer'] },
                { name: 'x', selector: ['sub', 'outputs', 'x'] },
              ],
            },
          },
        ],
        edges: [
          { id: 'e1', source: 'start', target: 'sub' },
          { id: 'e2', source: 'sub', target: 'end' },
        ],
      }) as WorkflowGraphInput;
    const one = await workflowOf(plain, 'One');
    const calledBefore = await call(r.runBlocking, {
      workflow_id: await workflowOf(calling(one), 'Early'),
      inputs: {},
    });
    expect(calledBefore.data.failure?.error.key).toBe('WORKFLOW_NOT_EFFECTIVE');
    await ok(workflowRoutes.publish, { id: one });
    const two = await workflowOf(calling(one), 'Two');
    expect(await ok(r.runBlocking, { workflow_id: two, inputs: {} })).toMatchObject({
      result: 'succeeded',
      outputs: { got: 'from one', x: 'from one' },
    });
    expect((await ok(r.list, { workflow_id: one })).items[0].trigger).toBe('sub_workflow');

    await ok(workflowRoutes.publish, { id: two });
    const detail = await ok(workflowRoutes.detail, { id: one });
    await ok(workflowRoutes.draftSave, { id: one, graph: calling(two), base_revision: detail.draft_revision });
    await ok(workflowRoutes.publish, { id: one });
    const looping = await ok(r.runBlocking, { workflow_id: two, inputs: {} });
    expect(looping.result).toBe('failed');
    expect(looping.failure?.error).toMatchObject({
      code: code('WORKFLOW_SUBFLOW_TOO_DEEP'),
      msg: expect.stringContaining('5'),
    });
  });

  it('refuses HTTP nodes aimed at loopback or the cloud metadata address', async () => {
    const workflowId = await workflowOf(httpGraph);
    for (const url of [`http://127.0.0.1:${fake.port}/v1/models`, 'http://169.254.169.254/latest/meta-data/']) {
      const summary = await ok(r.runBlocking, { workflow_id: workflowId, inputs: { url } });
      expect(summary.result).toBe('failed');
      // Its own code: ADDRESS_BLOCKED speaks of ALLOW_PRIVATE_MODEL_ENDPOINTS, no help for a workflow.
      expect(summary.failure?.error).toMatchObject({
        code: code('WORKFLOW_HTTP_ADDRESS_BLOCKED'),
        key: 'WORKFLOW_HTTP_ADDRESS_BLOCKED',
        msg: `HTTP 节点不能访问内网或本机地址（${new URL(url).hostname}）。`,
      });
    }
    expect(fake.requests.some((request) => request.path === '/v1/models')).toBe(false);
  });

  it('keeps another team out: no run, history, detail, reconnect or cancel of its workflows', async () => {
    const workflowId = await workflowOf(echoGraph);
    const { run_id: runId } = await ok(r.runBlocking, { workflow_id: workflowId, inputs: { q: 'mine' } });
    const own = team.strangerTeamId;
    const asStranger = <R extends RouteDescriptor>(route: R, body: RouteBody<R>, space = own) =>
      call(route, body, team.stranger, space);
    expect((await asStranger(r.runBlocking, { workflow_id: workflowId, inputs: {} })).code).toBe(
      code('WORKFLOW_NOT_FOUND'),
    );
    expect((await asStranger(r.list, { workflow_id: workflowId })).code).toBe(code('WORKFLOW_NOT_FOUND'));
    expect((await asStranger(r.detail, { run_id: runId })).code).toBe(code('WORKFLOW_RUN_NOT_FOUND'));
    expect((await asStranger(r.nodeRun, { workflow_id: workflowId, node_id: 'end', values: {} })).code).toBe(
      code('WORKFLOW_NOT_FOUND'),
    );
    expect((await asStranger(r.detail, { run_id: runId }, team.teamId)).code).toBe(code('SPACE_UNAVAILABLE'));
    const events = await t.app.inject({
      method: 'POST',
      url: s.events.path,
      headers: { 'content-type': 'application/json', ...team.as(team.stranger, own) },
      payload: JSON.stringify({ run_id: runId }),
    });
    expect((events.json() as Envelope).code).toBe(code('WORKFLOW_RUN_NOT_FOUND'));
  });

  it('fails a run the server stops: its reader hears so, and the run is kept as server_stopped', async () => {
    const workflowId = await workflowOf(llmGraph({ model: 'fake-stall' }));
    const before = fake.requests.length;
    const streaming = runStream({ workflow_id: workflowId, inputs: { q: 'stopping' } });
    while (fake.requests.length === before) await new Promise((resolve) => setTimeout(resolve, 10));
    await drainStreams(t.app.server, 50, t.app.log);
    const { events } = await streaming;
    expect(events.slice(-2).map((e) => e.event)).toEqual(['error', 'run_finished']);
    expect(events.at(-2)?.data).toMatchObject({ code: code('SERVER_RESTARTING'), kind: 'shutdown' });
    const summary = finished(events);
    expect(summary).toMatchObject({ result: 'failed', failure: { reason: 'server_stopped' } });
    expect(summary?.failure?.error.code).toBe(code('WORKFLOW_SERVER_STOPPED'));
    const [row] = await t.database.db
      .select()
      .from(workflowRuns)
      .where(eq(workflowRuns.id, summary?.run_id ?? ''));
    expect(row).toMatchObject({ status: 'finished', result: 'failed', failureReason: 'server_stopped' });
  });

  it('marks runs whose process stopped writing: on schedule the stale ones, at start every one', async () => {
    const workflowId = await workflowOf(echoGraph);
    const running = (progressAt: Date) => ({
      spaceId: team.teamId,
      workflowId,
      trigger: 'editor',
      status: 'running',
      createdBy: team.ids.creator,
      progressAt,
    });
    const [dead, alive] = await t.database.db
      .insert(workflowRuns)
      .values([running(new Date(Date.now() - 60_000)), running(new Date())])
      .returning();
    const module = t.app.appModules.find((candidate) => candidate.name === 'workflow');
    const schedule = module?.schedules?.find((job) => job.name === 'workflow.interrupted-runs');
    await schedule?.run();
    const stateOf = async (id: string) => (await ok(r.detail, { run_id: id })).run;
    expect(await stateOf(dead.id)).toMatchObject({
      status: 'finished',
      result: 'failed',
      failure_reason: 'server_stopped',
    });
    expect((await stateOf(dead.id)).error?.code).toBe(code('WORKFLOW_SERVER_STOPPED'));
    expect((await stateOf(alive.id)).status).toBe('running');
    // The embedded database has one process: at start, nothing running can still be alive.
    await module?.onStart?.();
    expect(await stateOf(alive.id)).toMatchObject({ status: 'finished', result: 'failed' });
    expect((await ok(workflowRoutes.detail, { id: workflowId })).last_run?.result).toBe('failed');
    // A reconnect to such a run still ends with run_finished, made from its row.
    const res = await t.app.inject({
      method: 'POST',
      url: s.events.path,
      headers: { 'content-type': 'application/json', ...team.as(team.creator) },
      payload: JSON.stringify({ run_id: dead.id }),
    });
    const events = parseSse(s.events, res.body);
    expect(events.map((e) => e.event)).toEqual(['run_finished']);
    expect(events[0].data).toMatchObject({ result: 'failed', failure: { reason: 'server_stopped' } });
  });
});
