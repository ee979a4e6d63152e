import {
  BEHAVIOUR_LIMITS,
  type BehaviourEvent,
  type BehaviourKind,
  type BehaviourPushEvent,
  behaviourPushSchema,
  type behaviourRoutes,
  type MessageDisplayType,
} from '@athena/contract';
import { type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { AuthContext } from '../../platform/auth-guard.ts';
import type { Db } from '../../platform/db/database.ts';
import { rowsOf } from '../../platform/db/sql.ts';
import type { DomainEvents } from '../../platform/events.ts';
import { AppError } from '../../platform/http/app-error.ts';
import { bodyRefusal } from '../../platform/http/public-answers.ts';
import { profileScope } from './profile-scope.ts';
import type { ProfileValueRepo } from './profile-value.repo.ts';

type ListBody = z.output<(typeof behaviourRoutes)['behaviourList']['body']>;
type Scene = { spaceId: string; sceneId: number };

/** An event to store; `sourceKey` makes storing it again a no-op. */
interface NewEvent {
  customerId: number;
  kind: BehaviourKind;
  sourceKey: string;
  name: string;
  detail: Record<string, unknown>;
  amountFen: number | null;
  conversationId: number | null;
  messageId: number | null;
  occurredAt: Date;
}

/** What a chat-stored notice added that was new: what satisfaction acts on. */
export interface DerivedEvents {
  /** Sessions WeCom ended, with the end's one-time code. */
  ended: { conversationId: number; customerId: number; msgCode: string; at: Date }[];
  /** Menu items customers tapped. */
  taps: { customerId: number; menuId: string; messageId: number; at: Date }[];
}

interface StoredMessageRow {
  id: string | number;
  space_id: string;
  scene_id: string | number;
  source_msg_id: string;
  conversation_id: string | number;
  customer_id: string | number | null;
  send_type: string;
  source_kind: string;
  content: string;
  payload: Record<string, unknown>;
  sent_at: Date | string;
}

interface EventRow {
  id: string | number;
  kind: BehaviourKind;
  source_key: string;
  name: string;
  detail: Record<string, unknown>;
  amount_fen: string | number | null;
  conversation_id: string | number | null;
  message_id: string | number | null;
  occurred_at: Date | string;
}

const idOrNull = (value: string | number | null) => (value === null ? null : String(value));

function presentEvent(row: EventRow): BehaviourEvent {
  return {
    id: String(row.id),
    kind: row.kind,
    origin: row.source_key.startsWith('push:') ? 'push' : 'chat',
    name: row.name,
    detail: row.detail,
    amount_fen: row.amount_fen === null ? null : Number(row.amount_fen),
    conversation_id: idOrNull(row.conversation_id),
    message_id: idOrNull(row.message_id),
    occurred_at: new Date(row.occurred_at).toISOString(),
  };
}

/** An amount in yuan with a currency mark before it or 元 after it: `¥1,234.00`, `12.5元`, `RMB 8`. */
const PRICE =
  /(?:[¥￥]|RMB|CNY)\s*(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{1,2}))?(?![\d.,])|(?<![\d.,])(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{1,2}))?\s*元/gi;
/** Words before the amount that name what was paid when the wording holds several amounts. */
const TOTAL_WORDS = /(合计|总计|实付|实付款|应付|付款|共计)[:：\s]*$/;
/** Above this (100 million yuan) a figure is not an order amount but a misread. */
const MAX_FEN = 10_000_000_000;

/**
 * The amount of a WeCom shop order in fen, from its `price_wording` (e.g. "¥12.50", "12.50元",
 * "合计 ¥1,234.00"), counted in whole numbers so no float rounds it. One amount is the amount;
 * of several, the one after 合计/实付 and the like; anything else is no amount (null), as a wrong
 * figure in a report is worse than a missing one.
 */
export function amountFenOf(wording: string): number | null {
  const found = [...wording.matchAll(PRICE)].map((match) => {
    const whole = (match[1] ?? match[3] ?? '').replaceAll(',', '');
    const cents = (match[2] ?? match[4] ?? '').padEnd(2, '0');
    return { fen: Number(whole) * 100 + Number(cents), before: wording.slice(0, match.index) };
  });
  const distinct = new Set(found.map((amount) => amount.fen));
  const chosen = distinct.size === 1 ? found[0] : found.filter((amount) => TOTAL_WORDS.test(amount.before)).at(-1);
  if (!chosen || !Number.isSafeInteger(chosen.fen) || chosen.fen > MAX_FEN) return null;
  return chosen.fen;
}

/** Characters of a message kept as an event's name. */
const NAME_CHARS = 200;

/**
 * The first `n` characters, counted by code point: a cut between the two halves of an emoji would
 * leave a lone surrogate, which Postgres refuses in jsonb (and the whole notice with it).
 */
export const firstChars = (text: string, n: number) => Array.from(text).slice(0, n).join('');

/** A stored message as a behaviour event, when it is one: a menu tap or a WeCom shop order. */
function eventOfMessage(row: StoredMessageRow): NewEvent | null {
  if (row.customer_id === null) return null;
  const base = {
    customerId: Number(row.customer_id),
    sourceKey: `msg:${row.source_msg_id}`,
    amountFen: null,
    conversationId: Number(row.conversation_id),
    messageId: Number(row.id),
    occurredAt: new Date(row.sent_at),
  };
  const menuId = typeof row.payload.menu_id === 'string' ? row.payload.menu_id : '';
  if (row.send_type === 'user' && menuId) {
    return { ...base, kind: 'menu_click', name: firstChars(row.content, NAME_CHARS), detail: { menu_id: menuId } };
  }
  if (row.source_kind === 'wecom:channels_shop_order') {
    const description = typeof row.payload.description === 'string' ? row.payload.description : '';
    const wording = typeof row.payload.price_wording === 'string' ? row.payload.price_wording : '';
    return {
      ...base,
      kind: 'order',
      name: firstChars(row.content, NAME_CHARS),
      detail: description ? { description } : {},
      amountFen: amountFenOf(wording),
    };
  }
  return null;
}

/** The menu taps among freshly stored events: what satisfaction matches to its surveys. */
function tapsOf(fresh: (NewEvent & { id: number })[]): DerivedEvents['taps'] {
  return fresh.flatMap((event) =>
    event.kind === 'menu_click' && event.messageId !== null
      ? [
          {
            customerId: event.customerId,
            menuId: String(event.detail.menu_id),
            messageId: event.messageId,
            at: event.occurredAt,
          },
        ]
      : [],
  );
}

/**
 * The timeline, newest first. Channels time things to the whole second, and a session's events are
 * stored after the messages of the page that carried them, so within one second the order is by
 * meaning, not by id: a session's end above what was said in it, its start below.
 */
const TIMELINE_ORDER = sql.raw(`date_trunc('second', occurred_at) desc,
  case kind when 'session_end' then 2 when 'session_start' then 0 else 1 end desc,
  occurred_at desc, coalesce(message_id, 0) desc, id desc`);

/**
 * Behaviour data (docs/user-profiles.md, Behaviour data): events derived from what chat history
 * stores and events channels push, one row each whatever how often they arrive, and a customer's
 * timeline.
 */
export function createBehaviourService(deps: { db: Db; values: ProfileValueRepo }) {
  const { db } = deps;

  /** Stores the events, each once; answers the ones that were new. */
  async function insert(scene: Scene, events: NewEvent[]): Promise<(NewEvent & { id: number })[]> {
    if (events.length === 0) return [];
    const rows = events.map((event) => ({
      customer_id: event.customerId,
      kind: event.kind,
      source_key: event.sourceKey,
      name: event.name,
      detail: event.detail,
      amount_fen: event.amountFen,
      conversation_id: event.conversationId,
      message_id: event.messageId,
      occurred_at: event.occurredAt.toISOString(),
    }));
    const inserted = rowsOf<{ id: string | number; source_key: string }>(
      await db.execute(sql`
        insert into customer_events (space_id, scene_id, customer_id, kind, source_key, name, detail, amount_fen,
          conversation_id, message_id, occurred_at)
        select ${scene.spaceId}::uuid, ${scene.sceneId}, r.customer_id, r.kind, r.source_key, r.name, r.detail,
          r.amount_fen, r.conversation_id, r.message_id, r.occurred_at
        from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r(customer_id bigint, kind text, source_key text,
          name text, detail jsonb, amount_fen bigint, conversation_id bigint, message_id bigint, occurred_at timestamptz)
        on conflict (space_id, scene_id, source_key) do nothing
        returning id, source_key`),
    );
    const idOf = new Map(inserted.map((row) => [row.source_key, Number(row.id)]));
    return events.flatMap((event) => {
      const id = idOf.get(event.sourceKey);
      return id === undefined ? [] : [{ ...event, id }];
    });
  }

  /** The messages `where` picks that can be behaviour events: menu taps and WeCom shop orders. */
  async function eventfulMessages(where: SQL) {
    return rowsOf<StoredMessageRow>(
      await db.execute(sql`
        select m.id, m.space_id, m.scene_id, m.source_msg_id, m.conversation_id, c.customer_id, m.send_type,
          m.source_kind, m.content, m.payload, m.sent_at
        from chat_messages m join chat_conversations c on c.id = m.conversation_id
        where ${where} and (m.payload ? 'menu_id' or m.source_kind = 'wecom:channels_shop_order')`),
    );
  }

  return {
    /** Derives the events of what chat history just stored (its stored-listener). */
    async derive(notice: DomainEvents['chat.stored']): Promise<DerivedEvents> {
      const scene = { spaceId: notice.spaceId, sceneId: notice.sceneId };
      const messages =
        notice.messageIds.length === 0
          ? []
          : await eventfulMessages(
              sql`m.id in (${sql.join(
                notice.messageIds.map((id) => sql`${id}`),
                sql`, `,
              )})`,
            );
      const fromMessages = messages.flatMap((row) => eventOfMessage(row) ?? []);
      // One query for every session of the page: each (conversation, customer) pair found at once.
      const pairs = [
        ...new Map(
          notice.sessions.map((session) => [
            JSON.stringify([session.conversationSourceId, session.customerSourceId]),
            { conversation: session.conversationSourceId, customer: session.customerSourceId },
          ]),
        ).values(),
      ];
      const found =
        pairs.length === 0
          ? []
          : rowsOf<{
              conversation_source_id: string;
              customer_source_id: string;
              conversation_id: string | number | null;
              customer_id: string | number;
            }>(
              await db.execute(sql`
                select p.conversation as conversation_source_id, p.customer as customer_source_id,
                  c.id as conversation_id, cu.id as customer_id
                from jsonb_to_recordset(${JSON.stringify(pairs)}::jsonb) as p(conversation text, customer text)
                join chat_customers cu on cu.space_id = ${scene.spaceId}::uuid and cu.scene_id = ${scene.sceneId}
                  and cu.source_id = p.customer
                left join chat_conversations c on c.space_id = cu.space_id and c.scene_id = cu.scene_id
                  and c.source_id = p.conversation`),
            );
      const foundOf = new Map(
        found.map((row) => [JSON.stringify([row.conversation_source_id, row.customer_source_id]), row]),
      );
      const fromSessions = notice.sessions.flatMap((session): (NewEvent & { msgCode: string })[] => {
        const row = foundOf.get(JSON.stringify([session.conversationSourceId, session.customerSourceId]));
        // A customer chat history has not stored yet (a session with no message) has no timeline.
        if (!row) return [];
        return [
          {
            customerId: Number(row.customer_id),
            kind: session.change === 'start' ? 'session_start' : 'session_end',
            sourceKey: `session:${session.eventId}`,
            name: '',
            detail: {},
            amountFen: null,
            conversationId: row.conversation_id === null ? null : Number(row.conversation_id),
            messageId: null,
            occurredAt: session.at,
            msgCode: session.msgCode,
          },
        ];
      });
      const fresh = await insert(scene, [...fromMessages, ...fromSessions]);
      const freshKeys = new Set(fresh.map((event) => event.sourceKey));
      return {
        ended: fromSessions.flatMap((event) =>
          event.kind === 'session_end' && event.conversationId !== null && freshKeys.has(event.sourceKey)
            ? [
                {
                  conversationId: event.conversationId,
                  customerId: event.customerId,
                  msgCode: event.msgCode,
                  at: event.occurredAt,
                },
              ]
            : [],
        ),
        taps: tapsOf(fresh),
      };
    },

    /**
     * Derives again the events of the messages with ids in (afterId, uptoId] (the catch-up job's
     * range): what a crash or a failed listener missed is stored now, what is there already is
     * left as it is. Answers, per scene, the taps that were new (satisfaction matches them).
     */
    async deriveRange(afterId: number, uptoId: number): Promise<{ scene: Scene; derived: DerivedEvents }[]> {
      const messages = await eventfulMessages(sql`m.id > ${afterId} and m.id <= ${uptoId}`);
      const byScene = new Map<string, { scene: Scene; rows: StoredMessageRow[] }>();
      for (const row of messages) {
        const key = `${row.space_id}/${row.scene_id}`;
        const entry = byScene.get(key) ?? { scene: { spaceId: row.space_id, sceneId: Number(row.scene_id) }, rows: [] };
        entry.rows.push(row);
        byScene.set(key, entry);
      }
      const out: { scene: Scene; derived: DerivedEvents }[] = [];
      for (const { scene, rows } of byScene.values()) {
        const fresh = await insert(
          scene,
          rows.flatMap((row) => eventOfMessage(row) ?? []),
        );
        if (fresh.length > 0) out.push({ scene, derived: { ended: [], taps: tapsOf(fresh) } });
      }
      return out;
    },

    /**
     * A channel's push (docs/chat-ingest.md, Behaviour events), its signature already checked:
     * checked whole, then each event stored once by its `event_id`. Events of customers the scene
     * does not have are not stored and are named in the answer, to be sent again once the customer
     * has written (chat ingest creates customers; a push alone does not).
     */
    async push(scene: Scene, raw: Buffer) {
      const events = parsePush(raw);
      const sourceIds = [...new Set(events.map((event) => event.customer_id))];
      const customers = rowsOf<{ id: string | number; source_id: string }>(
        await db.execute(sql`
          select id, source_id from chat_customers
          where space_id = ${scene.spaceId}::uuid and scene_id = ${scene.sceneId}
            and source_id in (${sql.join(
              sourceIds.map((id) => sql`${id}`),
              sql`, `,
            )})`),
      );
      const customerOf = new Map(customers.map((row) => [row.source_id, Number(row.id)]));
      const unknown = events.filter((event) => !customerOf.has(event.customer_id)).map((event) => event.event_id);
      const known = events.flatMap((event): NewEvent[] => {
        const customerId = customerOf.get(event.customer_id);
        if (customerId === undefined) return [];
        return [
          {
            customerId,
            kind: event.kind,
            sourceKey: `push:${event.event_id}`,
            name: event.name,
            detail: { ...(event.detail ?? {}), ...(event.url ? { url: event.url } : {}) },
            amountFen: event.amount_fen ?? null,
            conversationId: null,
            messageId: null,
            occurredAt: new Date(event.occurred_at),
          },
        ];
      });
      const fresh = await insert(scene, known);
      return { stored: fresh.length, duplicates: known.length - fresh.length, unknown_customers: unknown };
    },

    /** A customer's events, newest first, with their messages counted by display type. */
    async list(ctx: AuthContext, body: ListBody) {
      const scope = profileScope(ctx, 'profile.view');
      const customerId = await deps.values.customerIn(scope, body.customer_id);
      const kind = body.kind ? sql`and kind = ${body.kind}` : sql``;
      const [rows, [count], counts] = await Promise.all([
        db.execute(sql`
          select id, kind, source_key, name, detail, amount_fen, conversation_id, message_id, occurred_at
          from customer_events where customer_id = ${customerId} ${kind}
          order by ${TIMELINE_ORDER}
          limit ${body.page_size} offset ${(body.page - 1) * body.page_size}`),
        db
          .execute(sql`select count(*)::int as total from customer_events where customer_id = ${customerId} ${kind}`)
          .then((result) => rowsOf<{ total: number }>(result)),
        db.execute(sql`
          select m.display_type, count(*)::int as count
          from chat_conversations c join chat_messages m on m.conversation_id = c.id
          where c.customer_id = ${customerId}
          group by m.display_type order by count(*) desc, m.display_type`),
      ]);
      return {
        items: rowsOf<EventRow>(rows).map(presentEvent),
        total: Number(count?.total ?? 0),
        message_counts: rowsOf<{ display_type: MessageDisplayType; count: number }>(counts).map((row) => ({
          display_type: row.display_type,
          count: Number(row.count),
        })),
      };
    },
  };
}

export type BehaviourService = ReturnType<typeof createBehaviourService>;

function parsePush(raw: Buffer): BehaviourPushEvent[] {
  let body: unknown;
  try {
    body = JSON.parse(raw.toString('utf8'));
  } catch {
    throw new AppError('BEHAVIOUR_BODY_INVALID', { detail: 'body: not JSON' });
  }
  // Counted before the events are checked one by one: a huge batch costs nothing to refuse.
  const events = (body as { events?: unknown } | null)?.events;
  if (Array.isArray(events) && events.length > BEHAVIOUR_LIMITS.pushBatch) {
    throw new AppError('BEHAVIOUR_BATCH_TOO_LARGE', { max: BEHAVIOUR_LIMITS.pushBatch });
  }
  const parsed = behaviourPushSchema.safeParse(body);
  if (!parsed.success) {
    throw new AppError('BEHAVIOUR_BODY_INVALID', { detail: bodyRefusal(parsed.error.issues[0]).detail });
  }
  // The same event twice in one batch is one event: the first copy counts.
  const seen = new Set<string>();
  return parsed.data.events.filter((event) => !seen.has(event.event_id) && seen.add(event.event_id));
}
