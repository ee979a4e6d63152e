import {
  type Envelope,
  ERRORS,
  type RouteBody,
  type RouteData,
  type RouteDescriptor,
  workflowRoutes as r,
  type WorkflowGraphInput,
  workflowRunRoutes,
} from '@athena/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { buildTeam, type TeamFixture } from '../../../testing/fixtures.ts';
import { createTestApp, type TestApp } from '../../../testing/test-app.ts';
import { workflows } from '../workflow.schema.ts';

// Dify files imported through the API, then used: what an early chatflow reads through its start
// node runs, an HTTP node's credentials leave the node for the sealed environment, and a run the
// graph cannot start says what is wrong with it.

const START = '1711528914102';

/** An early chatflow (DSL 0.1.x): its start node offers `sys.query` as its own output. */
const earlyChatflow = stringify({
  version: '0.1.2',
  kind: 'app',
  app: { name: 'Early chatflow', mode: 'advanced-chat' },
  workflow: {
    graph: {
      nodes: [
        { id: START, data: { type: 'start', title: 'Start', variables: [] } },
        {
          id: 'check',
          data: {
            type: 'if-else',
            title: 'Asked anything',
            logical_operator: 'and',
            conditions: [{ variable_selector: [START, 'sys.query'], comparison_operator: 'not empty', value: '' }],
          },
        },
        { id: 'reply', data: { type: 'answer', title: 'Reply', answer: `You asked: {{#${START}.sys.query#}}` } },
        { id: 'silent', data: { type: 'answer', title: 'Silent', answer: 'Nothing asked.' } },
      ],
      edges: [
        { source: START, target: 'check', sourceHandle: 'source' },
        { source: 'check', target: 'reply', sourceHandle: 'true' },
        { source: 'check', target: 'silent', sourceHandle: 'false' },
      ],
    },
  },
});

const LIVE_KEY = 'sk-live-4f1d2c9a8b7e6f5a';
const LIVE_TOKEN = 'tok-9d8c7b6a5f4e';
const LIVE_BEARER = 'bearer-1a2b3c4d5e6f';

/** An HTTP node as its author exported it: a live key in a header and a parameter, and a bearer token. */
const httpWorkflow = stringify({
  version: '0.3.0',
  kind: 'app',
  app: { name: 'Calls an API', mode: 'workflow' },
  workflow: {
    graph: {
      nodes: [
        { id: 'start', data: { type: 'start', title: 'Start', variables: [] } },
        {
          id: 'call',
          data: {
            type: 'http-request',
            title: 'Call the API',
            method: 'get',
            url: 'https://api.example.com/v1/items',
            headers: `X-API-Key:${LIVE_KEY}\nAccept:application/json\nX-Trace:{{#sys.user_id#}}`,
            params: `access_token:${LIVE_TOKEN}\npage:1`,
            authorization: { type: 'api-key', config: { type: 'bearer', api_key: LIVE_BEARER } },
            body: { type: 'none', data: '' },
          },
        },
        { id: 'end', data: { type: 'end', title: 'End', outputs: [] } },
      ],
      edges: [
        { source: 'start', target: 'call', sourceHandle: 'source' },
        { source: 'call', target: 'end', sourceHandle: 'source' },
      ],
    },
  },
});

/** Two problems: a node that reads an output nobody has, and a node connected to nothing. */
const brokenGraph = {
  nodes: [
    { id: 'start', type: 'start', data: { inputs: [] } },
    { id: 'answer', type: 'answer', data: { text: '{{#ghost.text#}}' } },
    { id: 'lonely', type: 'answer', data: { text: 'alone' } },
  ],
  edges: [{ id: 'e1', source: 'start', target: 'answer' }],
} as WorkflowGraphInput;

describe('importing Dify files, then using them', () => {
  let t: TestApp;
  let team: TeamFixture;

  async function call<R extends RouteDescriptor>(route: R, body: RouteBody<R>, language = 'en') {
    const headers = { ...team.as(team.creator), language };
    return (await t.call(route.path, body, headers)).body as Envelope<RouteData<R>>;
  }
  async function ok<R extends RouteDescriptor>(route: R, body: RouteBody<R>) {
    const answer = await call(route, body);
    expect(answer.code, `${route.path}: ${answer.msg}`).toBe(0);
    return answer.data;
  }

  beforeAll(async () => {
    t = await createTestApp();
    team = await buildTeam(t, { phonePrefix: '139610000' });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  it('reads an early chatflow’s sys.query through its start node as sys.query, so the workflow runs', async () => {
    const imported = await ok(r.import, { content: earlyChatflow });
    const check = imported.draft.nodes.find((node) => node.id === 'check');
    expect(check?.data).toMatchObject({ cases: [{ conditions: [{ selector: ['sys', 'query'] }] }] });
    const reply = imported.draft.nodes.find((node) => node.id === 'reply');
    expect(reply?.data).toEqual({ text: 'You asked: {{#sys.query#}}' });

    const run = await ok(workflowRunRoutes.runBlocking, { workflow_id: imported.id, query: 'where is my parcel?' });
    expect(run.result, JSON.stringify(run.failure)).toBe('succeeded');
    expect(run.answer).toBe('You asked: where is my parcel?');
  });

  it('moves an HTTP node’s live credentials into secret environment variables, with a note for each', async () => {
    const imported = await ok(r.import, { content: httpWorkflow });
    const call = imported.draft.nodes.find((node) => node.id === 'call');
    expect(call?.type).toBe('http');
    expect(call?.data).toMatchObject({
      headers: [
        { key: 'X-API-Key', value: '{{#env.CALL_X_API_KEY#}}' },
        { key: 'Accept', value: 'application/json' },
        { key: 'X-Trace', value: '{{#sys.user_id#}}' },
      ],
      params: [
        { key: 'access_token', value: '{{#env.CALL_ACCESS_TOKEN#}}' },
        { key: 'page', value: '1' },
      ],
      auth: { type: 'bearer', token: '{{#env.CALL_AUTHORIZATION#}}' },
    });
    const moved = imported.import_notes.filter((note) => note.key === 'WORKFLOW_IMPORT_SECRET_MOVED');
    expect(moved.map((note) => [note.params.field, note.params.env, note.node_id])).toEqual([
      ['X-API-Key', 'CALL_X_API_KEY', 'call'],
      ['access_token', 'CALL_ACCESS_TOKEN', 'call'],
      ['Authorization', 'CALL_AUTHORIZATION', 'call'],
    ]);

    // Nothing of the credentials comes back to a browser or leaves in an export …
    const answers = [JSON.stringify(imported), JSON.stringify(await ok(r.detail, { id: imported.id }))];
    answers.push((await ok(r.export, { id: imported.id })).content);
    for (const answer of answers) {
      for (const secret of [LIVE_KEY, LIVE_TOKEN, LIVE_BEARER]) expect(answer).not.toContain(secret);
    }
    // … but the workflow keeps them, as secrets, for its runs.
    const [row] = await t.database.db
      .select({ draft: workflows.draft })
      .from(workflows)
      .where(eq(workflows.id, imported.id));
    expect(row.draft.environment).toEqual([
      { name: 'CALL_X_API_KEY', type: 'secret', value: LIVE_KEY },
      { name: 'CALL_ACCESS_TOKEN', type: 'secret', value: LIVE_TOKEN },
      { name: 'CALL_AUTHORIZATION', type: 'secret', value: LIVE_BEARER },
    ]);
  });

  it('names the problems of a graph it refuses to run or publish, in the reader’s language', async () => {
    const created = await ok(r.create, { name: 'Broken' });
    await ok(r.draftSave, { id: created.id, graph: brokenGraph, base_revision: created.draft_revision });
    const INVALID = ERRORS.WORKFLOW_INVALID.code;

    const en = await call(workflowRunRoutes.runBlocking, { workflow_id: created.id });
    expect(en.code).toBe(INVALID);
    expect(en.msg).toContain('2 problem(s)');
    expect(en.msg).toContain('The node "answer" uses ghost.text');
    expect(en.msg).toContain('The node "lonely" is not connected.');
    expect(en.msg).not.toMatch(/\{\w+\}/);

    const zh = await call(workflowRunRoutes.runBlocking, { workflow_id: created.id }, 'zh-CN');
    expect(zh.code).toBe(INVALID);
    expect(zh.msg).toContain('工作流还有 2 个问题');
    expect(zh.msg).toContain('lonely');
    expect(zh.msg).not.toMatch(/\{\w+\}|problem/);

    const published = await call(r.publish, { id: created.id, note: '' }, 'zh-TW');
    expect(published.code).toBe(INVALID);
    expect(published.msg).toContain('工作流還有');
    expect(published.msg).toContain('lonely');
  });
});
