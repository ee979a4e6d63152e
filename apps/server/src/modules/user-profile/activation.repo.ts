import type { ActivationSendState } from '@athena/contract';
import { and, asc, desc, eq, sql } from 'drizzle-orm';
import { isUuid } from '../../platform/crypto.ts';
import type { Db } from '../../platform/db/database.ts';
import { rowsOf, type Tx } from '../../platform/db/sql.ts';
import { AppError } from '../../platform/http/app-error.ts';
import { users } from '../auth/auth.schema.ts';
import { activationEvents, activationTemplates } from './activation.schema.ts';
import { activationMsgid } from './activation-sender.ts';
import type { ProfileScope } from './profile-scope.ts';

export type TemplateRow = typeof activationTemplates.$inferSelect;
export type EventRow = typeof activationEvents.$inferSelect;
export interface EventCounts {
  total: number;
  pending: number;
  sent: number;
  failed: number;
}
export type EventWithFacts = EventRow & { counts: EventCounts; createdByName: string };
export interface SendListRow {
  event_id: string;
  event_name: string;
  customer_id: number | string;
  customer_name: string;
  state: ActivationSendState;
  reason: string | null;
  attempts: number;
  scheduled_at: Date | string;
  finished_at: Date | string | null;
  /** The message as stored in the chat when it was sent (or tried); null when none was written. */
  text: string | null;
}

/** Sends inserted per statement when an audience is stored. */
const INSERT_BATCH = 1_000;

/** Activation templates, events and sends; every lookup inside the caller's space and scene. */
export function createActivationRepo(db: Db) {
  const templateIn = (scope: ProfileScope) =>
    and(eq(activationTemplates.spaceId, scope.spaceId), eq(activationTemplates.sceneId, scope.sceneId));
  const eventIn = (scope: ProfileScope) =>
    and(eq(activationEvents.spaceId, scope.spaceId), eq(activationEvents.sceneId, scope.sceneId));

  async function countsOf(eventIds: string[]): Promise<Map<string, EventCounts>> {
    const counts = new Map<string, EventCounts>();
    if (eventIds.length === 0) return counts;
    const rows = rowsOf<{ event_id: string; state: ActivationSendState; n: number | string }>(
      await db.execute(sql`
        select event_id, state, count(*) as n from activation_sends
        where event_id in (${sql.join(
          eventIds.map((id) => sql`${id}::uuid`),
          sql`, `,
        )})
        group by event_id, state`),
    );
    for (const id of eventIds) counts.set(id, { total: 0, pending: 0, sent: 0, failed: 0 });
    for (const row of rows) {
      const entry = counts.get(row.event_id);
      if (!entry) continue;
      entry[row.state] += Number(row.n);
      entry.total += Number(row.n);
    }
    return counts;
  }

  async function withFacts(rows: (EventRow & { createdByName: string | null })[]): Promise<EventWithFacts[]> {
    const counts = await countsOf(rows.map((row) => row.id));
    return rows.map((row) => ({
      ...row,
      createdByName: row.createdByName ?? '',
      counts: counts.get(row.id) ?? { total: 0, pending: 0, sent: 0, failed: 0 },
    }));
  }

  /**
   * What each send put in the chat, found by the msgid the sender gave it (activationMsgid): the
   * chat message is the one record of the text, so nothing is stored twice.
   */
  async function sentTexts(scope: ProfileScope, rows: { event_id: string; customer_id: number | string }[]) {
    const msgids = rows.map((row) => activationMsgid(row.event_id, Number(row.customer_id)));
    if (msgids.length === 0) return new Map<string, string>();
    const found = rowsOf<{ source_msg_id: string; content: string }>(
      await db.execute(sql`
        select source_msg_id, content from chat_messages
        where space_id = ${scope.spaceId}::uuid and scene_id = ${scope.sceneId}
          and source_msg_id in (${sql.join(
            msgids.map((msgid) => sql`${msgid}`),
            sql`, `,
          )})`),
    );
    return new Map(found.map((row) => [row.source_msg_id, row.content]));
  }

  return {
    listTemplates: (scope: ProfileScope) =>
      db.select().from(activationTemplates).where(templateIn(scope)).orderBy(asc(activationTemplates.name)),

    /** The template when it is in the scope; NOT_FOUND otherwise (a malformed id too). */
    async template(scope: ProfileScope, id: string) {
      const [row] = isUuid(id)
        ? await db
            .select()
            .from(activationTemplates)
            .where(and(templateIn(scope), eq(activationTemplates.id, id)))
        : [];
      if (!row) throw new AppError('NOT_FOUND');
      return row;
    },

    async insertTemplate(scope: ProfileScope, values: Pick<TemplateRow, 'name' | 'mode' | 'body'>) {
      const [row] = await db
        .insert(activationTemplates)
        .values({ ...values, spaceId: scope.spaceId, sceneId: scope.sceneId, createdBy: scope.userId })
        .returning();
      return row as TemplateRow;
    },

    async updateTemplate(id: string, values: Pick<TemplateRow, 'name' | 'mode' | 'body'>, now: Date) {
      const [row] = await db
        .update(activationTemplates)
        .set({ ...values, updatedAt: now })
        .where(eq(activationTemplates.id, id))
        .returning();
      return row as TemplateRow;
    },

    async removeTemplate(id: string) {
      await db.delete(activationTemplates).where(eq(activationTemplates.id, id));
    },

    async event(scope: ProfileScope, id: string): Promise<EventWithFacts> {
      const rows = isUuid(id)
        ? await db
            .select({ ...eventSelect, createdByName: users.nickname })
            .from(activationEvents)
            .leftJoin(users, eq(users.id, activationEvents.createdBy))
            .where(and(eventIn(scope), eq(activationEvents.id, id)))
        : [];
      const [row] = await withFacts(rows);
      if (!row) throw new AppError('NOT_FOUND');
      return row;
    },

    async listEvents(scope: ProfileScope, page: { offset: number; limit: number }) {
      const rows = await db
        .select({ ...eventSelect, createdByName: users.nickname })
        .from(activationEvents)
        .leftJoin(users, eq(users.id, activationEvents.createdBy))
        .where(eventIn(scope))
        .orderBy(desc(activationEvents.createdAt), desc(activationEvents.id))
        .limit(page.limit)
        .offset(page.offset);
      const [total] = rowsOf<{ n: number | string }>(
        await db.execute(
          sql`select count(*) as n from activation_events where space_id = ${scope.spaceId}::uuid and scene_id = ${scope.sceneId}`,
        ),
      );
      return { items: await withFacts(rows), total: Number(total?.n ?? 0) };
    },

    /**
     * The event and one pending send per customer, in one transaction: an event exists with its
     * whole audience or not at all. The ids are inserted in batches (`unnest`), and a customer
     * named twice is one send (the primary key).
     */
    async insertEvent(
      scope: ProfileScope,
      values: Pick<EventRow, 'name' | 'templateId' | 'templateName' | 'mode' | 'body' | 'audience' | 'sendAt'>,
      customerIds: number[],
    ) {
      return db.transaction(async (tx) => {
        const [event] = await tx
          .insert(activationEvents)
          .values({
            ...values,
            spaceId: scope.spaceId,
            sceneId: scope.sceneId,
            status: 'scheduled',
            createdBy: scope.userId,
          })
          .returning();
        if (!event) throw new Error('activation event not stored');
        for (let start = 0; start < customerIds.length; start += INSERT_BATCH) {
          const batch = customerIds.slice(start, start + INSERT_BATCH);
          await tx.execute(sql`
            insert into activation_sends (event_id, customer_id, space_id, scene_id, state, attempts, scheduled_at)
            select ${event.id}::uuid, c.id, ${scope.spaceId}::uuid, ${scope.sceneId}, 'pending', 0, ${values.sendAt.toISOString()}::timestamptz
            from unnest(${`{${batch.join(',')}}`}::bigint[]) as c(id)
            on conflict do nothing`);
        }
        return event;
      });
    },

    /**
     * Cancels the event and fails its sends that no sender holds; one a sender holds now is
     * finished by that sender, which sees the event cancelled (activation-sender.ts).
     */
    async cancel(tx: Tx, eventId: string, now: Date) {
      const [row] = await tx
        .update(activationEvents)
        .set({ status: 'cancelled', finishedAt: now })
        .where(and(eq(activationEvents.id, eventId), sql`${activationEvents.status} in ('scheduled', 'sending')`))
        .returning({ id: activationEvents.id });
      if (!row) throw new AppError('ACTIVATION_EVENT_FINISHED');
      await tx.execute(sql`
        update activation_sends set state = 'failed', reason = 'cancelled', finished_at = ${now.toISOString()}::timestamptz
        where event_id = ${eventId}::uuid and state = 'pending'
          and (leased_until is null or leased_until < ${now.toISOString()}::timestamptz)`);
    },

    async listSends(
      scope: ProfileScope,
      filter: { eventId: string | null; customerId: number | null; state: ActivationSendState | null },
      page: { offset: number; limit: number },
    ) {
      const where = sql.join(
        [
          sql`s.space_id = ${scope.spaceId}::uuid and s.scene_id = ${scope.sceneId}`,
          filter.eventId ? sql`s.event_id = ${filter.eventId}::uuid` : sql`true`,
          filter.customerId !== null ? sql`s.customer_id = ${filter.customerId}` : sql`true`,
          filter.state ? sql`s.state = ${filter.state}` : sql`true`,
        ],
        sql` and `,
      );
      const rows = rowsOf<Omit<SendListRow, 'text'>>(
        await db.execute(sql`
          select s.event_id, e.name as event_name, s.customer_id, cu.name as customer_name, s.state, s.reason,
            s.attempts, s.scheduled_at, s.finished_at
          from activation_sends s
          join activation_events e on e.id = s.event_id
          join chat_customers cu on cu.id = s.customer_id
          where ${where}
          order by s.created_at desc, s.customer_id
          limit ${page.limit} offset ${page.offset}`),
      );
      const texts = await sentTexts(scope, rows);
      const items: SendListRow[] = rows.map((row) => ({
        ...row,
        text: texts.get(activationMsgid(row.event_id, Number(row.customer_id))) ?? null,
      }));
      const [total] = rowsOf<{ n: number | string }>(
        await db.execute(sql`select count(*) as n from activation_sends s where ${where}`),
      );
      return { items, total: Number(total?.n ?? 0) };
    },
  };
}

const eventSelect = {
  id: activationEvents.id,
  spaceId: activationEvents.spaceId,
  sceneId: activationEvents.sceneId,
  name: activationEvents.name,
  templateId: activationEvents.templateId,
  templateName: activationEvents.templateName,
  mode: activationEvents.mode,
  body: activationEvents.body,
  audience: activationEvents.audience,
  status: activationEvents.status,
  sendAt: activationEvents.sendAt,
  createdBy: activationEvents.createdBy,
  createdAt: activationEvents.createdAt,
  finishedAt: activationEvents.finishedAt,
};

export type ActivationRepo = ReturnType<typeof createActivationRepo>;
