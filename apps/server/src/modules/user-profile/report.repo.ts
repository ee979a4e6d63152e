import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.ts';
import { rowsOf } from '../../platform/db/sql.ts';
import { cutSql, replacedSessions, SESSION_SUMS, sessionFacts, sessionsOfCut } from './report-sessions.sql.ts';
import { REPORT_WATERMARK } from './report-summary.job.ts';

/**
 * What one report reads: a scene, a window [from, to) in unix ms, the reader's time zone, and the
 * summary job's watermark as read before the queries. Summaries hold the messages up to the
 * watermark, the queries read those above it.
 */
export interface ReportWindow {
  spaceId: string;
  sceneId: number;
  from: number;
  to: number;
  timeZone: string;
  watermark: number;
}

/**
 * The watermark again, inside each query. The job may commit a batch while a report runs: one
 * statement sees one snapshot, so bounding the tail and the edges by this (as well as by the
 * `watermark` read before, which gives the planner a number to estimate the tail with) counts each
 * message in the summaries or in the tail of a query, never in both.
 */
const CURRENT_WATERMARK = sql`(select coalesce(max(message_id), 0) from report_watermarks where name = ${REPORT_WATERMARK})`;
const above = (column: SQL, w: ReportWindow) => sql`${column} > ${w.watermark} and ${column} > ${CURRENT_WATERMARK}`;

const HOUR_MS = 3_600_000;
const at = (ms: number) => sql`to_timestamp(${ms}::double precision / 1000)`;

/**
 * The summary tables hold whole UTC hours; the window's partial first and last hours are read from
 * the rows (messages, sessions, customers) themselves, so a "last hour" report is exact.
 */
function parts(w: ReportWindow) {
  const fullFrom = Math.ceil(w.from / HOUR_MS) * HOUR_MS;
  const fullTo = Math.floor(w.to / HOUR_MS) * HOUR_MS;
  const inWindow = (column: SQL) => sql`${column} >= ${at(w.from)} and ${column} < ${at(w.to)}`;
  return {
    inWindow,
    /** The summary rows of the whole hours inside the window. */
    fullHours: (column: SQL) => sql`${column} >= ${at(fullFrom)} and ${column} < ${at(fullTo)}`,
    /** Rows in the window outside those hours (all of it when the window holds no whole hour). */
    edges: (column: SQL) => sql`${inWindow(column)} and (${column} < ${at(fullFrom)} or ${column} >= ${at(fullTo)})`,
    scope: (alias: string) =>
      sql`${sql.raw(alias)}.space_id = ${w.spaceId}::uuid and ${sql.raw(alias)}.scene_id = ${w.sceneId}`,
    day: (column: SQL) => sql`to_char(${column} at time zone ${w.timeZone}, 'YYYY-MM-DD')`,
  };
}

const num = (value: string | number | null | undefined) => Number(value ?? 0);

export function createReportRepo(db: Db) {
  return {
    async watermark(): Promise<number> {
      const [row] = rowsOf<{ message_id: string | number }>(
        await db.execute(sql`select message_id from report_watermarks where name = ${REPORT_WATERMARK}`),
      );
      return num(row?.message_id);
    },

    /** Messages per day and send type. */
    async messages(w: ReportWindow) {
      const p = parts(w);
      const rows = rowsOf<{ day: string; send_type: string; n: string | number }>(
        await db.execute(sql`
          select ${p.day(sql`x.at`)} as day, x.send_type, sum(x.n) as n from (
            select h.hour as at, h.send_type, h.messages as n from report_message_hours h
            where ${p.scope('h')} and ${p.fullHours(sql`h.hour`)}
            union all
            select m.sent_at, m.send_type, 1 from chat_messages m
            where ${p.scope('m')} and ${p.edges(sql`m.sent_at`)} and m.id <= ${CURRENT_WATERMARK}
            union all
            select m.sent_at, m.send_type, 1 from chat_messages m
            where ${above(sql`m.id`, w)} and ${p.scope('m')} and ${p.inWindow(sql`m.sent_at`)}
          ) x group by 1, 2`),
      );
      return rows.map((row) => ({ day: row.day, sendType: row.send_type, n: num(row.n) }));
    },

    /**
     * Session facts per day: the hourly sums, less the stored sessions that messages newer than the
     * watermark change, plus those sessions computed again from the messages (the job's own rules).
     */
    async sessions(w: ReportWindow) {
      const p = parts(w);
      const sums = sql.raw(SESSION_SUMS.map((c) => `sum(x.${c}) as ${c}`).join(', '));
      const columns = sql.raw(SESSION_SUMS.map((c) => `h.${c}`).join(', '));
      const rows = rowsOf<Record<(typeof SESSION_SUMS)[number], string | number> & { day: string }>(
        await db.execute(sql`
          with cut as (${cutSql(w.watermark, null, sql`${p.scope('chat_messages')} and ${above(sql`chat_messages.id`, w)}`)}),
          replaced as (${replacedSessions(sql`cut`)}),
          tail as (${sessionsOfCut(sql`cut`, null)})
          select ${p.day(sql`x.at`)} as day, ${sums} from (
            select h.hour as at, ${columns} from report_session_hours h
            where ${p.scope('h')} and ${p.fullHours(sql`h.hour`)}
            union all
            select ${sessionFacts(-1, sql`s.started_at`)} from replaced s where ${p.fullHours(sql`s.started_at`)}
            union all
            select ${sessionFacts(1, sql`s.started_at`)} from report_sessions s
            where ${p.scope('s')} and ${p.edges(sql`s.started_at`)}
              and not exists (
                select 1 from replaced r where r.conversation_id = s.conversation_id and r.started_at = s.started_at)
            union all
            select ${sessionFacts(1, sql`s.started_at`)} from tail s where ${p.inWindow(sql`s.started_at`)}
          ) x group by 1`),
      );
      return rows.map((row) => ({
        day: row.day,
        sessions: num(row.sessions),
        asked: num(row.asked),
        replied: num(row.replied),
        handedOver: num(row.handed_over),
        aiResolved: num(row.ai_resolved),
        responseMs: num(row.response_ms),
        within1m: num(row.within_1m),
        within5m: num(row.within_5m),
        within30m: num(row.within_30m),
      }));
    },

    /** Customers whose first message falls on each day (moved earlier by late, older messages). */
    async newCustomers(w: ReportWindow) {
      const p = parts(w);
      const rows = rowsOf<{ day: string; n: string | number }>(
        await db.execute(sql`
          with tail_firsts as (
            select c.customer_id, min(m.sent_at) as first_at
            from chat_messages m join chat_conversations c on c.id = m.conversation_id
            where ${above(sql`m.id`, w)} and ${p.scope('m')} and c.customer_id is not null
            group by 1
          ), moved as (
            select t.customer_id, t.first_at, r.first_at as old_at
            from tail_firsts t left join report_customers r using (customer_id)
            where r.first_at is null or t.first_at < r.first_at
          )
          select ${p.day(sql`x.at`)} as day, sum(x.n) as n from (
            select h.hour as at, h.customers as n from report_customer_hours h
            where ${p.scope('h')} and ${p.fullHours(sql`h.hour`)}
            union all
            select r.first_at, 1 from report_customers r where ${p.scope('r')} and ${p.edges(sql`r.first_at`)}
            union all
            select old_at, -1 from moved where ${p.inWindow(sql`old_at`)}
            union all
            select first_at, 1 from moved where ${p.inWindow(sql`first_at`)}
          ) x group by 1`),
      );
      return rows.map((row) => ({ day: row.day, n: num(row.n) }));
    },

    /** Activation sends finished each day: sent and failed (pending ones are not finished). */
    async activation(w: ReportWindow) {
      const p = parts(w);
      const rows = rowsOf<{ day: string; sent: string | number; failed: string | number }>(
        await db.execute(sql`
          select ${p.day(sql`a.finished_at`)} as day,
            count(*) filter (where a.state = 'sent') as sent, count(*) filter (where a.state = 'failed') as failed
          from activation_sends a
          where ${p.scope('a')} and ${p.inWindow(sql`a.finished_at`)} and a.state in ('sent', 'failed')
          group by 1`),
      );
      return rows.map((row) => ({ day: row.day, sent: num(row.sent), failed: num(row.failed) }));
    },

    /** Satisfaction surveys by the day they were asked: asked (the menu reached the customer), rated, scores. */
    async satisfaction(w: ReportWindow) {
      const p = parts(w);
      const rows = rowsOf<{ day: string; score: number | null; n: string | number }>(
        await db.execute(sql`
          select ${p.day(sql`v.requested_at`)} as day, case when v.state = 'rated' then v.score end as score, count(*) as n
          from satisfaction_surveys v
          where ${p.scope('v')} and ${p.inWindow(sql`v.requested_at`)} and v.state in ('sent', 'rated')
          group by 1, 2`),
      );
      return rows.map((row) => ({ day: row.day, score: row.score === null ? null : Number(row.score), n: num(row.n) }));
    },
  };
}

export type ReportRepo = ReturnType<typeof createReportRepo>;
