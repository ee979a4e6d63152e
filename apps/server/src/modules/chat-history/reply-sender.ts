import type { ChatSendType } from '@athena/contract';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../platform/db/database.ts';
import { rowsOf } from '../../platform/db/sql.ts';
import { AppError } from '../../platform/http/app-error.ts';
import { WecomApiError } from '../../platform/wecom/kf-api.ts';
import { chatConversations, chatCustomers, chatMessages } from './chat-history.schema.ts';
import type { ChatScope } from './chat-scope.ts';
import { storeMessages } from './message-store.ts';
import type { WecomClients } from './wecom-clients.ts';

/** WeCom lets a business answer for 48 hours after the customer's last message, 5 messages at most. */
const REPLY_WINDOW_MS = 48 * 3_600_000;
const REPLIES_PER_CUSTOMER_MESSAGE = 5;

/** A conversation replies go to: a WeCom account (channel) and the customer's external id. */
export interface OutgoingConversation {
  id: number;
  sourceId: string;
  channelId: string;
  handlerState: string;
  customerSourceId: string | null;
}

/**
 * Sends our replies through the scene's channel (WeCom customer service) and stores them with
 * their send type, since WeCom does not echo what the API sends. A reply is stored as `sending`
 * first, then `sent` or `failed` with WeCom's reason, so a failure is seen on the message itself.
 * Sending is idempotent on our msgid: a retried send is the same message, sent once.
 */
export function createReplySender(deps: {
  db: Db;
  clients: WecomClients;
  now: () => Date;
  log: FastifyBaseLogger;
  onChanged: (spaceId: string, sceneId: number, conversationIds: number[]) => void;
}) {
  const { db, now } = deps;

  /**
   * Ours "since the customer's last message" are those stored after it: WeCom's times are whole
   * seconds, so within one second only the order of arrival tells.
   */
  async function checkWindow(conversationId: number) {
    const [state] = rowsOf<{ last_customer_at: Date | string | null; ours_since: number }>(
      await db.execute(sql`
        with last as (
          select id, sent_at from chat_messages where conversation_id = ${conversationId} and send_type = 'user'
          order by id desc limit 1
        )
        select last.sent_at as last_customer_at,
          (select count(*)::int from chat_messages m where m.conversation_id = ${conversationId}
            and m.send_type <> 'user' and m.status <> 'failed' and m.id > last.id) as ours_since
        from last`),
    );
    const lastCustomerAt = state?.last_customer_at ? new Date(state.last_customer_at).getTime() : null;
    if (lastCustomerAt === null || now().getTime() - lastCustomerAt > REPLY_WINDOW_MS) {
      throw new AppError('CHAT_REPLY_WINDOW_CLOSED');
    }
    if ((state?.ours_since ?? 0) >= REPLIES_PER_CUSTOMER_MESSAGE) throw new AppError('CHAT_REPLY_LIMIT_REACHED');
  }

  const messageBySource = async (scope: Pick<ChatScope, 'spaceId' | 'sceneId'>, msgid: string) => {
    const [row] = await db
      .select()
      .from(chatMessages)
      .where(
        and(
          eq(chatMessages.spaceId, scope.spaceId),
          eq(chatMessages.sceneId, scope.sceneId),
          eq(chatMessages.sourceMsgId, msgid),
        ),
      );
    return row;
  };

  return {
    /** A private conversation of the scope with its customer's WeCom id, or null. */
    async conversationOf(
      scope: Pick<ChatScope, 'spaceId' | 'sceneId'>,
      conversationId: number,
    ): Promise<OutgoingConversation | null> {
      const [row] = await db
        .select({
          id: chatConversations.id,
          sourceId: chatConversations.sourceId,
          channelId: chatConversations.channelId,
          handlerState: chatConversations.handlerState,
          customerSourceId: chatCustomers.sourceId,
        })
        .from(chatConversations)
        .leftJoin(chatCustomers, eq(chatCustomers.id, chatConversations.customerId))
        .where(
          and(
            eq(chatConversations.spaceId, scope.spaceId),
            eq(chatConversations.sceneId, scope.sceneId),
            eq(chatConversations.id, conversationId),
          ),
        );
      return row ?? null;
    },

    async send(
      scope: Pick<ChatScope, 'spaceId' | 'sceneId'>,
      conversation: OutgoingConversation,
      out: { content: string; sendType: Exclude<ChatSendType, 'user'>; senderName: string; msgid: string },
    ) {
      const account = await deps.clients.accountOf(scope);
      if (!account || !conversation.customerSourceId) throw new AppError('CHAT_REPLY_UNSUPPORTED');
      const existing = await messageBySource(scope, out.msgid);
      if (existing && existing.status !== 'failed') return existing;
      await checkWindow(conversation.id);
      if (existing) {
        // Sending a failed message again: whoever flips it back to sending sends it.
        const taken = await db
          .update(chatMessages)
          .set({ status: 'sending', failReason: null })
          .where(and(eq(chatMessages.id, existing.id), eq(chatMessages.status, 'failed')))
          .returning({ id: chatMessages.id });
        if (taken.length === 0) return (await messageBySource(scope, out.msgid)) ?? existing;
      } else {
        const stored = await storeMessages(db, scope.spaceId, scope.sceneId, [
          {
            sourceMsgId: out.msgid,
            conversation: {
              sourceId: conversation.sourceId,
              chatType: 'private',
              title: '',
              channelId: conversation.channelId,
              channelName: '',
            },
            customer: null,
            sendType: out.sendType,
            senderName: out.senderName,
            displayType: 'text',
            sourceKind: 'wecom:text',
            content: out.content,
            payload: {},
            sentAt: wholeSecond(now()),
            recalled: false,
            status: 'sending',
          },
        ]);
        // The same msgid stored by a send running at the same moment: that one sends it.
        if (stored.stored === 0) {
          const other = await messageBySource(scope, out.msgid);
          if (other) return other;
        }
      }
      let outcome: { status: 'sent' | 'failed'; failReason: string | null };
      try {
        await deps.clients.clientOf(account).sendText({
          toUser: conversation.customerSourceId,
          openKfId: conversation.channelId,
          msgid: out.msgid,
          content: out.content,
        });
        outcome = { status: 'sent', failReason: null };
      } catch (error) {
        deps.log.warn({ err: error, conversation: conversation.id }, 'WeCom send failed');
        const reason =
          error instanceof WecomApiError && error.errcode !== undefined
            ? `WeCom errcode ${error.errcode}: ${error.message}`
            : 'WeCom could not be reached';
        outcome = { status: 'failed', failReason: reason.slice(0, 300) };
      }
      const [row] = await db
        .update(chatMessages)
        .set(outcome)
        .where(
          and(
            eq(chatMessages.spaceId, scope.spaceId),
            eq(chatMessages.sceneId, scope.sceneId),
            eq(chatMessages.sourceMsgId, out.msgid),
          ),
        )
        .returning();
      deps.onChanged(scope.spaceId, scope.sceneId, [conversation.id]);
      return row;
    },
  };
}

export type ReplySender = ReturnType<typeof createReplySender>;

/**
 * What we send is timed to the whole second, as WeCom times what it reports, so a thread in
 * (time, id) order keeps our replies and the customer's messages in the order they arrived.
 */
export const wholeSecond = (at: Date) => new Date(Math.floor(at.getTime() / 1000) * 1000);
