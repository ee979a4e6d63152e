import {
  ERRORS,
  workflowRunRoutes as r,
  workflowRunStreams as s,
  type WorkflowGraphInput,
  workflowRoutes,
} from '@athena/contract';
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
    const created = await t.call(workflowRoutes.create, { name: 'Echo' }, team.as(team.creator));
    workflowId = created.body.data.id;
    const saved = await t.call(
      workflowRoutes.draftSave,
      { id: workflowId, graph: echoGraph, base_revision: created.body.data.draft_revision },
      team.as(team.creator),
    );
    expect(saved.body.code).toBe(0);
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
