import { and, eq, lte, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type PgBoss from 'pg-boss';
import type { Db } from '../../platform/db/database.ts';
import { rowsOf } from '../../platform/db/sql.ts';
import { AppError } from '../../platform/http/app-error.ts';
import type { QueueWorker } from '../../platform/module.ts';
import { wecomMsgid } from '../../platform/wecom/msgid.ts';
import type { ChatHistoryModule } from '../chat-history/index.ts';
import { activationEvents } from './activation.schema.ts';
import type { ActivationWriter, WriteContext } from './activation-writer.ts';

export const ACTIVATION_QUEUE = 'profile-activation';
/**
 * Sends one sender claims at once: few, so a dead sender holds little and others share the work. An
 * agent's message takes up to a minute to write, so its batches are smaller; each row's lease is
 * also renewed just before it is written and sent (a batch may outlive its first lease).
 */
const CLAIM_BATCH = { template: 20, agent: 3 } as const;
/** Longer than writing and sending one message takes; a sender that died lets its rows go after it. */
const LEASE_MS = 5 * 60_000;
/**
 * One job sends for at most this long, then leaves the rest to a next job of the event: well under
 * the queue's expiry, so pg-boss never retries a job that is still sending.
 */
const RUN_MS = 10 * 60_000;
/** Attempts per customer: the first, then two retries of a transient failure. */
export const MAX_ATTEMPTS = 3;
/** Waits before the second and third attempts. */
const BACKOFF_MS = [60_000, 5 * 60_000];
/**
 * Pace of one sender: at most 10 messages a second. WeCom counts send_msg calls per corp; this
 * stays well under its limits, and the 48-hour window (5 messages per customer message) is checked
 * per conversation by the reply sender.
 */
const SEND_GAP_MS = 100;
/** WeCom's errcodes that mean "not now" (system busy, call frequency) rather than "never". */
const TRANSIENT_ERRCODES = new Set([-1, 45009, 45033]);

type ReplySender = ChatHistoryModule['replySender'];
interface Claimed {
  event_id: string;
  customer_id: number | string;
  attempts: number;
  /**
   * The `leased_until` this sender wrote: its token. A row is renewed and finished only while it
   * still holds that value, so a sender whose lease ran out (and was claimed again) changes nothing.
   */
  lease: Date;
}
interface EventFacts {
  id: string;
  spaceId: string;
  sceneId: number;
  name: string;
  mode: 'template' | 'agent';
  body: string;
  status: string;
  createdBy: string | null;
}
type Outcome = { state: 'sent' } | { state: 'failed'; reason: string; transient: boolean };

/** Our WeCom msgid of one customer's message of one event: the same on every attempt and process. */
export const activationMsgid = (eventId: string, customerId: number) => wecomMsgid('act', eventId, customerId);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Sends activation events (docs/user-profiles.md, Activation events). The sends table is the
 * durable state; pg-boss only says when to look. A sender claims a few due sends with a lease
 * (FOR UPDATE SKIP LOCKED, counting the attempt), writes each message, and sends it through chat
 * history's reply sender with a msgid derived from event and customer: the reply sender stores it
 * once and does not send a msgid twice, so a retry after a crash (or two senders at once) cannot
 * message a customer twice.
 */
export function createActivationSender(deps: {
  db: Db;
  writer: ActivationWriter;
  replies: ReplySender;
  now: () => Date;
  log: FastifyBaseLogger;
}) {
  const { db, now } = deps;
  let boss: PgBoss | null = null;
  let workId: string | null = null;
  const at = (date: Date) => sql`${date.toISOString()}::timestamptz`;

  async function eventOf(id: string): Promise<EventFacts | null> {
    const [row] = await db
      .select({
        id: activationEvents.id,
        spaceId: activationEvents.spaceId,
        sceneId: activationEvents.sceneId,
        name: activationEvents.name,
        mode: activationEvents.mode,
        body: activationEvents.body,
        status: activationEvents.status,
        createdBy: activationEvents.createdBy,
      })
      .from(activationEvents)
      .where(eq(activationEvents.id, id));
    return row ?? null;
  }

  /** Due sends of the event that no live sender holds, now held by this one. */
  async function claim(eventId: string, limit: number = CLAIM_BATCH.template): Promise<Claimed[]> {
    const time = now();
    const lease = new Date(time.getTime() + LEASE_MS);
    const claimed = rowsOf<Omit<Claimed, 'lease'>>(
      await db.execute(sql`
        update activation_sends s set leased_until = ${at(lease)}, attempts = s.attempts + 1
        where (s.event_id, s.customer_id) in (
          select event_id, customer_id from activation_sends
          where event_id = ${eventId}::uuid and state = 'pending' and scheduled_at <= ${at(time)}
            and (leased_until is null or leased_until < ${at(time)})
          order by scheduled_at, customer_id
          limit ${limit}
          for update skip locked)
        returning s.event_id, s.customer_id, s.attempts`),
    );
    // RETURNING keeps no order; sent in customer order, a batch is the same on every run.
    return claimed.map((row) => ({ ...row, lease })).sort((x, y) => Number(x.customer_id) - Number(y.customer_id));
  }

  /** The row, still pending and held by this sender's lease. */
  const held = (row: Claimed) =>
    sql`event_id = ${row.event_id}::uuid and customer_id = ${Number(row.customer_id)} and state = 'pending'
      and leased_until = ${at(row.lease)}`;

  /** A fresh lease on the row before it is written and sent; false when another sender has it now. */
  async function renew(row: Claimed) {
    const lease = new Date(now().getTime() + LEASE_MS);
    const renewed = rowsOf(
      await db.execute(sql`update activation_sends set leased_until = ${at(lease)} where ${held(row)} returning 1`),
    );
    if (renewed.length === 0) return false;
    row.lease = lease;
    return true;
  }

  async function finish(row: Claimed, outcome: Outcome) {
    const time = now();
    const key = held(row);
    if (outcome.state === 'failed' && outcome.transient && row.attempts < MAX_ATTEMPTS) {
      const wait = BACKOFF_MS[row.attempts - 1] ?? BACKOFF_MS.at(-1) ?? 60_000;
      await db.execute(sql`
        update activation_sends set reason = ${outcome.reason}, leased_until = null,
          scheduled_at = ${at(new Date(time.getTime() + wait))}
        where ${key}`);
      return;
    }
    await db.execute(sql`
      update activation_sends set state = ${outcome.state}, reason = ${outcome.state === 'failed' ? outcome.reason : null},
        finished_at = ${at(time)}, leased_until = null
      where ${key}`);
  }

  /** The customer's most recently active private conversation in the scene, with its channel. */
  async function conversationOf(event: EventFacts, customerId: number) {
    const [row] = rowsOf<{ id: number | string }>(
      await db.execute(sql`
        select id from chat_conversations
        where customer_id = ${customerId} and space_id = ${event.spaceId}::uuid and scene_id = ${event.sceneId}
          and chat_type = 'private'
        order by last_message_at desc, id desc limit 1`),
    );
    return row ? deps.replies.conversationOf(event, Number(row.id)) : null;
  }

  /** How an earlier attempt's message stands in the chat (found by its msgid), or null when none was stored. */
  async function earlierAttempt(event: EventFacts, customerId: number) {
    const [row] = rowsOf<{ status: string }>(
      await db.execute(sql`
        select status from chat_messages
        where space_id = ${event.spaceId}::uuid and scene_id = ${event.sceneId}
          and source_msg_id = ${activationMsgid(event.id, customerId)}
        limit 1`),
    );
    return row?.status ?? null;
  }

  /** Writes and sends one customer's message; what came of it, never thrown. */
  async function sendOne(event: EventFacts, context: WriteContext, customerId: number): Promise<Outcome> {
    // An earlier attempt sent it, or is sending it: nothing to write (an agent is not paid twice).
    const earlier = await earlierAttempt(event, customerId);
    if (earlier === 'sent') return { state: 'sent' };
    if (earlier === 'sending') return { state: 'failed', reason: 'send_unconfirmed', transient: true };
    const written = await deps.writer.write(event, customerId, event, event.createdBy, context);
    if (!written.ok) {
      if (written.reason === 'variable_empty') {
        return { state: 'failed', reason: `variable_empty: ${written.empty.join(', ')}`, transient: false };
      }
      return { state: 'failed', reason: `model_failed: ${written.detail}`, transient: written.transient };
    }
    const conversation = await conversationOf(event, customerId);
    if (!conversation) return { state: 'failed', reason: 'no_conversation', transient: false };
    try {
      const message = await deps.replies.send(event, conversation, {
        content: written.text,
        sendType: event.mode === 'agent' ? 'ai_full' : 'fixed',
        senderName: event.name,
        msgid: activationMsgid(event.id, customerId),
      });
      if (message?.status === 'sent') return { state: 'sent' };
      // Another attempt was in the middle of sending it (or stopped there): WeCom may have it. Not
      // sent again, so the customer never gets it twice; looked at again after the backoff, in
      // case that attempt still records its outcome, and failed only when the attempts run out.
      if (message?.status === 'sending') return { state: 'failed', reason: 'send_unconfirmed', transient: true };
      const reason = message?.failReason ?? '';
      const errcode = /errcode (-?\d+)/.exec(reason)?.[1];
      if (errcode === undefined) return { state: 'failed', reason: `wecom_unreachable: ${reason}`, transient: true };
      return {
        state: 'failed',
        reason: `wecom_rejected: ${reason}`,
        transient: TRANSIENT_ERRCODES.has(Number(errcode)),
      };
    } catch (error) {
      if (error instanceof AppError) {
        if (error.key === 'CHAT_REPLY_UNSUPPORTED')
          return { state: 'failed', reason: 'channel_cannot_send', transient: false };
        if (error.key === 'CHAT_REPLY_WINDOW_CLOSED')
          return { state: 'failed', reason: 'window_closed', transient: false };
        if (error.key === 'CHAT_REPLY_LIMIT_REACHED') {
          return { state: 'failed', reason: 'reply_limit_reached', transient: false };
        }
      }
      deps.log.warn({ err: error, event: event.id, customer: customerId }, 'activation send failed');
      return {
        state: 'failed',
        reason: `wecom_unreachable: ${String((error as Error)?.message ?? error).slice(0, 200)}`,
        transient: true,
      };
    }
  }

  /**
   * Ends a sending event with nothing left pending; otherwise looks again when the earliest pending
   * send can be claimed: its retry time, or when another sender's lease on it runs out (never a
   * time already past while another holds it, which would only wake this worker again and again).
   */
  async function settle(eventId: string) {
    const [next] = rowsOf<{ due: Date | string | null; pending: number | string }>(
      await db.execute(sql`
        select min(greatest(scheduled_at, coalesce(leased_until, scheduled_at))) as due, count(*) as pending
        from activation_sends where event_id = ${eventId}::uuid and state = 'pending'`),
    );
    if (Number(next?.pending ?? 0) === 0) {
      await db
        .update(activationEvents)
        .set({ status: 'done', finishedAt: now() })
        .where(and(eq(activationEvents.id, eventId), eq(activationEvents.status, 'sending')));
      return;
    }
    if (next?.due) await schedule(eventId, new Date(next.due));
  }

  /** Fails the held row as cancelled, or writes and sends its message, and records what came of it. */
  async function sendHeld(event: EventFacts, context: WriteContext, row: Claimed, cancelled: boolean) {
    if (cancelled) return finish(row, { state: 'failed', reason: 'cancelled', transient: false });
    // The lease may have run out while earlier rows of the batch were written: not ours any more.
    if (!(await renew(row))) return;
    const outcome = await sendOne(event, context, Number(row.customer_id));
    await finish(row, outcome);
    if (outcome.state === 'sent') await sleep(SEND_GAP_MS);
  }

  /**
   * Sends what is due of one event, batch after batch, until nothing due is left unheld or RUN_MS
   * has passed (then a next job goes on). The fields and the model are read once per run, and
   * whether the event was cancelled once per batch (the cancel leaves the rows a sender holds to it).
   */
  async function runEvent(eventId: string) {
    await cancelDissolved(eventId);
    await db
      .update(activationEvents)
      .set({ status: 'sending' })
      .where(
        and(
          eq(activationEvents.id, eventId),
          eq(activationEvents.status, 'scheduled'),
          lte(activationEvents.sendAt, now()),
        ),
      );
    const event = await eventOf(eventId);
    if (!event || (event.status !== 'sending' && event.status !== 'cancelled')) return;
    const context = await deps.writer.contextOf(event, event.mode);
    const started = Date.now();
    let status = event.status;
    for (;;) {
      if (Date.now() - started > RUN_MS) {
        await schedule(eventId, now());
        return;
      }
      const rows = await claim(eventId, CLAIM_BATCH[event.mode]);
      if (rows.length === 0) break;
      if (status !== 'cancelled') status = (await eventOf(eventId))?.status ?? 'cancelled';
      for (const row of rows) await sendHeld(event, context, row, status === 'cancelled');
    }
    await settle(eventId);
  }

  /**
   * A dissolved team messages no one any more: its unfinished events (one, or all) end cancelled,
   * as if cancelled by hand, and their pending sends then fail as cancelled like any cancelled
   * event's. Nothing of theirs is written by the agent or sent through WeCom.
   */
  async function cancelDissolved(eventId: string | null) {
    await db.execute(sql`
      update activation_events e set status = 'cancelled', finished_at = ${at(now())}
      from spaces s
      where s.id = e.space_id and s.dissolved_at is not null and e.status in ('scheduled', 'sending')
        and (${eventId}::uuid is null or e.id = ${eventId}::uuid)`);
  }

  /** Fails the pending sends of cancelled events that no live sender holds (one that died held them). */
  async function releaseCancelled() {
    const time = now();
    await db.execute(sql`
      update activation_sends s set state = 'failed', reason = 'cancelled', finished_at = ${at(time)}, leased_until = null
      from activation_events e
      where e.id = s.event_id and e.status = 'cancelled' and s.state = 'pending'
        and (s.leased_until is null or s.leased_until < ${at(time)})`);
  }

  /**
   * The minute's sweep: fails what cancelled events left pending, and makes sure every due
   * unfinished event has a job (one whose job was lost to a restart gets one; one that has a job
   * keeps it, as the queue holds one waiting job per event). It sends nothing itself, so one long
   * event holds up no other. Without the job runner (tests, a process without one) it sends here.
   */
  async function runDue() {
    await cancelDissolved(null);
    await releaseCancelled();
    const due = await db
      .select({ id: activationEvents.id })
      .from(activationEvents)
      .where(and(sql`${activationEvents.status} in ('scheduled', 'sending')`, lte(activationEvents.sendAt, now())));
    for (const { id } of due) {
      if (boss) await schedule(id, now());
      else await runEvent(id);
    }
  }

  /**
   * Asks pg-boss to run the event at `when`; without the job runner the sweep finds it. The queue's
   * policy is `short` and the event's id the singleton key: at most one job waits per event (another
   * send is dropped). Not `stately`: its one-active-job rule is a unique index that makes a fetch
   * fail (and stall the queue) when a due job's twin is still running in another process; two jobs
   * of one event at once are safe anyway, the leases keep their rows apart.
   */
  async function schedule(eventId: string, when: Date) {
    if (!boss) return;
    await boss.send(
      ACTIVATION_QUEUE,
      { eventId },
      { startAfter: when, singletonKey: eventId, retryLimit: 2, retryDelay: 60 },
    );
    if (workId && when.getTime() <= now().getTime()) boss.notifyWorker(workId);
  }

  const worker: QueueWorker = {
    name: ACTIVATION_QUEUE,
    async start(instance) {
      const queue = { name: ACTIVATION_QUEUE, policy: 'short', expireInSeconds: 30 * 60 } as const;
      await instance.createQueue(ACTIVATION_QUEUE, queue);
      // A queue made before it had this policy gets it (createQueue leaves an existing one alone).
      await instance.updateQueue(ACTIVATION_QUEUE, queue);
      workId = await instance.work<{ eventId: string }>(
        ACTIVATION_QUEUE,
        { batchSize: 1, pollingIntervalSeconds: 2 },
        async ([job]) => {
          if (job) await runEvent(job.data.eventId);
        },
      );
      boss = instance;
    },
    async stop() {
      const instance = boss;
      boss = null;
      if (instance && workId) await instance.offWork({ id: workId });
      workId = null;
    },
  };

  // claim and finish are a sender's steps, there for the tests of what two senders do to one row.
  return { worker, schedule, runEvent, runDue, claim, finish };
}

export type ActivationSender = ReturnType<typeof createActivationSender>;
