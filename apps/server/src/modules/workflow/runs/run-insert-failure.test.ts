import {
  ERRORS,
  workflowRunRoutes as r,
  workflowRunStreams as s,
  type WorkflowGraphInput,
  workflowRoutes,
} from '@athena/contract';
import { type FakeOpenAI, startFakeOpenAI } from '@athena/fake-openai';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTeam, type TeamFixture } from '../../../testing/fixtures.ts';
import { createTestApp, type TestApp } from '../../../testing/test-app.ts';
import { parseSse } from '../../agent/agent-test-helpers.ts';
import { workflowRunEvents, workflowRuns } from '../run.schema.ts';

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

/** A new workflow of the team's creator whose draft is `graph`, saved without problems. */
async function savedWorkflow(t: TestApp, team: TeamFixture, name: string, graph: WorkflowGraphInput) {
  const created = await t.call(workflowRoutes.create, { name }, team.as(team.creator));
  const saved = await t.call(
    workflowRoutes.draftSave,
    { id: created.body.data.id, graph, base_revision: created.body.data.draft_revision },
    team.as(team.creator),
  );
  expect(saved.body, JSON.stringify(saved.body)).toMatchObject({ code: 0, data: { problems: [] } });
  return created.body.data.id as string;
}

// The stream sends run_started while the run's row is being written. A row the database refuses
// (here a real trigger raising an error, as a full disk or a lost connection would) must end that
// stream with an error, and leave nothing of the run behind: no row, no event, no last result.
describe('workflow run stream: the run cannot be stored', () => {
  let t: TestApp;
  let team: TeamFixture;
  let workflowId: string;

  beforeAll(async () => {
    t = await createTestApp();
    team = await buildTeam(t, { phonePrefix: '139410000' });
    workflowId = await savedWorkflow(t, team, 'Echo', echoGraph);
    await t.database.db.execute(sql`
      CREATE FUNCTION refuse_test_run() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.inputs->>'q' = 'refuse' THEN RAISE EXCEPTION 'refused by the test'; END IF;
        RETURN NEW;
      END $$`);
    await t.database.db.execute(sql`
      CREATE TRIGGER refuse_test_run BEFORE INSERT ON workflow_runs
      FOR EACH ROW EXECUTE FUNCTION refuse_test_run()`);
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  it('ends the stream with a storage error after run_started, with nothing of the run written', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: s.run.path,
      headers: { 'content-type': 'application/json', ...team.as(team.creator) },
      payload: JSON.stringify({ workflow_id: workflowId, inputs: { q: 'refuse' } }),
    });
    expect(res.statusCode).toBe(200);
    const events = parseSse(s.run, res.body);
    expect(events.map((event) => event.event)).toEqual(['run_started', 'error']);
    expect(events[1].data).toMatchObject({ code: ERRORS.SYSTEM_ERROR.code, kind: 'storage' });
    const runId = (events[0].data as { run_id: string }).run_id;
    const db = t.database.db;
    expect(await db.select().from(workflowRuns).where(eq(workflowRuns.id, runId))).toEqual([]);
    expect(await db.select().from(workflowRunEvents).where(eq(workflowRunEvents.runId, runId))).toEqual([]);
    const detail = await t.call(workflowRoutes.detail, { id: workflowId }, team.as(team.creator));
    expect(detail.body.data.last_run).toBeFalsy();

    // The blocking call has no stream to end: it answers the error itself.
    const blocking = await t.call(
      r.runBlocking,
      { workflow_id: workflowId, inputs: { q: 'refuse' } },
      team.as(team.creator),
    );
    expect(blocking.body.code).toBe(ERRORS.SYSTEM_ERROR.code);

    // Any other run is stored as usual.
    const fine = await t.call(r.runBlocking, { workflow_id: workflowId, inputs: { q: 'fine' } }, team.as(team.creator));
    expect(fine.body.data).toMatchObject({ result: 'succeeded', outputs: { a: 'fine' } });
  });
});

// Events are written in batches while a run goes on. A batch the database refuses is tried once
// more; refused twice, the run stops with a storage error, and the batch is written with the run's
// end, so no event goes missing from what a reader in another process gets.
describe('workflow run events: a batch the database refuses', () => {
  let t: TestApp;
  let team: TeamFixture;
  let fake: FakeOpenAI;
  let workflowId: string;

  // 300 items of an iteration: over 600 events, more than one batch, then a model call long enough
  // (8 chunks 100 ms apart) for the batch's fate to be known before the run could end.
  const iterateThenAsk = {
    nodes: [
      { id: 'start', type: 'start', data: { inputs: [{ name: 'items', type: 'json' }] } },
      { id: 'it', type: 'iteration', data: { list: ['start', 'items'], output: ['pick', 'output'] } },
      { id: 'pick', type: 'aggregator', parent_id: 'it', data: { output_type: 'number', selectors: [['it', 'item']] } },
      { id: 'llm', type: 'llm', data: { model: '', user_prompt: 'count' } },
      { id: 'end', type: 'end', data: { outputs: [{ name: 'n', selector: ['llm', 'text'] }] } },
    ],
    edges: [
      { id: 'e1', source: 'start', target: 'it' },
      { id: 'e2', source: 'it', target: 'pick', source_handle: 'body' },
      { id: 'e3', source: 'it', target: 'llm' },
      { id: 'e4', source: 'llm', target: 'end' },
    ],
  } as WorkflowGraphInput;

  beforeAll(async () => {
    fake = await startFakeOpenAI({ tokenDelayMs: 100 });
    t = await createTestApp({ env: { ALLOW_PRIVATE_MODEL_ENDPOINTS: 'true' } });
    team = await buildTeam(t, { phonePrefix: '139420000' });
    await t.call(
      '/api/athena/v1/model_key/create',
      { model_name: 'Chat', version: 'fake-chat', base_url: fake.url, api_key: 'sk-fake', purpose: 'chat' },
      team.as(team.creator),
    );
    workflowId = await savedWorkflow(t, team, 'Many events', iterateThenAsk);
    // A sequence is not rolled back with the refused insert, so it counts the refusals.
    const db = t.database.db;
    await db.execute(sql`CREATE TABLE refuse_budget (n int NOT NULL)`);
    await db.execute(sql`INSERT INTO refuse_budget VALUES (0)`);
    await db.execute(sql`CREATE SEQUENCE refuse_events_seq`);
    await db.execute(sql`
      CREATE FUNCTION refuse_test_events() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF nextval('refuse_events_seq') <= (SELECT n FROM refuse_budget) THEN
          RAISE EXCEPTION 'events refused by the test';
        END IF;
        RETURN NULL;
      END $$`);
    await db.execute(sql`
      CREATE TRIGGER refuse_test_events BEFORE INSERT ON workflow_run_events
      FOR EACH STATEMENT EXECUTE FUNCTION refuse_test_events()`);
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  async function runRefusing(refusals: number) {
    const db = t.database.db;
    await db.execute(sql`SELECT setval('refuse_events_seq', 1, false)`);
    await db.execute(sql`UPDATE refuse_budget SET n = ${refusals}`);
    const items = JSON.stringify(Array.from({ length: 300 }, (_, index) => index));
    const res = await t.app.inject({
      method: 'POST',
      url: s.run.path,
      headers: { 'content-type': 'application/json', ...team.as(team.creator) },
      payload: JSON.stringify({ workflow_id: workflowId, inputs: { items } }),
    });
    const events = parseSse(s.run, res.body);
    const runId = (events[0].data as { run_id: string }).run_id;
    const stored = await db
      .select({ seq: workflowRunEvents.seq })
      .from(workflowRunEvents)
      .where(eq(workflowRunEvents.runId, runId))
      .orderBy(workflowRunEvents.seq);
    const [row] = await db.select().from(workflowRuns).where(eq(workflowRuns.id, runId));
    return { events, stored: stored.map((event) => event.seq), row };
  }

  it('tries a refused batch once more, and the run goes on as if nothing happened', async () => {
    const { events, stored, row } = await runRefusing(1);
    expect(events.length).toBeGreaterThan(600);
    expect(events.some((event) => event.event === 'error')).toBe(false);
    expect(events.at(-1)).toMatchObject({ event: 'run_finished', data: { result: 'succeeded' } });
    expect(stored).toEqual(events.map((_, index) => index + 1));
    expect(row).toMatchObject({ status: 'finished', result: 'succeeded' });
  });

  it('stops a run whose batch is refused twice, and still stores every event it sent', async () => {
    const { events, stored, row } = await runRefusing(2);
    const [error, finished] = events.slice(-2);
    expect(error).toMatchObject({ event: 'error', data: { code: ERRORS.SYSTEM_ERROR.code, kind: 'storage' } });
    expect(finished).toMatchObject({ event: 'run_finished', data: { result: 'failed' } });
    expect((finished.data as { failure: { error: { code: number } } }).failure.error.code).toBe(
      ERRORS.SYSTEM_ERROR.code,
    );
    expect(stored).toEqual(events.map((_, index) => index + 1));
    expect(row).toMatchObject({ status: 'finished', result: 'failed' });
  });
});
