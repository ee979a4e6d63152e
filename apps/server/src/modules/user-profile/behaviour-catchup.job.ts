import { sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.ts';
import { rowsOf } from '../../platform/db/sql.ts';
import { settledMessageId } from '../chat-history/index.ts';
import type { BehaviourService } from './behaviour.service.ts';
import type { SatisfactionService } from './satisfaction.service.ts';

/** The job's row in report_watermarks: every message up to `message_id` has been derived. */
export const BEHAVIOUR_WATERMARK = 'behaviour';
/**
 * Behaviour events are derived as chat history stores messages (its stored-listener); a crash
 * between the two, or a listener that failed, would lose them. This job goes over the messages
 * after its watermark, in id ranges up to chat history's settledMessageId (no message below it can
 * still appear), derives their events again (each is stored once: a no-op for those already
 * there) and matches the new menu taps to surveys. Sessions are not messages: WeCom's session
 * events are re-read from WeCom when a pull stops before its cursor moves (docs/user-profiles.md).
 */
export function createBehaviourCatchUp(deps: {
  db: Db;
  behaviour: BehaviourService;
  satisfaction: SatisfactionService;
  /** Message ids covered per step (most are not events: the range is read through the primary key). */
  span: number;
}) {
  const { db } = deps;

  /**
   * Derives the next range; answers whether there was one (false: caught up). No transaction
   * around it: the embedded engine has one connection, which the derivation's own statements
   * need. Every write is idempotent and the watermark moves only from where this step read it, so
   * two runs at once (or a crash before the move) derive a range twice and store nothing twice.
   */
  async function step(settled: number): Promise<boolean> {
    await db.execute(
      sql`insert into report_watermarks (name, message_id) values (${BEHAVIOUR_WATERMARK}, 0) on conflict do nothing`,
    );
    const [mark] = rowsOf<{ message_id: string | number }>(
      await db.execute(sql`select message_id from report_watermarks where name = ${BEHAVIOUR_WATERMARK}`),
    );
    const from = Number(mark?.message_id ?? 0);
    if (from >= settled) return false;
    const upto = Math.min(settled, from + deps.span);
    for (const { scene, derived } of await deps.behaviour.deriveRange(from, upto)) {
      await deps.satisfaction.onDerived(scene, derived);
    }
    const moved = rowsOf(
      await db.execute(sql`update report_watermarks set message_id = ${upto}, updated_at = now()
        where name = ${BEHAVIOUR_WATERMARK} and message_id = ${from} returning name`),
    );
    return moved.length > 0;
  }

  return {
    /** Derives ranges until caught up, or `maxSteps` of them (a scheduled run stays short). */
    async catchUp(options: { maxSteps?: number } = {}) {
      const settled = await settledMessageId(db);
      for (let done = 0; done < (options.maxSteps ?? Number.POSITIVE_INFINITY); done += 1) {
        if (!(await step(settled))) break;
      }
    },
  };
}
