import {
  type Envelope,
  ERRORS,
  type RouteBody,
  type RouteData,
  type RouteDescriptor,
  teamRoutes,
  workflowTriggerRoutes as tr,
  WORKFLOW_API_RUN_PATH,
  WORKFLOW_HOOK_PATH_PREFIX,
  type WorkflowGraphInput,
  workflowRoutes,
  workflowRunRoutes,
  workflowRunStreams,
} from '@athena/contract';
import { type FakeOpenAI, startFakeOpenAI } from '@athena/fake-openai';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../../platform/db/sql.ts';
import { signWebhook } from '../../../platform/http/webhook-signature.ts';
import { startJobs } from '../../../platform/jobs.ts';
import { buildTeam, type TeamFixture } from '../../../testing/fixtures.ts';
import { createTestApp, type TestApp } from '../../../testing/test-app.ts';
import { parseSse } from '../../agent/agent-test-helpers.ts';
import { TRIGGER_QUEUE } from './trigger-queue.ts';

const code = (key: keyof typeof ERRORS) => ERRORS[key].code;

/** start(q) → llm → end(a = llm.text), answer streaming the model's text. */
const llmGraph: WorkflowGraphInput = {
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

const LIMIT = 3;
const PER_ADDRESS = 20;
const PER_HOOK = 5;

describe('workflow API keys, webhooks and schedules', () => {
  let fake: FakeOpenAI;
  let t: TestApp;
  let team: TeamFixture;
  let stranger: TeamFixture;
  let jobs: Awaited<ReturnType<typeof startJobs>> | undefined;
  // The server's clock: a schedule comes due when the test moves it on. Nothing runs on a timer
  // (no pg-boss schedules, the tick is called here), so moving it cannot sweep a run in flight.
  let clock = Date.now();

  async function call<R extends RouteDescriptor>(route: R, body: RouteBody<R>, token = team.creator) {
    return (await t.call(route.path, body, team.as(token))).body as Envelope<RouteData<R>>;
  }
  async function ok<R extends RouteDescriptor>(route: R, body: RouteBody<R>, token = team.creator) {
    const answer = await call(route, body, token);
    expect(answer.code, `${route.path}: ${answer.msg}`).toBe(0);
    return answer.data;
  }
  async function workflow(options: { publish: boolean }) {
    const created = await ok(workflowRoutes.create, { name: 'Triggered' });
    await ok(workflowRoutes.draftSave, { id: created.id, graph: llmGraph, base_revision: created.draft_revision });
    if (options.publish) await ok(workflowRoutes.publish, { id: created.id, note: '' });
    return created.id;
  }
  const apiRun = (key: string, body: unknown) =>
    t.app.inject({
      method: 'POST',
      url: WORKFLOW_API_RUN_PATH,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      payload: JSON.stringify(body),
    });
  const hook = (path: string, body: string, signature?: string, from = '127.0.0.1') =>
    t.app.inject({
      method: 'POST',
      url: path,
      remoteAddress: from,
      headers: { 'content-type': 'application/json', ...(signature ? { 'x-athena-signature': signature } : {}) },
      payload: body,
    });
  const signed = (secret: string, body: string, at = Math.floor(clock / 1000)) =>
    `t=${at},v1=${signWebhook(secret, at, body)}`;
  async function runOf(workflowId: string, trigger: string) {
    for (let i = 0; i < 100; i++) {
      const { items } = await ok(workflowRunRoutes.list, { workflow_id: workflowId, page: 1, page_size: 20 });
      const run = items.find((item) => item.trigger === trigger && item.status === 'finished');
      if (run) return run;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`no finished ${trigger} run`);
  }
  const countJobs = async (condition: ReturnType<typeof sql>) =>
    rowsOf<{ count: number }>(
      await t.database.db.execute(
        sql`SELECT count(*)::int AS count FROM pgboss.job WHERE name = ${TRIGGER_QUEUE} AND ${condition}`,
      ),
    )[0].count;
  /** The trigger jobs ever queued for a workflow: what a tick or a webhook asked to run. */
  const jobsOf = (workflowId: string) => countJobs(sql`data->>'workflowId' = ${workflowId}`);
  /** Waits until the queue has no job waiting or running; a job ends only once its run has. */
  async function drained() {
    const deadline = Date.now() + 20_000;
    while ((await countJobs(sql`state IN ('created', 'retry', 'active')`)) > 0) {
      if (Date.now() > deadline) throw new Error('the trigger queue was not drained');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  beforeAll(async () => {
    fake = await startFakeOpenAI({ tokenDelayMs: 2 });
    t = await createTestApp({
      env: {
        ALLOW_PRIVATE_MODEL_ENDPOINTS: 'true',
        WORKFLOW_API_CALLS_PER_MINUTE: String(LIMIT),
        WORKFLOW_WEBHOOK_PER_ADDRESS_PER_MINUTE: String(PER_ADDRESS),
        WORKFLOW_WEBHOOK_PER_HOOK_PER_MINUTE: String(PER_HOOK),
      },
      now: () => new Date(clock),
    });
    // The real job runner, with the trigger queue's workers only: the minute schedules (the tick,
    // the runs' sweep) would run on the real clock against the frozen one the test moves.
    const triggerQueue = {
      name: 'workflow-trigger-queue',
      routes: () => {},
      workers: t.app.modules.workflow.triggers.workers,
    };
    jobs = await startJobs(t.database, [triggerQueue], t.app.log);
    team = await buildTeam(t, { phonePrefix: '139310000' });
    stranger = await buildTeam(t, { phonePrefix: '139320000' });
    await t.call(
      '/api/athena/v1/model_key/create',
      { model_name: 'Chat', version: 'fake-chat', base_url: fake.url, api_key: 'sk-fake', purpose: 'chat' },
      team.as(team.creator),
    );
  }, 60_000);
  afterAll(async () => {
    await jobs?.stop();
    await t?.close();
    await fake?.close();
  });

  it('runs the effective version over an API key, blocking and streaming, recorded as api', async () => {
    const workflowId = await workflow({ publish: true });
    const created = await ok(tr.apiKeyCreate, { workflow_id: workflowId, name: 'CI' });
    expect(created.key).toMatch(/^athwf-/);
    const blocking = await apiRun(created.key, { inputs: { q: 'hi' }, response_mode: 'blocking', user: 'u-1' });
    expect(blocking.statusCode).toBe(200);
    const answer = blocking.json();
    expect(answer).toMatchObject({ result: 'succeeded', outputs: { a: 'Echo: hi' }, answer: 'Echo: hi', error: null });
    expect(answer.tokens).toBeGreaterThan(0);
    const detail = await ok(workflowRunRoutes.detail, { run_id: answer.run_id });
    expect(detail.run.trigger).toBe('api');
    expect(detail.run.version_id).not.toBeNull();

    const streaming = await apiRun(created.key, { inputs: { q: 'stream' }, response_mode: 'streaming' });
    expect(streaming.headers['content-type']).toMatch(/^text\/event-stream/);
    const events = parseSse(workflowRunStreams.run, streaming.body);
    expect(events[0]).toMatchObject({ event: 'run_started', data: { trigger: 'api' } });
    expect(events.at(-1)).toMatchObject({ event: 'run_finished', data: { result: 'succeeded' } });

    // Inputs are checked before anything runs.
    const missing = await apiRun(created.key, { inputs: {} });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().code).toBe(code('WORKFLOW_INPUT_REQUIRED'));

    const { items } = await ok(tr.apiKeyList, { workflow_id: workflowId }, team.member);
    expect(items[0]).toMatchObject({ name: 'CI', use_count: 3, revoked: false });
    expect(items[0].last_used_at).not.toBeNull();
    expect(JSON.stringify(items)).not.toContain(created.key);
  });

  it('names the field of a body it refuses', async () => {
    const workflowId = await workflow({ publish: true });
    const { key } = await ok(tr.apiKeyCreate, { workflow_id: workflowId, name: 'fields' });
    const mode = await apiRun(key, { inputs: { q: 'x' }, response_mode: 'fast' });
    expect(mode.statusCode).toBe(400);
    expect(mode.json()).toMatchObject({ code: code('BAD_REQUEST'), key: 'BAD_REQUEST' });
    expect(mode.json().detail).toMatch(/^response_mode: /);
    expect(mode.json().msg).toContain('response_mode: ');
    const inputs = await apiRun(key, { inputs: 'q=x' });
    expect(inputs.json().detail).toMatch(/^inputs: /);
  });

  it('refuses a workflow that is not effective, a revoked key, and too many calls', async () => {
    const draftOnly = await workflow({ publish: false });
    const key = (await ok(tr.apiKeyCreate, { workflow_id: draftOnly, name: 'k' })).key;
    const notEffective = await apiRun(key, { inputs: { q: 'x' } });
    expect(notEffective.statusCode).toBe(409);
    expect(notEffective.json().code).toBe(code('WORKFLOW_NOT_EFFECTIVE'));

    const workflowId = await workflow({ publish: true });
    await ok(workflowRoutes.effectiveSet, { id: workflowId, effective: false });
    const switchedOff = (await ok(tr.apiKeyCreate, { workflow_id: workflowId, name: 'k' })).key;
    expect((await apiRun(switchedOff, { inputs: { q: 'x' } })).json().code).toBe(code('WORKFLOW_NOT_EFFECTIVE'));
    await ok(workflowRoutes.effectiveSet, { id: workflowId, effective: true });
    // A locked workflow still runs.
    await ok(workflowRoutes.lock, { id: workflowId, locked: true });

    const created = await ok(tr.apiKeyCreate, { workflow_id: workflowId, name: 'limited' });
    for (let i = 0; i < LIMIT; i++)
      expect((await apiRun(created.key, { inputs: { q: `n${i}` } })).statusCode).toBe(200);
    const limited = await apiRun(created.key, { inputs: { q: 'one more' } });
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.json().code).toBe(code('RATE_LIMITED'));

    // The member may not revoke the creator's workflow's key; the creator may.
    expect((await call(tr.apiKeyRevoke, { id: created.id }, team.member)).code).toBe(code('FORBIDDEN'));
    await ok(tr.apiKeyRevoke, { id: created.id });
    const revoked = await apiRun(created.key, { inputs: { q: 'x' } });
    expect(revoked.statusCode).toBe(401);
    expect(revoked.json()).toMatchObject({ code: code('WORKFLOW_API_KEY_INVALID'), key: 'WORKFLOW_API_KEY_INVALID' });
    const bogus = await apiRun('athwf-made-up', { inputs: {} });
    expect(bogus.statusCode).toBe(401);
    const none = await t.app.inject({ method: 'POST', url: WORKFLOW_API_RUN_PATH, payload: {} });
    expect(none.statusCode).toBe(401);
    expect(none.json().code).toBe(code('WORKFLOW_API_KEY_INVALID'));
  });

  it('takes a signed webhook, runs it from the queue as webhook, and refuses bad, stale and replayed signatures', async () => {
    const workflowId = await workflow({ publish: true });
    const made = await ok(tr.webhookSet, { workflow_id: workflowId, enabled: true });
    expect(made.secret).toMatch(/^whsec_/);
    const secret = made.secret ?? '';
    const body = JSON.stringify({ q: 'from a hook' });

    const accepted = await hook(made.path, body, signed(secret, body));
    expect(accepted.statusCode, accepted.body).toBe(202);
    const runId = accepted.json().run_id as string;
    const run = await runOf(workflowId, 'webhook');
    expect(run).toMatchObject({ id: runId, result: 'succeeded', outputs: { a: 'Echo: from a hook' } });
    // It went through pg-boss, where any process could have taken it.
    const jobs = rowsOf<{ count: number }>(
      await t.database.db.execute(sql`SELECT count(*)::int AS count FROM pgboss.job WHERE name = ${TRIGGER_QUEUE}`),
    );
    expect(jobs[0].count).toBeGreaterThan(0);

    const replay = await hook(made.path, body, signed(secret, body));
    expect(replay.statusCode).toBe(409);
    expect(replay.json().code).toBe(code('WORKFLOW_WEBHOOK_REPLAYED'));
    const wrong = await hook(made.path, body, signed('whsec_wrong', body));
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().code).toBe(code('WORKFLOW_WEBHOOK_SIGNATURE_INVALID'));
    const tampered = await hook(made.path, JSON.stringify({ q: 'changed' }), signed(secret, body));
    expect(tampered.json().code).toBe(code('WORKFLOW_WEBHOOK_SIGNATURE_INVALID'));
    expect((await hook(made.path, body)).json().code).toBe(code('WORKFLOW_WEBHOOK_SIGNATURE_INVALID'));
    const stale = await hook(made.path, body, signed(secret, body, Math.floor(clock / 1000) - 301));
    expect(stale.statusCode).toBe(401);
    expect(stale.json().code).toBe(code('WORKFLOW_WEBHOOK_SIGNATURE_EXPIRED'));
    const notObject = '[1,2]';
    expect((await hook(made.path, notObject, signed(secret, notObject))).json().code).toBe(
      code('WORKFLOW_WEBHOOK_BODY_INVALID'),
    );
    const big = JSON.stringify({ q: 'x'.repeat(300_000) });
    expect((await hook(made.path, big, signed(secret, big))).statusCode).toBe(413);

    // Rotating the secret: the old one stops working at once.
    const rotated = await ok(tr.webhookRotate, { workflow_id: workflowId });
    const again = JSON.stringify({ q: 'after rotation' });
    expect((await hook(made.path, again, signed(secret, again))).statusCode).toBe(401);
    expect((await hook(made.path, again, signed(rotated.secret, again))).statusCode).toBe(202);
    // Turned off, the hook is unknown.
    await ok(tr.webhookSet, { workflow_id: workflowId, enabled: false });
    const off = JSON.stringify({ q: 'off' });
    const refused = await hook(made.path, off, signed(rotated.secret, off));
    expect(refused.statusCode).toBe(404);
    expect(refused.json().code).toBe(code('WORKFLOW_WEBHOOK_NOT_FOUND'));
    const shown = await ok(tr.webhookGet, { workflow_id: workflowId }, team.member);
    expect(shown).toMatchObject({ enabled: false, path: made.path });
    expect(JSON.stringify(shown)).not.toContain(rotated.secret);
    await drained();
  });

  it('limits webhook calls per address before the lookup, and valid calls per hook', async () => {
    // Per address (IPv6 by its /64), whatever the path: made-up hooks cost a lookup too.
    const unknown = `${WORKFLOW_HOOK_PATH_PREFIX}made-up`;
    for (let i = 0; i < PER_ADDRESS; i++) {
      expect((await hook(unknown, '{}', undefined, `2001:db8:5:7::${i + 1}`)).statusCode).toBe(404);
    }
    const workflowId = await workflow({ publish: true });
    const made = await ok(tr.webhookSet, { workflow_id: workflowId, enabled: true });
    const secret = made.secret ?? '';
    const body = JSON.stringify({ q: 'from a busy address' });
    const busy = await hook(made.path, body, signed(secret, body), '2001:db8:5:7:ffff::9');
    expect(busy.statusCode).toBe(429);
    expect(Number(busy.headers['retry-after'])).toBeGreaterThan(0);
    expect(busy.json()).toMatchObject({ code: code('RATE_LIMITED'), key: 'RATE_LIMITED' });
    // Another /64 is another address; the refused call was not remembered and goes through.
    expect((await hook(made.path, body, signed(secret, body), '2001:db8:5:8::1')).statusCode).toBe(202);

    // Per hook, counting only calls whose signature holds: forgeries use up nothing.
    for (let i = 0; i < 3; i++) {
      expect((await hook(made.path, body, signed('whsec_forged', body), '198.51.100.9')).statusCode).toBe(401);
    }
    for (let i = 1; i < PER_HOOK; i++) {
      const next = JSON.stringify({ q: `call ${i}` });
      expect((await hook(made.path, next, signed(secret, next), '198.51.100.9')).statusCode).toBe(202);
    }
    const extra = JSON.stringify({ q: 'one too many' });
    const limited = await hook(made.path, extra, signed(secret, extra), '198.51.100.10');
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.json().code).toBe(code('RATE_LIMITED'));
    expect(await jobsOf(workflowId)).toBe(PER_HOOK);
    await drained();
  });

  it('validates schedules, shows the next fire times, and fires a due one once as schedule', async () => {
    const workflowId = await workflow({ publish: true });
    const set = (cron: string, timezone = 'UTC', enabled = true) =>
      call(tr.scheduleSet, { workflow_id: workflowId, cron, timezone, inputs: { q: 'on time' }, enabled });
    expect((await set('* * * * * *')).code).toBe(code('WORKFLOW_CRON_INVALID'));
    expect((await set('61 * * * *')).code).toBe(code('WORKFLOW_CRON_INVALID'));
    expect((await set('0 0 31 2 *')).code).toBe(code('WORKFLOW_CRON_INVALID'));
    expect((await set('0 9 * * *', 'Mars/Base')).code).toBe(code('WORKFLOW_TIMEZONE_INVALID'));
    expect(
      (
        await call(
          tr.scheduleSet,
          { workflow_id: workflowId, cron: '* * * * *', timezone: 'UTC', inputs: {}, enabled: true },
          team.member,
        )
      ).code,
    ).toBe(code('FORBIDDEN'));

    const daily = await set('0 9 * * *', 'Asia/Shanghai');
    expect(daily.code).toBe(0);
    expect(daily.data.next_fires).toHaveLength(3);
    for (const fire of daily.data.next_fires) expect(fire).toMatch(/T01:00:00\.000Z$/);
    const preview = await ok(tr.schedulePreview, { cron: '*/5 * * * *', timezone: 'UTC' }, team.member);
    expect(preview.next_fires).toHaveLength(3);

    const everyMinute = await set('* * * * *');
    expect(everyMinute.code).toBe(0);
    const fires = t.app.modules.workflow.triggers.fire;
    await fires.tick();
    // Not due yet: nothing was queued (the tick queues before it returns).
    expect(await jobsOf(workflowId)).toBe(0);
    clock += 61_000;
    // Two ticks at once (two processes): the schedule fires once.
    await Promise.all([fires.tick(), fires.tick()]);
    expect(await jobsOf(workflowId)).toBe(1);
    await drained();
    const run = await runOf(workflowId, 'schedule');
    expect(run).toMatchObject({ result: 'succeeded', outputs: { a: 'Echo: on time' } });
    const after = await ok(workflowRunRoutes.list, { workflow_id: workflowId, page: 1, page_size: 20 });
    expect(after.items.filter((item) => item.trigger === 'schedule')).toHaveLength(1);
    const shown = await ok(tr.scheduleGet, { workflow_id: workflowId });
    expect(shown?.last_run_id).toBe(run.id);

    // Disabled, it no longer fires; deleting the workflow takes the schedule with it.
    await set('* * * * *', 'UTC', false);
    clock += 120_000;
    await fires.tick();
    const disabled = await ok(tr.scheduleGet, { workflow_id: workflowId });
    expect(disabled).toMatchObject({ enabled: false, next_fires: [] });
    expect(await jobsOf(workflowId)).toBe(1);
    await drained();
    const still = await ok(workflowRunRoutes.list, { workflow_id: workflowId, page: 1, page_size: 20 });
    expect(still.total).toBe(1);
    await set('* * * * *');
    await ok(workflowRoutes.delete, { id: workflowId });
    clock += 120_000;
    await fires.tick();
    expect(await jobsOf(workflowId)).toBe(1);
  });

  it('keeps another team out of the triggers', async () => {
    const workflowId = await workflow({ publish: true });
    const key = await ok(tr.apiKeyCreate, { workflow_id: workflowId, name: 'mine' });
    const as = stranger.as(stranger.creator);
    const tries = [
      [tr.apiKeyList.path, { workflow_id: workflowId }],
      [tr.apiKeyCreate.path, { workflow_id: workflowId, name: 'theirs' }],
      [tr.webhookSet.path, { workflow_id: workflowId, enabled: true }],
      [tr.webhookGet.path, { workflow_id: workflowId }],
      [tr.scheduleSet.path, { workflow_id: workflowId, cron: '* * * * *', timezone: 'UTC', inputs: {}, enabled: true }],
    ] as const;
    for (const [path, body] of tries) {
      expect((await t.call(path, body, as)).body.code, path).toBe(code('WORKFLOW_NOT_FOUND'));
    }
    expect((await t.call(tr.apiKeyRevoke.path, { id: key.id }, as)).body.code).toBe(code('NOT_FOUND'));
    expect((await apiRun(key.key, { inputs: { q: 'still works' } })).statusCode).toBe(200);
  });

  // Each lookup reads the team's state in the same query (trigger.repo.ts), so no cache on any
  // process can keep a dissolved team's trigger alive.
  it("refuses a dissolved team's workflow API key and webhook as unknown, and never fires its schedule", async () => {
    const gone = await buildTeam(t, { phonePrefix: '139330000', name: 'Dissolved triggers' });
    const inGone = gone.as(gone.creator);
    const goneOk = async <R extends RouteDescriptor>(route: R, body: RouteBody<R>) => {
      const answer = (await t.call(route.path, body, inGone)).body as Envelope<RouteData<R>>;
      expect(answer.code, `${route.path}: ${answer.msg}`).toBe(0);
      return answer.data;
    };
    await t.call(
      '/api/athena/v1/model_key/create',
      { model_name: 'Chat', version: 'fake-chat', base_url: fake.url, api_key: 'sk-fake', purpose: 'chat' },
      inGone,
    );
    const created = await goneOk(workflowRoutes.create, { name: 'Doomed' });
    await goneOk(workflowRoutes.draftSave, { id: created.id, graph: llmGraph, base_revision: created.draft_revision });
    await goneOk(workflowRoutes.publish, { id: created.id, note: '' });
    const { key } = await goneOk(tr.apiKeyCreate, { workflow_id: created.id, name: 'CI' });
    const hooked = await goneOk(tr.webhookSet, { workflow_id: created.id, enabled: true });
    const secret = hooked.secret ?? '';
    const body = (q: string) => JSON.stringify({ q });
    expect((await apiRun(key, { inputs: { q: 'before' } })).statusCode).toBe(200);
    expect((await hook(hooked.path, body('before'), signed(secret, body('before')))).statusCode).toBe(202);
    await goneOk(tr.scheduleSet, {
      workflow_id: created.id,
      cron: '* * * * *',
      timezone: 'UTC',
      inputs: { q: 'on time' },
      enabled: true,
    });
    await drained();
    const queued = await jobsOf(created.id);

    await goneOk(teamRoutes.dissolve, { confirm_name: 'Dissolved triggers', forfeit_balance: false });
    const byKey = await apiRun(key, { inputs: { q: 'after' } });
    expect(byKey.statusCode).toBe(401);
    expect(byKey.json().code).toBe(code('WORKFLOW_API_KEY_INVALID'));
    const byHook = await hook(hooked.path, body('after'), signed(secret, body('after')));
    expect(byHook.statusCode).toBe(404);
    expect(byHook.json().code).toBe(code('WORKFLOW_WEBHOOK_NOT_FOUND'));
    // The schedule is due now, and is passed over.
    clock += 120_000;
    await t.app.modules.workflow.triggers.fire.tick();
    expect(await jobsOf(created.id)).toBe(queued);
  });
});
