import { sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.ts';
import { rowsOf } from '../../platform/db/sql.ts';
import type { KfEvent } from './wecom-messages.ts';

/**
 * Applies what a channel reports about messages and conversations after the fact: a recall, a
 * send that failed, a conversation taken by a person or ended. Returns the conversations changed.
 * An event about something not stored (yet, or never) changes nothing.
 */
export async function applyEvents(db: Db, spaceId: string, sceneId: number, events: KfEvent[]) {
  const changed = new Set<number>();
  const note = (rows: { id: number | string }[]) => {
    for (const row of rows) changed.add(Number(row.id));
  };
  for (const event of events) {
    if (event.kind === 'recalled') {
      note(
        rowsOf(
          await db.execute(sql`update chat_messages set recalled = true
            where space_id = ${spaceId}::uuid and scene_id = ${sceneId} and source_msg_id = ${event.msgId}
            returning conversation_id as id`),
        ),
      );
    } else if (event.kind === 'send_failed') {
      note(
        rowsOf(
          await db.execute(sql`update chat_messages set status = 'failed', fail_reason = ${event.reason}
            where space_id = ${spaceId}::uuid and scene_id = ${sceneId} and source_msg_id = ${event.msgId}
            returning conversation_id as id`),
        ),
      );
    } else if (event.kind === 'session') {
      note(
        rowsOf(
          await db.execute(sql`update chat_conversations
            set handler_state = ${event.state}, servicer = coalesce(${event.servicer}, servicer)
            where space_id = ${spaceId}::uuid and scene_id = ${sceneId} and source_id = ${event.conversationSourceId}
            returning id`),
        ),
      );
    }
  }
  return [...changed];
}
