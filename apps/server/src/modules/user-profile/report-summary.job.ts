import { sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.ts';
import { rowsOf } from '../../platform/db/sql.ts';
import { settledMessageId } from '../chat-history/index.ts';
import { cutSql, replacedSessions, SESSION_SUMS, sessionFacts, sessionsOfCut } from './report-sessions.sql.ts';

/** The watermark's row in report_watermarks. */
export const REPORT_WATERMARK = 'messages';
/** pg_advisory_xact_lock key: one summary run at a time, across processes. */
const LOCK = 1_740_860;

const sums = sql.raw(SESSION_SUMS.join(', '));
const addSums = sql.raw(SESSION_SUMS.map((c) => `${c} = report_session_hours.${c} + excluded.${c}`).join(', '));
const sumOf = sql.raw(SESSION_SUMS.map((c) => `sum(${c})`).join(', '));

/**
 * The summary job of the reports (docs/user-profiles.md, Reports): folds messages into the summary
 * tables in id order from the watermark. Each batch is one transaction that also moves the
 * watermark, so a crash leaves either the whole batch folded or none of it, and running it again
 * folds nothing twice.
 */
export function createReportSummary(deps: {
  db: Db;
  /** Messages folded in one transaction: big enough to catch up fast, small enough to hold locks briefly. */
  batch: number;
}) {
  const { db } = deps;

  /**
   * Folds the next batch of messages up to `settled` (chat history's settledMessageId: no message
   * at or below it can still appear, so the watermark never passes a late commit); answers how many
   * it folded (0: caught up).
   */
  async function step(settled: number): Promise<number> {
    return db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${LOCK})`);
      // Short statements over few rows: compiling them (PostgreSQL's JIT) costs more than it saves.
      await tx.execute(sql`set local jit = off`);
      // Every join here goes from a batch's few rows to their index entries; a hash join would read
      // a whole summary table once per batch.
      await tx.execute(sql`set local enable_hashjoin = off`);
      await tx.execute(sql`set local enable_mergejoin = off`);
      await tx.execute(
        sql`insert into report_watermarks (name, message_id) values (${REPORT_WATERMARK}, 0) on conflict do nothing`,
      );
      const [mark] = rowsOf<{ message_id: string | number }>(
        await tx.execute(sql`select message_id from report_watermarks where name = ${REPORT_WATERMARK} for update`),
      );
      const lo = Number(mark?.message_id ?? 0);
      const folded = rowsOf<{ id: string | number }>(
        await tx.execute(sql`
          select id from chat_messages where id > ${lo} and id <= ${settled} order by id limit ${deps.batch}`),
      );
      if (folded.length === 0) return 0;
      const hi = Number(folded[folded.length - 1].id);

      await tx.execute(sql`
        insert into report_message_hours (space_id, scene_id, hour, send_type, messages)
        select space_id, scene_id, date_trunc('hour', sent_at, 'UTC'), send_type, count(*)
        from chat_messages where id > ${lo} and id <= ${hi} group by 1, 2, 3, 4
        on conflict (space_id, scene_id, hour, send_type)
        do update set messages = report_message_hours.messages + excluded.messages`);

      // Sessions: take out those the new messages touch, then store them computed again. Two
      // statements, since one cannot delete and insert the same key.
      await tx.execute(sql`create temp table report_cut on commit drop as ${cutSql(lo, hi, null)}`);
      await tx.execute(sql`
        with gone as (
          delete from report_sessions s using (${replacedSessions(sql`report_cut`)}) r
          where s.conversation_id = r.conversation_id and s.started_at = r.started_at returning s.*
        ), facts as (select s.space_id, s.scene_id, ${sessionFacts(-1)} from gone s)
        insert into report_session_hours (space_id, scene_id, hour, ${sums})
        select space_id, scene_id, at, ${sumOf} from facts group by 1, 2, 3
        on conflict (space_id, scene_id, hour) do update set ${addSums}`);
      await tx.execute(sql`
        with made as (
          insert into report_sessions (conversation_id, started_at, space_id, scene_id, last_message_at, messages,
            first_customer_at, first_reply_at, human)
          select conversation_id, started_at, space_id, scene_id, last_message_at, messages,
            first_customer_at, first_reply_at, human
          from (${sessionsOfCut(sql`report_cut`, hi)}) computed
          returning *
        ), facts as (select s.space_id, s.scene_id, ${sessionFacts(1)} from made s)
        insert into report_session_hours (space_id, scene_id, hour, ${sums})
        select space_id, scene_id, at, ${sumOf} from facts group by 1, 2, 3
        on conflict (space_id, scene_id, hour) do update set ${addSums}`);

      // New customers: a customer's first message, moved earlier when an earlier one arrives late.
      await tx.execute(sql`
        with firsts as (
          select c.customer_id, c.space_id, c.scene_id, min(m.sent_at) as first_at
          from chat_messages m join chat_conversations c on c.id = m.conversation_id
          where m.id > ${lo} and m.id <= ${hi} and c.customer_id is not null
          group by 1, 2, 3
        ), old as (
          select r.customer_id, r.space_id, r.scene_id, r.first_at from report_customers r join firsts f using (customer_id)
        ), moved as (
          insert into report_customers (customer_id, space_id, scene_id, first_at)
          select customer_id, space_id, scene_id, first_at from firsts
          on conflict (customer_id) do update set first_at = excluded.first_at
          where excluded.first_at < report_customers.first_at
          returning customer_id, space_id, scene_id, first_at
        ), deltas as (
          select space_id, scene_id, date_trunc('hour', first_at, 'UTC') as hour, 1 as n from moved
          union all
          select o.space_id, o.scene_id, date_trunc('hour', o.first_at, 'UTC'), -1 from old o join moved using (customer_id)
        )
        insert into report_customer_hours (space_id, scene_id, hour, customers)
        select space_id, scene_id, hour, sum(n) from deltas group by 1, 2, 3
        on conflict (space_id, scene_id, hour) do update set customers = report_customer_hours.customers + excluded.customers`);

      await tx.execute(
        sql`update report_watermarks set message_id = ${hi}, updated_at = now() where name = ${REPORT_WATERMARK}`,
      );
      return folded.length;
    });
  }

  return {
    /**
     * Folds batches until caught up, or `maxBatches` of them (a scheduled run stays short when a
     * large history arrives; the next run goes on); answers how many messages were folded.
     */
    async catchUp(options: { maxBatches?: number } = {}): Promise<number> {
      const settled = await settledMessageId(db);
      let total = 0;
      for (let batch = 0; batch < (options.maxBatches ?? Number.POSITIVE_INFINITY); batch += 1) {
        const folded = await step(settled);
        total += folded;
        if (folded === 0) break;
      }
      return total;
    },
  };
}

export type ReportSummary = ReturnType<typeof createReportSummary>;
