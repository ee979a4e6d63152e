import { type ConversationFilter, TIME_FILTER_MS } from '@athena/contract';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.ts';
import { escapeLike } from '../../platform/db/like.ts';
import { rowsOf } from '../../platform/db/sql.ts';
import type { ChatScope } from './chat-scope.ts';
import { SEND_TYPE_BITS } from './message-store.ts';
import { keywordQueryOf } from './search-terms.ts';

/**
 * The conversation list (docs/chat-history.md, "Reading at scale"): conversations newest activity
 * first, a page at a time by keyset. Filters on the conversation (chat type, customer, time) are
 * columns of its row. Filters on messages (send type, keyword) need conversations that hold a
 * matching message, found one of two ways, whichever is cheap for this filter:
 *
 * - few matching messages (up to RARE_HITS): those messages are found through their indexes and
 *   their conversations listed;
 * - many: conversations are walked newest first, each checked for one matching message, which a
 *   common filter finds at once.
 */
const RARE_HITS = 5_000;
/** Conversations looked at per round of a walk: enough for a common filter to fill a page at once. */
const WALK_WINDOW = 200;

export interface ConversationRow {
  id: number | string;
  scene_id: number;
  chat_type: 'private' | 'group';
  title: string;
  channel_id: string;
  channel_name: string;
  customer_id: number | string | null;
  customer_name: string | null;
  customer_avatar: string | null;
  last_message_at: Date | string;
  message_count: number;
  unread: number;
  handler_state: string;
  servicer: string | null;
  last_id: number | string | null;
  last_display_type: string | null;
  last_send_type: string | null;
  last_content: string | null;
  last_sent_at: Date | string | null;
  match_id: number | string | null;
  match_display_type: string | null;
  match_send_type: string | null;
  match_content: string | null;
  match_sent_at: Date | string | null;
}

export interface ListCursor {
  at: string;
  id: number;
}

/** The time window a filter means, in absolute terms; null bounds are open. */
export function windowOf(filter: ConversationFilter, now: Date) {
  const time = filter.time;
  if (!time) return null;
  if (time.preset === 'custom') return { from: new Date(time.from ?? 0), to: new Date(time.to ?? now.getTime()) };
  return { from: new Date(now.getTime() - TIME_FILTER_MS[time.preset]), to: null };
}

export async function listConversations(
  db: Db,
  scope: ChatScope,
  filter: ConversationFilter,
  page: { cursor: ListCursor | null; limit: number },
  now: Date,
  /** One conversation only (reading it by id, in the same shape as the list). */
  onlyId?: number,
  /** The thresholds, smaller in tests so that every path runs on a few messages. */
  tuning: { rareHits: number; window: number } = { rareHits: RARE_HITS, window: WALK_WINDOW },
): Promise<ConversationRow[]> {
  const window = windowOf(filter, now);
  // What the page's rows show as their matching message: send type, keyword and time together.
  const messageMatch = messageMatchOf(filter, window);
  // What a conversation must hold to be listed. A send type alone is a column of the conversation
  // (the bits of its messages' send types); only with a keyword or a time does it need the messages.
  const mustHold = filter.keyword || (filter.send_type && window) ? messageMatch : null;
  const conditions: SQL[] = [sql`c.space_id = ${scope.spaceId}::uuid`, sql`c.scene_id = ${scope.sceneId}`];
  if (onlyId !== undefined) conditions.push(sql`c.id = ${onlyId}`);
  if (filter.chat_type) conditions.push(sql`c.chat_type = ${filter.chat_type}`);
  if (filter.customer_id) conditions.push(sql`c.customer_id = ${toBigint(filter.customer_id)}`);
  if (window) {
    conditions.push(sql`c.last_message_at >= ${window.from.toISOString()}::timestamptz`);
    if (window.to) conditions.push(sql`c.first_message_at <= ${window.to.toISOString()}::timestamptz`);
  }
  if (filter.send_type) conditions.push(sql`(c.send_types & ${SEND_TYPE_BITS[filter.send_type]}) <> 0`);
  let walk = false;
  if (mustHold) {
    const hits = await rareHits(db, scope, mustHold, tuning.rareHits);
    if (hits?.length === 0) return [];
    if (hits)
      conditions.push(
        sql`c.id in (${sql.join(
          hits.map((id) => sql`${id}`),
          sql`, `,
        )})`,
      );
    walk = hits === null;
  }
  const ids = walk
    ? await walkConversations(db, conditions, mustHold as SQL, page, {
        keyword: Boolean(filter.keyword),
        size: tuning.window,
      })
    : (await conversationsInOrder(db, conditions, page.cursor, page.limit)).map((row) => row.id);
  if (ids.length === 0) return [];
  // The newest matching message of each listed conversation, found for the page's rows only and
  // joined by primary key.
  const matched = messageMatch
    ? sql`(select m.id from chat_messages m where m.conversation_id = c.id and ${messageMatch}
        order by m.sent_at desc, m.id desc limit 1)`
    : sql`null::bigint`;
  return rowsOf<ConversationRow>(
    await db.execute(sql`
      select c.id, c.scene_id, c.chat_type, c.title, c.channel_id, c.channel_name, c.customer_id,
        cu.name as customer_name, cu.avatar_url as customer_avatar, c.last_message_at, c.message_count, c.unread,
        c.handler_state, c.servicer,
        l.id as last_id, l.display_type as last_display_type, l.send_type as last_send_type,
        left(l.content, 200) as last_content, l.sent_at as last_sent_at,
        h.id as match_id, h.display_type as match_display_type, h.send_type as match_send_type,
        left(h.content, 200) as match_content, h.sent_at as match_sent_at
      from (
        select c.*, ${matched} as matched_id
        from chat_conversations c
        where c.id in (${sql.join(
          ids.map((id) => sql`${id}`),
          sql`, `,
        )})
      ) c
      left join chat_customers cu on cu.id = c.customer_id
      left join chat_messages l on l.id = c.last_message_id
      left join chat_messages h on h.id = c.matched_id
      order by c.last_message_at desc, c.id desc`),
  );
}

/** Conversations meeting the conditions, latest activity first, after the cursor. */
async function conversationsInOrder(db: Db, conditions: SQL[], cursor: ListCursor | null, limit: number) {
  const after = cursor ? [sql`(c.last_message_at, c.id) < (${cursor.at}::timestamptz, ${cursor.id})`] : [];
  return rowsOf<{ id: number | string; last_message_at: Date | string }>(
    await db.execute(sql`
      select c.id, c.last_message_at from chat_conversations c
      where ${sql.join([...conditions, ...after], sql` and `)}
      order by c.last_message_at desc, c.id desc
      limit ${limit}`),
  ).map((row) => ({ id: Number(row.id), at: new Date(row.last_message_at).toISOString() }));
}

/**
 * The page of conversations holding a matching message when many messages match: conversations
 * are read newest first, a window at a time (an index range), and the window's conversations are
 * checked for a matching message in one query: with a keyword, through the search index; without,
 * one lateral lookup each that stops at the first match. A common filter fills the page in the
 * first window.
 */
async function walkConversations(
  db: Db,
  conditions: SQL[],
  messageMatch: SQL,
  page: { cursor: ListCursor | null; limit: number },
  walk: { keyword: boolean; size: number },
) {
  const found: number[] = [];
  let cursor = page.cursor;
  for (;;) {
    const window = await conversationsInOrder(db, conditions, cursor, walk.size);
    if (window.length === 0) return found;
    const ids = `{${window.map((row) => row.id).join(',')}}`;
    const hits = new Set(
      rowsOf<{ id: number | string }>(
        await db.execute(
          walk.keyword
            ? // Set-based: the planner intersects the search index with the window's conversations.
              sql`select distinct m.conversation_id as id from chat_messages m
                where m.conversation_id = any(${ids}::bigint[]) and ${messageMatch}`
            : // Per conversation, stopping at its first match (a common send type: its newest messages).
              sql`select k.id from unnest(${ids}::bigint[]) as k(id)
                cross join lateral (
                  select 1 from chat_messages m where m.conversation_id = k.id and ${messageMatch} limit 1
                ) hit`,
        ),
      ).map((row) => Number(row.id)),
    );
    for (const row of window) {
      if (!hits.has(row.id)) continue;
      found.push(row.id);
      if (found.length === page.limit) return found;
    }
    if (window.length < walk.size) return found;
    const last = window[window.length - 1];
    cursor = { at: last.at, id: last.id };
  }
}

/** The condition a message must meet for the send-type, keyword and time filters; null when none is set. */
function messageMatchOf(filter: ConversationFilter, window: ReturnType<typeof windowOf>): SQL | null {
  if (!filter.send_type && !filter.keyword) return null;
  const parts: SQL[] = [];
  if (filter.send_type) parts.push(sql`m.send_type = ${filter.send_type}`);
  if (filter.keyword) {
    const query = keywordQueryOf(filter.keyword);
    // Terms find candidates through the index; the text itself decides (a term pair may occur apart).
    if (query) parts.push(sql`m.search_vector @@ ${query}::tsquery`);
    // The same text the index was built from: the message, a card's title, a file's name.
    parts.push(
      sql`(m.content || ' ' || coalesce(m.payload->>'title', '') || ' ' || coalesce(m.payload->>'file_name', '')) ilike ${`%${escapeLike(filter.keyword)}%`}`,
    );
  }
  if (window) {
    parts.push(sql`m.sent_at >= ${window.from.toISOString()}::timestamptz`);
    if (window.to) parts.push(sql`m.sent_at <= ${window.to.toISOString()}::timestamptz`);
  }
  return sql.join(parts, sql` and `);
}

/** The conversations of at most `rare` matching messages, or null when there are more. */
async function rareHits(db: Db, scope: ChatScope, match: SQL, rare: number): Promise<number[] | null> {
  const rows = rowsOf<{ conversation_id: number | string }>(
    await db.execute(sql`
      select m.conversation_id from chat_messages m
      where m.space_id = ${scope.spaceId}::uuid and m.scene_id = ${scope.sceneId} and ${match}
      limit ${rare + 1}`),
  );
  if (rows.length > rare) return null;
  return [...new Set(rows.map((row) => Number(row.conversation_id)))];
}

/** An id from a request: digits only, or an id that matches nothing. */
export const toBigint = (id: string) => (/^\d{1,18}$/.test(id) ? id : '-1');
