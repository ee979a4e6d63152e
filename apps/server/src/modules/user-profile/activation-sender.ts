import { createHash } from 'node:crypto';
import { and, eq, lte, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type PgBoss from 'pg-boss';
import type { Db } from '../../platform/db/database.ts';
import { rowsOf } from '../../platform/db/sql.ts';
import { AppError } from '../../platform/http/app-error.ts';
import type { QueueWorker } from '../../platform/module.ts';
import type { ChatHistoryModule } from '../chat-history/index.ts';
import { activationEvents } from './activation.schema.ts';
import type { ActivationWriter } from './activation-writer.ts';

export const ACTIVATION_QUEUE = 'profile-activation';
/** Sends one sender claims at once: few, so a dead sender holds little and others share the work. */
const CLAIM_BATCH = 20;
/** Longer than writing and sending one batch takes; a sender that died lets its rows go after it. */
const LEASE_MS = 5 * 60_000;
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
export const activationMsgid = (eventId: string, customerId: number) =>
  `act${createHash('sha256').update(`${eventId}:${customerId}`).digest('base64url').slice(0, 29)}`;

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
  async function claim(eventId: string, limit = CLAIM_BATCH): Promise<Claimed[]> {
    const time = now();
    const claimed = rowsOf<Claimed>(
      await db.execute(sql`
        update activation_sends s set leased_until = ${at(new Date(time.getTime() + LEASE_MS))}, attempts = s.attempts + 1
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
    return claimed.sort((x, y) => Number(x.customer_id) - Number(y.customer_id));
  }

  async function finish(row: Claimed, outcome: Outcome) {
    const time = now();
    const key = sql`event_id = ${row.event_id}::uuid and customer_id = ${Number(row.customer_id)} and state = 'pending'`;
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

  /** Writes and sends one customer's message; what came of it, never thrown. */
  async function sendOne(event: EventFacts, customerId: number): Promise<Outcome> {
    const written = await deps.writer.write(event, customerId, event, event.createdBy);
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
      // Another attempt was in the middle of sending it when it stopped: WeCom may have it. Not
      // sent again, so the customer never gets it twice.
      if (message?.status === 'sending') return { state: 'failed', reason: 'send_unconfirmed', transient: false };
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

  /** Ends a sending event with nothing left pending; otherwise looks again when the next retry is due. */
  async function settle(eventId: string) {
    const [next] = rowsOf<{ due: Date | string | null; pending: number | string }>(
      await db.execute(sql`
        select min(scheduled_at) as due, count(*) as pending from activation_sends
        where event_id = ${eventId}::uuid and state = 'pending'`),
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

  /** Sends what is due of one event, batch after batch, until nothing due is left unheld. */
  async function runEvent(eventId: string) {
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
    for (;;) {
      const event = await eventOf(eventId);
      if (!event || (event.status !== 'sending' && event.status !== 'cancelled')) return;
      const rows = await claim(eventId);
      if (rows.length === 0) break;
      for (const row of rows) {
        // Cancelled meanwhile: what this sender holds is failed here (the cancel left it to us).
        const current = await eventOf(eventId);
        const outcome: Outcome =
          current?.status === 'cancelled'
            ? { state: 'failed', reason: 'cancelled', transient: false }
            : await sendOne(event, Number(row.customer_id));
        await finish(row, outcome);
        if (outcome.state === 'sent') await sleep(SEND_GAP_MS);
      }
    }
    await settle(eventId);
  }

  /** Every event that is due and not finished (the sweep: jobs lost to a restart are covered here). */
  async function runDue() {
    const due = await db
      .select({ id: activationEvents.id })
      .from(activationEvents)
      .where(and(sql`${activationEvents.status} in ('scheduled', 'sending')`, lte(activationEvents.sendAt, now())));
    for (const { id } of due) await runEvent(id);
  }

  /** Asks pg-boss to run the event at `when`; without the job runner the sweep finds it. */
  async function schedule(eventId: string, when: Date) {
    if (!boss) return;
    await boss.send(ACTIVATION_QUEUE, { eventId }, { startAfter: when, retryLimit: 2, retryDelay: 60 });
    if (workId && when.getTime() <= now().getTime()) boss.notifyWorker(workId);
  }

  const worker: QueueWorker = {
    name: ACTIVATION_QUEUE,
    async start(instance) {
      await instance.createQueue(ACTIVATION_QUEUE, { name: ACTIVATION_QUEUE, expireInSeconds: 60 * 60 });
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

  return { worker, schedule, runEvent, runDue, claim };
}

export type ActivationSender = ReturnType<typeof createActivationSender>;
