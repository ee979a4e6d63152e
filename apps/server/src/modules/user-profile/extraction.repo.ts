import { and, desc, eq, max, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.ts';
import { rowsOf, type Tx } from '../../platform/db/sql.ts';
import { chatConversations, chatMessages } from '../chat-history/chat-history.schema.ts';
import { profileChanges, profileExtractions } from './user-profile.schema.ts';

export type ExtractionRow = typeof profileExtractions.$inferSelect;

/** A conversation the sweep found: quiet, in a scene that extracts, with customer messages not read yet. */
export interface DueConversation {
  id: number | string;
  space_id: string;
  scene_id: number;
}

/** What AI extraction reads and remembers (the conversations are chat history's, read from its tables). */
export function createExtractionRepo(db: Db) {
  return {
    /** A private conversation of the scene with its customer; null otherwise. */
    async conversation(spaceId: string, sceneId: number, conversationId: number) {
      const [row] = await db
        .select({ id: chatConversations.id, customerId: chatConversations.customerId })
        .from(chatConversations)
        .where(
          and(
            eq(chatConversations.id, conversationId),
            eq(chatConversations.spaceId, spaceId),
            eq(chatConversations.sceneId, sceneId),
            eq(chatConversations.chatType, 'private'),
          ),
        );
      return row?.customerId ? { id: row.id, customerId: row.customerId } : null;
    },

    /** The customer's most recently active private conversation. */
    async latestConversationOf(customerId: number) {
      const [row] = await db
        .select({ id: chatConversations.id })
        .from(chatConversations)
        .where(and(eq(chatConversations.customerId, customerId), eq(chatConversations.chatType, 'private')))
        .orderBy(desc(chatConversations.lastMessageAt), desc(chatConversations.id))
        .limit(1);
      return row?.id ?? null;
    },

    /** The last `limit` text messages, oldest first, recalled ones left out. */
    async transcript(conversationId: number, limit: number) {
      const rows = await db
        .select({ id: chatMessages.id, sendType: chatMessages.sendType, content: chatMessages.content })
        .from(chatMessages)
        .where(
          and(
            eq(chatMessages.conversationId, conversationId),
            eq(chatMessages.displayType, 'text'),
            eq(chatMessages.recalled, false),
          ),
        )
        .orderBy(desc(chatMessages.sentAt), desc(chatMessages.id))
        .limit(limit);
      return rows.reverse();
    },

    /** The highest message id of the conversation: anything that arrives later has a higher one. */
    async newestMessageId(conversationId: number) {
      const [row] = await db
        .select({ id: max(chatMessages.id) })
        .from(chatMessages)
        .where(eq(chatMessages.conversationId, conversationId));
      return row?.id === null || row?.id === undefined ? null : Number(row.id);
    },

    async last(conversationId: number): Promise<ExtractionRow | null> {
      const [row] = await db
        .select()
        .from(profileExtractions)
        .where(eq(profileExtractions.conversationId, conversationId));
      return row ?? null;
    },

    /** The latest extraction of any of the customer's conversations (one row per conversation is kept). */
    async lastOfCustomer(customerId: number): Promise<ExtractionRow | null> {
      const [row] = await db
        .select({ extraction: profileExtractions })
        .from(profileExtractions)
        .innerJoin(chatConversations, eq(chatConversations.id, profileExtractions.conversationId))
        .where(eq(chatConversations.customerId, customerId))
        .orderBy(desc(profileExtractions.createdAt), desc(profileExtractions.conversationId))
        .limit(1);
      return row?.extraction ?? null;
    },

    /** Remembers this extraction as the conversation's last one. */
    async record(row: typeof profileExtractions.$inferInsert) {
      await db
        .insert(profileExtractions)
        .values(row)
        .onConflictDoUpdate({ target: profileExtractions.conversationId, set: row });
    },

    /** Who last changed the customer's field: a person's set, clear or undo is theirs to keep. */
    async latestChangeSource(tx: Tx, customerId: number, fieldId: string) {
      const [row] = await tx
        .select({ source: profileChanges.source })
        .from(profileChanges)
        .where(and(eq(profileChanges.customerId, customerId), eq(profileChanges.fieldId, fieldId)))
        .orderBy(desc(profileChanges.id))
        .limit(1);
      return row?.source ?? null;
    },

    /**
     * Private conversations last active between `from` and `quietSince`, in scenes with a field that
     * AI fills and an agent in their reply settings, with a customer message newer than their last
     * extraction; the longest quiet first.
     */
    async due(params: { from: Date; quietSince: Date; limit: number }): Promise<DueConversation[]> {
      return rowsOf<DueConversation>(
        await db.execute(sql`
          select c.id, c.space_id, c.scene_id
          from (select distinct space_id, scene_id from profile_fields where ai_extract) s
          join chat_scene_settings st on st.space_id = s.space_id and st.scene_id = s.scene_id
            and coalesce(st.reply->>'agent_id', '') <> ''
          join chat_conversations c on c.space_id = s.space_id and c.scene_id = s.scene_id
            and c.last_message_at > ${params.from.toISOString()}::timestamptz
            and c.last_message_at <= ${params.quietSince.toISOString()}::timestamptz
          left join profile_extractions e on e.conversation_id = c.id
          where c.chat_type = 'private' and c.customer_id is not null
            and exists (
              select 1 from chat_messages m
              where m.conversation_id = c.id and m.send_type = 'user' and m.id > coalesce(e.last_message_id, 0)
            )
          order by c.last_message_at, c.id
          limit ${params.limit}`),
      );
    },
  };
}

export type ExtractionRepo = ReturnType<typeof createExtractionRepo>;
