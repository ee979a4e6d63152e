import { type ConversationFilter, timeWindowOf } from '@athena/contract';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.ts';
import { escapeLike } from '../../platform/db/like.ts';
import { estimatedRows, rowsOf } from '../../platform/db/sql.ts';
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
 * - many (as the planner expects from its statistics, or as counted): conversations are walked
 *   newest first, a window at a time, each checked for a matching message, which a common filter
 *   finds at once.
 *
 * Either way finds each listed conversation's newest matching message too, which the row shows.
 */
const RARE_HITS = 5_000;
/**
 * A keyword whose index terms match more messages than this is common: the search index is not
 * used to count it (reading its entry costs more than it saves: the 530 000 entries of 退款 at ten
 * million messages take 100 ms and more). Below it, the entry is cheap enough (160 000 entries of
 * 好 at a million: under 20 ms) and narrows a sparse combination far better than a walk would.
 */
const COMMON_TERM = 200_000;
/** Conversations looked at per round of a walk: enough for a common filter to fill a page at once. */
const WALK_WINDOW = 200;
const MAX_WALK_WINDOW = 12_800;

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
  customer_source_id: string | null;
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

export interface Tuning {
  rareHits: number;
  commonTerm: number;
  window: number;
  /** Conversations a walk looks at before the matches are counted after all. */
  walkBudget: number;
  /** Candidates that count may read (fewer where the database runs one statement at a time). */
  candidatesAfterWalk: number;
}

/**
 * The thresholds for a database: a walk that found too few matches among 1 400 conversations
 * counts them after all when the planner expects up to 10 000 candidate rows where the database
 * runs one statement at a time (the embedded engine, which also reads rows several times slower:
 * a long count holds every other statement up), 20 000 on a PostgreSQL server (退款 + human
 * in the last 24 hours at ten million messages: 6 700 candidates counted in 38 ms instead of a
 * walk of 400 ms; the 46 000 of the last 7 days took 440 ms to count, as long as the walk).
 */
export const tuningFor = (oneConnection: boolean): Tuning => ({
  rareHits: RARE_HITS,
  commonTerm: COMMON_TERM,
  window: WALK_WINDOW,
  walkBudget: 1_400,
  candidatesAfterWalk: oneConnection ? 10_000 : 20_000,
});

export interface ListCursor {
  at: string;
  id: number;
}

/** The time window a filter means, in absolute terms; null bounds are open. */
export function windowOf(filter: ConversationFilter, now: Date) {
  if (!filter.time) return null;
  const { from, to } = timeWindowOf(filter.time, now.getTime());
  return { from: new Date(from), to: to === null ? null : new Date(to) };
}

/**
 * What a message shows in the list: its text, or for a card without text (a link or mini program
 * sent as a reply, a file) the title or file name it carries, never only its kind ("[链接]").
 */
const previewText = (m: SQL) =>
  sql`coalesce(nullif(${m}.content, ''), nullif(${m}.payload->>'title', ''), ${m}.payload->>'file_name', '')`;

export async function listConversations(
  db: Db,
  scope: ChatScope,
  filter: ConversationFilter,
  page: { cursor: ListCursor | null; limit: number },
  now: Date,
  /** The thresholds for this database (tuningFor), smaller in tests so that every path runs on a few messages. */
  tuning: Tuning,
  /** One conversation only (reading it by id, in the same shape as the list). */
  onlyId?: number,
): Promise<ConversationRow[]> {
  const window = windowOf(filter, now);
  // What the page's rows show as their matching message: send type, keyword and time together.
  const messageMatch = messageMatchOf(filter, window, { terms: false });
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
  // The page's conversations, and each one's newest matching message when a filter needs one.
  const { ids, matches } = mustHold
    ? await conversationsHolding(db, { scope, filter, window, match: mustHold, conditions, page, tuning })
    : {
        ids: (await conversationsInOrder(db, conditions, page.cursor, page.limit)).map((row) => row.id),
        matches: null,
      };
  if (ids.length === 0) return [];
  const matched = matches
    ? sql`case c.id ${sql.join(
        ids.map((id) => sql`when ${id} then ${matches.get(id) ?? null}::bigint`),
        sql` `,
      )} end`
    : messageMatch
      ? // A send type alone: the conversation's newest message of that type (a common type: among its newest).
        sql`(select m.id from chat_messages m where m.conversation_id = c.id and ${messageMatch}
          order by m.sent_at desc, m.id desc limit 1)`
      : sql`null::bigint`;
  return rowsOf<ConversationRow>(
    await db.execute(sql`
      select c.id, c.scene_id, c.chat_type, c.title, c.channel_id, c.channel_name, c.customer_id,
        cu.name as customer_name, cu.avatar_url as customer_avatar, cu.source_id as customer_source_id, c.last_message_at, c.message_count, c.unread,
        c.handler_state, c.servicer,
        l.id as last_id, l.display_type as last_display_type, l.send_type as last_send_type,
        left(${previewText(sql`l`)}, 200) as last_content, l.sent_at as last_sent_at,
        h.id as match_id, h.display_type as match_display_type, h.send_type as match_send_type,
        left(${previewText(sql`h`)}, 200) as match_content, h.sent_at as match_sent_at
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

/**
 * The page of conversations holding a matching message: counted when few messages match (their
 * conversations then listed in order), walked when many do; a walk that finds too few among the
 * first conversations counts after all, when the candidates are few enough to read.
 */
async function conversationsHolding(
  db: Db,
  query: {
    scope: ChatScope;
    filter: ConversationFilter;
    window: ReturnType<typeof windowOf>;
    match: SQL;
    conditions: SQL[];
    page: { cursor: ListCursor | null; limit: number };
    tuning: Tuning;
  },
): Promise<{ ids: number[]; matches: Matches }> {
  const { scope, filter, window, match, conditions, page, tuning } = query;
  let rare = await rareHits(db, scope, filter, window, tuning, tuning.rareHits);
  if (!rare) {
    const found: Matches = new Map();
    const stopped = await walkConversations(db, conditions, match, page.limit, found, {
      from: { cursor: page.cursor, size: tuning.window },
      budget: tuning.walkBudget,
    });
    if (stopped) rare = await rareHits(db, scope, filter, window, tuning, tuning.candidatesAfterWalk);
    if (!rare) {
      if (stopped) await walkConversations(db, conditions, match, page.limit, found, { from: stopped });
      return { ids: [...found.keys()], matches: found };
    }
  }
  if (rare.size === 0) return { ids: [], matches: rare };
  const listed = [
    ...conditions,
    sql`c.id in (${sql.join(
      [...rare.keys()].map((id) => sql`${id}`),
      sql`, `,
    )})`,
  ];
  return {
    ids: (await conversationsInOrder(db, listed, page.cursor, page.limit)).map((row) => row.id),
    matches: rare,
  };
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

/** Conversation id → the id of its newest matching message, in the list's order. */
type Matches = Map<number, number>;

/** The newest of each conversation's matching messages, from their rows. */
function newestPerConversation(
  rows: { conversation_id: number | string; id: number | string; sent_at: Date | string }[],
) {
  const newest = new Map<number, { id: number; at: number }>();
  for (const row of rows) {
    const conversationId = Number(row.conversation_id);
    const candidate = { id: Number(row.id), at: new Date(row.sent_at).getTime() };
    const seen = newest.get(conversationId);
    if (!seen || candidate.at > seen.at || (candidate.at === seen.at && candidate.id > seen.id))
      newest.set(conversationId, candidate);
  }
  return new Map([...newest].map(([conversationId, hit]) => [conversationId, hit.id]));
}

/** Where a walk stopped: the next window's start and size. */
interface WalkPosition {
  cursor: ListCursor | null;
  size: number;
}

/**
 * Adds to `found` the conversations holding a matching message when many messages match, until
 * `limit` are found or the conversations run out (null), or `budget` conversations were looked at
 * (where it stopped): conversations are read newest first, a window at a time (an index range),
 * and each is checked for its newest matching message through the thread index, newest first,
 * stopping at the first match, which a common filter finds within a few messages. Bitmap scans are
 * off for that query: with them the planner, taking the text condition for rare, read and sorted
 * each conversation whole (or, with the keyword's terms, read the search index's whole entry for
 * each window).
 */
async function walkConversations(
  db: Db,
  conditions: SQL[],
  messageMatch: SQL,
  limit: number,
  /** The matches so far, added to. */
  found: Matches,
  walk: { from: WalkPosition; budget?: number },
): Promise<WalkPosition | null> {
  let { cursor, size } = walk.from;
  let walked = 0;
  for (;;) {
    const window = await conversationsInOrder(db, conditions, cursor, size);
    if (window.length === 0) return null;
    const ids = `{${window.map((row) => row.id).join(',')}}`;
    const hits = await db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_bitmapscan = off`);
      return rowsOf<{ conversation_id: number | string; id: number | string }>(
        await tx.execute(sql`
          select k.id as conversation_id, hit.id from unnest(${ids}::bigint[]) as k(id)
          cross join lateral (
            select m.id from chat_messages m where m.conversation_id = k.id and ${messageMatch}
            order by m.sent_at desc, m.id desc limit 1
          ) hit`),
      );
    });
    const byConversation = new Map(hits.map((hit) => [Number(hit.conversation_id), Number(hit.id)]));
    for (const row of window) {
      const hit = byConversation.get(row.id);
      if (hit === undefined) continue;
      found.set(row.id, hit);
      if (found.size === limit) return null;
    }
    if (window.length < size) return null;
    const last = window[window.length - 1];
    cursor = { at: last.at, id: last.id };
    walked += window.length;
    // A filter that matches few conversations is walked in ever larger windows: through 20 000
    // conversations in 7 rounds, not 100.
    size = Math.min(size * 2, MAX_WALK_WINDOW);
    if (walk.budget !== undefined && walked >= walk.budget) return { cursor, size };
  }
}

/** The condition a message must meet for the send-type, keyword and time filters; null when none is set. */
function messageMatchOf(
  filter: ConversationFilter,
  window: ReturnType<typeof windowOf>,
  /**
   * `terms`: with the keyword's index terms (for a query that may use the search index); `text`:
   * with the check of the text itself, which decides (the planner cannot estimate it: 1 in 200).
   */
  { terms = true, text = true } = {},
): SQL | null {
  if (!filter.send_type && !filter.keyword) return null;
  const parts: SQL[] = [sql`true`];
  if (filter.send_type) parts.push(sql`m.send_type = ${filter.send_type}`);
  if (filter.keyword) {
    const query = keywordQueryOf(filter.keyword);
    // Terms find candidates through the index; the text itself decides (a term pair may occur apart).
    if (query && terms) parts.push(sql`m.search_vector @@ ${query}::tsquery`);
    // The same text the index was built from: the message, a card's title, a file's name.
    if (text)
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

/**
 * The conversations of at most `rare` matching messages, with each one's newest match, or null
 * when there are more. The planner's estimate from its statistics comes first: when it already
 * expects more, they are not counted. A common keyword's index terms are left out of both (the
 * count then goes through the time or send-type index, or does not happen).
 */
async function rareHits(
  db: Db,
  scope: ChatScope,
  filter: ConversationFilter,
  window: ReturnType<typeof windowOf>,
  tuning: Tuning,
  /** Counted only when the planner expects at most this many candidates (the indexed part). */
  candidates: number,
): Promise<Matches | null> {
  const matching = (condition: SQL | null) => sql`select m.conversation_id, m.id, m.sent_at from chat_messages m
      where m.space_id = ${scope.spaceId}::uuid and m.scene_id = ${scope.sceneId} and ${condition ?? sql`true`}`;
  const keywordOnly = { ...filter, send_type: '' as const };
  const termsAreRare =
    Boolean(filter.keyword) &&
    (await estimatedRows(db, matching(messageMatchOf(keywordOnly, null, { text: false })))) <= tuning.commonTerm;
  const indexed = messageMatchOf(filter, window, { terms: termsAreRare, text: false });
  if ((await estimatedRows(db, matching(indexed))) > candidates) return null;
  const rows = rowsOf<{ conversation_id: number | string; id: number | string; sent_at: Date | string }>(
    await db.execute(
      sql`${matching(messageMatchOf(filter, window, { terms: termsAreRare }))} limit ${tuning.rareHits + 1}`,
    ),
  );
  return rows.length > tuning.rareHits ? null : newestPerConversation(rows);
}

/** An id from a request: digits only, or an id that matches nothing. */
export const toBigint = (id: string) => (/^\d{1,18}$/.test(id) ? id : '-1');
