import {
  type Envelope,
  type RouteBody,
  type RouteData,
  type RouteDescriptor,
  workflowRunRoutes as r,
  workflowRunStreams as s,
  type WorkflowGraphInput,
  workflowRoutes,
} from '@athena/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTeam, type TeamFixture } from '../../../testing/fixtures.ts';
import { createTestApp, type TestApp } from '../../../testing/test-app.ts';
import { parseSse } from '../../agent/agent-test-helpers.ts';
import { workflowNodeRuns, workflowRunEvents, workflowRuns } from '../run.schema.ts';
import { runEventsPurgeJob } from './run-events-purge.job.ts';

const HOUR_MS = 60 * 60_000;

const echoGraph: WorkflowGraphInput = {
  nodes: [
    { id: 'start', type: 'start', data: { inputs: [{ name: 'q', type: 'text', required: false }] } },
    { id: 'end', type: 'end', data: { outputs: [{ name: 'a', selector: ['start', 'q'] }] } },
  ],
  edges: [{ id: 'e1', source: 'start', target: 'end' }],
} as WorkflowGraphInput;

describe('workflow run events purge', () => {
  let t: TestApp;
  let team: TeamFixture;
  let shiftMs = 0;

  async function ok<R extends RouteDescriptor>(route: R, body: RouteBody<R>) {
    const answer = (await t.call(route.path, body, team.as(team.creator))).body as Envelope<RouteData<R>>;
    expect(answer.code, `${route.path}: ${answer.msg}`).toBe(0);
    return answer.data;
  }
  const eventsOf = async (runId: string) =>
    (await t.database.db.select().from(workflowRunEvents).where(eq(workflowRunEvents.runId, runId))).length;
  const purge = () => {
    const job = t.app.appModules
      .find((m) => m.name === 'workflow')
      ?.schedules?.find((j) => j.name === 'workflow.run-events-purge');
    if (!job) throw new Error('the workflow module has no run-events purge schedule');
    return job.run();
  };

  beforeAll(async () => {
    t = await createTestApp({ now: () => new Date(Date.now() + shiftMs) });
    team = await buildTeam(t, { phonePrefix: '139310000' });
  }, 60_000);
  afterAll(() => t?.close());

  it('deletes the events of runs finished over a day ago, in batches, and keeps fresh and running ones', async () => {
    const created = await ok(workflowRoutes.create, { name: 'Purged' });
    await ok(workflowRoutes.draftSave, { id: created.id, graph: echoGraph, base_revision: created.draft_revision });
    const run = () => ok(r.runBlocking, { workflow_id: created.id, inputs: { q: 'kept in the row' } });
    const old = await run();
    const oldBatched = await run();
    const oldEvents = await eventsOf(old.run_id);
    expect(oldEvents).toBeGreaterThan(3);
    // A run still running (its process alive) keeps its events however old it is.
    const [running] = await t.database.db
      .insert(workflowRuns)
      .values({
        spaceId: team.teamId,
        workflowId: created.id,
        trigger: 'editor',
        status: 'running',
        createdBy: team.ids.creator,
        progressAt: new Date(),
      })
      .returning();
    const runningEvent = { event: 'run_started', data: { run_id: running.id } };
    await t.database.db.insert(workflowRunEvents).values({ runId: running.id, seq: 1, event: runningEvent });

    await purge();
    shiftMs = 23 * HOUR_MS;
    await purge();
    expect(await eventsOf(old.run_id)).toBe(oldEvents);

    shiftMs = 25 * HOUR_MS;
    const fresh = await run(); // finished "now", 25 h on
    // In batches of 2 events: the job goes on until a batch comes back short.
    await runEventsPurgeJob({ db: t.database.db, now: () => new Date(Date.now() + shiftMs), log: t.app.log }, 2).run();
    expect(await eventsOf(old.run_id)).toBe(0);
    expect(await eventsOf(oldBatched.run_id)).toBe(0);
    expect(await eventsOf(fresh.run_id)).toBeGreaterThan(3);
    expect(await eventsOf(running.id)).toBe(1);
    // A day later the module's own schedule takes the next run's events.
    shiftMs = 50 * HOUR_MS;
    await purge();
    expect(await eventsOf(fresh.run_id)).toBe(0);
    expect(await eventsOf(running.id)).toBe(1);

    // The history keeps everything it shows: the run's row and every node execution.
    const [row] = await t.database.db.select().from(workflowRuns).where(eq(workflowRuns.id, old.run_id));
    expect(row).toMatchObject({ status: 'finished', result: 'succeeded', outputs: { a: 'kept in the row' } });
    const nodes = await t.database.db.select().from(workflowNodeRuns).where(eq(workflowNodeRuns.runId, old.run_id));
    expect(nodes.map((node) => node.nodeId).sort()).toEqual(['end', 'start']);
    // A reconnect to a purged run still ends with its run_finished, made from the row.
    const res = await t.app.inject({
      method: 'POST',
      url: s.events.path,
      headers: { 'content-type': 'application/json', ...team.as(team.creator) },
      payload: JSON.stringify({ run_id: old.run_id }),
    });
    const replay = parseSse(s.events, res.body);
    expect(replay.map((e) => e.event)).toEqual(['run_finished']);
    expect(replay[0].data).toMatchObject({ result: 'succeeded', outputs: { a: 'kept in the row' } });
  });
});
