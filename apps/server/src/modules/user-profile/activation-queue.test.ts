import { type ActivationEvent, type ActivationTemplate, activationRoutes as a } from '@athena/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../platform/db/sql.ts';
import { buildTeam, type TeamFixture } from '../../testing/fixtures.ts';
import { createTestApp, type TestApp } from '../../testing/test-app.ts';
import { ACTIVATION_QUEUE } from './activation-sender.ts';

const HOUR = 3_600_000;
const LEASE_MS = 5 * 60_000;

/**
 * The activation queue with the real job runner (pg-boss on the test database): one waiting job
 * per event, a sweep that queues and does not send, and no job for a time already past while
 * another sender holds the rows. The app's clock runs an hour and more ahead of the real one, so
 * the worker never starts these jobs: the test reads them as they wait.
 */
describe('activation queue: one waiting job per event, queued by the sweep and timed by the leases', () => {
  let t: TestApp;
  let team: TeamFixture;
  let clock = Date.now();
  const admin = () => ({ ...team.as(team.admin), 'scene-id': '5' });
  const sender = () => t.app.modules.userProfile.activationSender;
  const waiting = async (eventId: string) =>
    rowsOf<{ start_after: Date | string }>(
      await t.database.db.execute(sql`
        select start_after from pgboss.job
        where name = ${ACTIVATION_QUEUE} and singleton_key = ${eventId} and state = 'created'`),
    ).map((row) => new Date(row.start_after).getTime());
  const loseJobs = () => t.database.db.execute(sql`delete from pgboss.job where name = ${ACTIVATION_QUEUE}`);
  const pending = async (eventId: string) =>
    Number(
      rowsOf<{ n: number }>(
        await t.database.db.execute(
          sql`select count(*)::int as n from activation_sends where event_id = ${eventId}::uuid and state = 'pending'`,
        ),
      )[0]?.n,
    );

  beforeAll(async () => {
    t = await createTestApp({ jobs: true, now: () => new Date(clock) });
    team = await buildTeam(t, { phonePrefix: '135515100' });
    // The minute's sweep is called by the test, not by the cron (whose minute could fall mid-test).
    await t.database.db.execute(sql`delete from pgboss.schedule where name = 'profile-activation-sweep'`);
  });
  afterAll(async () => {
    await t.close();
  });

  it('keeps one waiting job per event, has the sweep queue a lost one without sending, and waits for a lease to pass', async () => {
    await t.database.db.execute(sql`
      insert into chat_customers (space_id, scene_id, source_id, name)
      select ${team.teamId}::uuid, 5, 'queue-' || n, 'Queue ' || n from generate_series(1, 3) n`);
    const ids = rowsOf<{ id: string }>(
      await t.database.db.execute(
        sql`select id::text as id from chat_customers where space_id = ${team.teamId}::uuid and source_id like 'queue-%'`,
      ),
    ).map((row) => row.id);
    const made = (
      await t.call(a.templateCreate, { name: '排队', mode: 'template', body: '{{customer_name}}，您好' }, admin())
    ).body.data as ActivationTemplate;
    const created = await t.call(
      a.eventCreate,
      { name: '排队', template_id: made.id, audience: { customer_ids: ids }, send_at: clock + HOUR },
      admin(),
    );
    expect(created.body.code, created.body.msg).toBe(0);
    const event = created.body.data as ActivationEvent;
    // Creating it queued one job at its send time; asking again adds none.
    expect(await waiting(event.id)).toEqual([clock + HOUR]);
    await sender().schedule(event.id, new Date(clock + HOUR));
    expect(await waiting(event.id)).toHaveLength(1);

    // Due, and its job lost (a restart): the sweep queues one, once, and sends nothing itself.
    clock += HOUR;
    await loseJobs();
    await sender().runDue();
    await sender().runDue();
    expect(await waiting(event.id)).toEqual([clock]);
    expect(await pending(event.id)).toBe(3);

    // Another sender holds every row: the run finds nothing to claim and looks again when that
    // lease passes, not at the (past) send time, which would wake the worker again and again.
    expect(await sender().claim(event.id)).toHaveLength(3);
    await loseJobs();
    await sender().runEvent(event.id);
    expect(await waiting(event.id)).toEqual([clock + LEASE_MS]);
    await sender().runEvent(event.id);
    expect(await waiting(event.id)).toHaveLength(1);
    expect(await pending(event.id)).toBe(3);
  });
});
