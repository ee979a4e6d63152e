import { type SQL, sql } from 'drizzle-orm';

// The session rules of the reports (docs/user-profiles.md, Reports), in SQL shared by the summary
// job (which stores sessions) and the report (which computes the sessions of messages the job has
// not read yet). One definition, so the stored and the computed sessions cannot disagree.

/** The silence that ends a session (REPORT_LIMITS.sessionGapMinutes). */
export const SESSION_GAP = sql.raw(`interval '30 minutes'`);

/**
 * For each conversation with messages of ids in (lo, hi], where its sessions must be computed again:
 * `min_at`, the earliest of those messages, and `from_at`, the start of the earliest stored session
 * the messages can touch (one ending less than a gap before them) or `min_at` itself. Sessions
 * ending earlier are unaffected: they are more than a gap away from every new message.
 */
export function cutSql(lo: number, hi: number | null, scope: SQL | null): SQL {
  return sql`
    select n.conversation_id, n.min_at,
      least(n.min_at, (select min(s.started_at) from report_sessions s
                       where s.conversation_id = n.conversation_id
                         and s.last_message_at >= n.min_at - ${SESSION_GAP})) as from_at
    from (select conversation_id, min(sent_at) as min_at from chat_messages
          where id > ${lo} ${hi === null ? sql`` : sql`and id <= ${hi}`} ${scope ? sql`and ${scope}` : sql``}
          group by conversation_id) n`;
}

/**
 * The stored sessions a cut replaces, in report_sessions' columns. Each conversation's are read
 * through its own index entries (LATERAL, fenced by `offset 0` so the planner cannot turn it into
 * a join over the whole table: it cannot estimate a cut's size, and guessing too many read every
 * session ever stored).
 */
export function replacedSessions(cut: SQL): SQL {
  return sql`
    select r.* from ${cut} cut cross join lateral (
      select * from report_sessions s
      where s.conversation_id = cut.conversation_id and s.last_message_at >= cut.min_at - ${SESSION_GAP}
      offset 0) r`;
}

/**
 * The sessions of the cut's conversations from their `from_at` on, in report_sessions' columns:
 * messages in time order, a new session after each silence over the gap; the first customer
 * message, and the first message after it that is not the customer's (the first response).
 */
export function sessionsOfCut(cut: SQL, hi: number | null): SQL {
  return sql`
    with marked as (
      select m.conversation_id, m.space_id, m.scene_id, m.sent_at, m.send_type, m.id,
        case when m.sent_at - lag(m.sent_at) over w <= ${SESSION_GAP} then 0 else 1 end as starts
      from ${cut} cut cross join lateral (
        -- One conversation's messages through chat_messages_thread_idx (fenced as in replacedSessions).
        select * from chat_messages m
        where m.conversation_id = cut.conversation_id and m.sent_at >= cut.from_at
          ${hi === null ? sql`` : sql`and m.id <= ${hi}`}
        offset 0) m
      window w as (partition by m.conversation_id order by m.sent_at, m.id)
    ), numbered as (
      select *, sum(starts) over (partition by conversation_id order by sent_at, id) as n from marked
    ), firsts as (
      select *, min(sent_at) filter (where send_type = 'user') over (partition by conversation_id, n) as fc
      from numbered
    )
    select conversation_id, min(sent_at) as started_at, space_id, scene_id, max(sent_at) as last_message_at,
      count(*)::int as messages, min(fc) as first_customer_at,
      min(sent_at) filter (where send_type <> 'user' and sent_at >= fc) as first_reply_at,
      bool_or(send_type = 'human') as human
    from firsts group by conversation_id, n, space_id, scene_id`;
}

/**
 * A session's contribution to report_session_hours, times `sign` (1 to add it, -1 to take it out),
 * from a relation `s` with report_sessions' columns. The hour is its start's UTC hour.
 */
export function sessionFacts(sign: 1 | -1, at: SQL = sql`date_trunc('hour', s.started_at, 'UTC')`): SQL {
  // Inline, not a parameter: an untyped parameter in a select list would be text.
  const k = sql.raw(String(sign));
  const n = (test: SQL) => sql`${k} * coalesce(${test}, false)::int`;
  const response = sql`(s.first_reply_at - s.first_customer_at)`;
  return sql`
    ${at} as at,
    ${k} as sessions,
    ${n(sql`s.first_customer_at is not null`)} as asked,
    ${n(sql`s.first_reply_at is not null`)} as replied,
    ${n(sql`s.first_customer_at is not null and s.human`)} as handed_over,
    ${n(sql`s.first_reply_at is not null and not s.human`)} as ai_resolved,
    ${k} * coalesce(round(extract(epoch from ${response}) * 1000), 0)::bigint as response_ms,
    ${n(sql`${response} <= interval '1 minute'`)} as within_1m,
    ${n(sql`${response} <= interval '5 minutes'`)} as within_5m,
    ${n(sql`${response} <= interval '30 minutes'`)} as within_30m`;
}

/** The columns of report_session_hours after (space_id, scene_id, hour). */
export const SESSION_SUMS = [
  'sessions',
  'asked',
  'replied',
  'handed_over',
  'ai_resolved',
  'response_ms',
  'within_1m',
  'within_5m',
  'within_30m',
] as const;
