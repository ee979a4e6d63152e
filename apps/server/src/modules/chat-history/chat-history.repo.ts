import { and, asc, desc, eq, gt, ilike, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.ts';
import { escapeLike } from '../../platform/db/like.ts';
import { chatConversations, chatCustomers, chatMessages } from './chat-history.schema.ts';
import type { ChatScope } from './chat-scope.ts';
import { toBigint } from './conversation-list.query.ts';

export type MessageRow = typeof chatMessages.$inferSelect;

/** Threads, read marks and customers, every query inside the caller's space and scene. */
export function createChatHistoryRepo(db: Db) {
  const inScope = (scope: ChatScope) =>
    and(eq(chatConversations.spaceId, scope.spaceId), eq(chatConversations.sceneId, scope.sceneId));

  return {
    /** The conversation's id when it is in the scope, otherwise null. */
    async conversationIn(scope: ChatScope, id: string) {
      const [row] = await db
        .select({ id: chatConversations.id })
        .from(chatConversations)
        .where(and(inScope(scope), eq(chatConversations.id, Number(toBigint(id)))));
      return row?.id ?? null;
    },

    /**
     * A page of a thread in time order: the newest `limit` (or those before `beforeId`, or after
     * `afterId`), with whether there are more in that direction. Ties in time go by id.
     */
    async messages(conversationId: number, page: { beforeId: string | null; afterId: string | null; limit: number }) {
      const anchorId = page.beforeId ?? page.afterId;
      const [anchor] = anchorId
        ? await db
            .select({ sentAt: chatMessages.sentAt, id: chatMessages.id })
            .from(chatMessages)
            .where(
              and(eq(chatMessages.conversationId, conversationId), eq(chatMessages.id, Number(toBigint(anchorId)))),
            )
        : [];
      if (anchorId && !anchor) return { rows: [] as MessageRow[], hasMore: false };
      const forward = !page.beforeId && Boolean(page.afterId);
      const position = anchor
        ? forward
          ? or(
              gt(chatMessages.sentAt, anchor.sentAt),
              and(eq(chatMessages.sentAt, anchor.sentAt), gt(chatMessages.id, anchor.id)),
            )
          : or(
              lt(chatMessages.sentAt, anchor.sentAt),
              and(eq(chatMessages.sentAt, anchor.sentAt), lt(chatMessages.id, anchor.id)),
            )
        : undefined;
      const order = forward
        ? [asc(chatMessages.sentAt), asc(chatMessages.id)]
        : [desc(chatMessages.sentAt), desc(chatMessages.id)];
      const rows = await db
        .select()
        .from(chatMessages)
        .where(and(eq(chatMessages.conversationId, conversationId), position))
        .orderBy(...order)
        .limit(page.limit + 1);
      const hasMore = rows.length > page.limit;
      const pageRows = rows.slice(0, page.limit);
      return { rows: forward ? pageRows : pageRows.reverse(), hasMore };
    },

    async markRead(conversationId: number) {
      await db.update(chatConversations).set({ unread: 0 }).where(eq(chatConversations.id, conversationId));
    },

    async customers(scope: ChatScope, keyword: string) {
      return db
        .select({
          id: chatCustomers.id,
          name: chatCustomers.name,
          avatarUrl: chatCustomers.avatarUrl,
          sourceId: chatCustomers.sourceId,
        })
        .from(chatCustomers)
        .where(
          and(
            eq(chatCustomers.spaceId, scope.spaceId),
            eq(chatCustomers.sceneId, scope.sceneId),
            // By name, or by the channel's id of the customer pasted whole.
            keyword
              ? or(ilike(chatCustomers.name, `%${escapeLike(keyword)}%`), eq(chatCustomers.sourceId, keyword))
              : undefined,
          ),
        )
        .orderBy(sql`length(${chatCustomers.name})`, asc(chatCustomers.name), asc(chatCustomers.id))
        .limit(20);
    },
  };
}

export type ChatHistoryRepo = ReturnType<typeof createChatHistoryRepo>;
