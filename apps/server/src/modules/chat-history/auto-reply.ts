import type { ReplySettings } from '@athena/contract';
import { and, desc, eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { sha256 } from '../../platform/crypto.ts';
import type { Db } from '../../platform/db/database.ts';
import type { AiAnswer } from './ai-answer.ts';
import { chatConversations, chatMessages } from './chat-history.schema.ts';
import { storeMessages } from './message-store.ts';
import { isOfficeTime } from './office-hours.ts';
import { type OutgoingConversation, type ReplySender, wholeSecond } from './reply-sender.ts';
import type { SceneSettingsService } from './scene-settings.service.ts';
import type { WecomClients } from './wecom-clients.ts';
import { conversationSourceIdOf } from './wecom-messages.ts';

type Scene = { spaceId: string; sceneId: number };

/** Our msgid for an automatic reply to one customer message: the same trigger never answers twice. */
const replyMsgId = (kind: 'fixed' | 'handover' | 'ai' | 'welcome', trigger: string) =>
  `${kind[0]}${sha256(`${kind}:${trigger}`).slice(0, 31)}`;

const contains = (text: string, keywords: string[]) => {
  const lower = text.toLowerCase();
  return keywords.some((keyword) => keyword && lower.includes(keyword.toLowerCase()));
};

/**
 * What answers a customer without a person (docs/chat-replies.md), after each pull that brought
 * them new messages: asking for a person hands the conversation over; a keyword reply answers its
 * keywords; in `ai_full`, at the hours set and while nobody has taken the conversation, the agent
 * answers, or hands over when unsure. A customer entering a session gets the welcome. One
 * conversation is answered at a time, and each customer message at most once.
 */
export function createAutoReply(deps: {
  db: Db;
  sender: ReplySender;
  ai: AiAnswer;
  settings: Pick<SceneSettingsService, 'replyOf'>;
  clients: WecomClients;
  now: () => Date;
  log: FastifyBaseLogger;
  onChanged: (spaceId: string, sceneId: number, conversationIds: number[]) => void;
}) {
  const { db } = deps;
  const chains = new Map<number, Promise<void>>();

  function queue(conversationId: number, work: () => Promise<void>) {
    const previous = chains.get(conversationId) ?? Promise.resolve();
    const next = previous
      .then(work)
      .catch((error) => deps.log.warn({ err: error, conversation: conversationId }, 'automatic reply failed'))
      .finally(() => {
        if (chains.get(conversationId) === next) chains.delete(conversationId);
      });
    chains.set(conversationId, next);
  }

  async function setHandler(conversationId: number, state: string) {
    await db.update(chatConversations).set({ handlerState: state }).where(eq(chatConversations.id, conversationId));
  }

  /**
   * Tells the customer (the handover text), then puts the conversation in the queue for a person.
   * In that order: WeCom takes the API's messages only while nobody is assigned (a new session or
   * the smart assistant's); once queued it refuses them (95018). The text not getting through
   * does not keep the customer from a person.
   */
  async function handOver(scene: Scene, conversation: OutgoingConversation, reply: ReplySettings, trigger: string) {
    if (reply.handover_text) {
      await deps.sender
        .send(scene, conversation, {
          content: reply.handover_text,
          sendType: 'fixed',
          senderName: '',
          msgid: replyMsgId('handover', trigger),
        })
        .catch((error: unknown) =>
          deps.log.warn({ err: error, conversation: conversation.id }, 'handover text not sent'),
        );
    }
    const account = await deps.clients.accountOf(scene);
    if (account && conversation.customerSourceId) {
      await deps.clients
        .clientOf(account)
        .transferToPool({ openKfId: conversation.channelId, externalUserId: conversation.customerSourceId });
    }
    await setHandler(conversation.id, 'waiting');
    deps.onChanged(scene.spaceId, scene.sceneId, [conversation.id]);
  }

  async function answer(scene: Scene, conversationId: number) {
    const [last] = await db
      .select({ sourceMsgId: chatMessages.sourceMsgId, sendType: chatMessages.sendType, content: chatMessages.content })
      .from(chatMessages)
      .where(eq(chatMessages.conversationId, conversationId))
      .orderBy(desc(chatMessages.sentAt), desc(chatMessages.id))
      .limit(1);
    // Answered already (by a person or an earlier round), or nothing from the customer.
    if (last?.sendType !== 'user') return;
    const conversation = await deps.sender.conversationOf(scene, conversationId);
    if (!conversation) return;
    // A customer writing after the session ended starts a new one, which nobody handles yet.
    if (conversation.handlerState === 'ended') {
      await setHandler(conversationId, 'none');
      conversation.handlerState = 'none';
    }
    // A person has the conversation, or is about to: nothing automatic speaks over them (and
    // WeCom refuses the API's messages while a servicer handles it).
    if (conversation.handlerState === 'human' || conversation.handlerState === 'waiting') return;
    const reply = await deps.settings.replyOf(scene);
    if (contains(last.content, reply.handover_keywords)) return handOver(scene, conversation, reply, last.sourceMsgId);
    const scripted = reply.keyword_replies.find((rule) => contains(last.content, rule.keywords));
    if (scripted) {
      await deps.sender.send(scene, conversation, {
        content: scripted.reply,
        sendType: 'fixed',
        senderName: '',
        msgid: replyMsgId('fixed', last.sourceMsgId),
      });
      return;
    }
    const aiMayAnswer =
      reply.mode === 'ai_full' && (reply.ai_hours === 'always' || !isOfficeTime(reply.office_hours, deps.now()));
    if (!aiMayAnswer) return;
    const answered = await deps.ai.answer(scene.spaceId, reply.agent_id, conversationId, null);
    if (answered.handover) return handOver(scene, conversation, reply, last.sourceMsgId);
    await setHandler(conversationId, 'ai');
    await deps.sender.send(scene, conversation, {
      content: answered.text,
      sendType: 'ai_full',
      senderName: answered.agentName,
      msgid: replyMsgId('ai', last.sourceMsgId),
    });
  }

  /**
   * The welcome for a customer entering a session, through WeCom's one-time welcome code. Stored
   * before it is sent, like every reply; an event pulled again finds it stored and sends nothing.
   */
  async function welcome(scene: Scene, entered: { openKfId: string; externalUserId: string; welcomeCode: string }) {
    const reply = await deps.settings.replyOf(scene);
    const account = await deps.clients.accountOf(scene);
    if (!reply.welcome_text || !account) return;
    const msgid = replyMsgId('welcome', entered.welcomeCode);
    const stored = await storeMessages(db, scene.spaceId, scene.sceneId, [
      {
        sourceMsgId: msgid,
        conversation: {
          sourceId: conversationSourceIdOf(entered.openKfId, entered.externalUserId),
          chatType: 'private',
          title: '',
          channelId: entered.openKfId,
          // Named by the next pulled message (WeCom's account list); the page shows the id meanwhile.
          channelName: '',
        },
        customer: { sourceId: entered.externalUserId, name: '', avatarUrl: null },
        sendType: 'fixed',
        senderName: '',
        displayType: 'text',
        sourceKind: 'wecom:text',
        content: reply.welcome_text,
        payload: {},
        sentAt: wholeSecond(deps.now()),
        recalled: false,
        status: 'sending',
      },
    ]);
    if (stored.stored === 0) return;
    let outcome: { status: 'sent' | 'failed'; failReason: string | null } = { status: 'sent', failReason: null };
    try {
      await deps.clients
        .clientOf(account)
        .sendWelcome({ code: entered.welcomeCode, msgid, content: reply.welcome_text });
    } catch (error) {
      outcome = { status: 'failed', failReason: (error as Error).message.slice(0, 300) };
    }
    await db
      .update(chatMessages)
      .set(outcome)
      .where(
        and(
          eq(chatMessages.spaceId, scene.spaceId),
          eq(chatMessages.sceneId, scene.sceneId),
          eq(chatMessages.sourceMsgId, msgid),
        ),
      );
    deps.onChanged(scene.spaceId, scene.sceneId, stored.conversationIds);
  }

  return {
    onCustomerMessages(scene: Scene, conversationIds: number[]) {
      for (const id of conversationIds) queue(id, () => answer(scene, id));
    },
    onEnterSession(scene: Scene, entered: { openKfId: string; externalUserId: string; welcomeCode: string }) {
      queue(-1, () => welcome(scene, entered));
    },
    /** Resolves when every queued reply has been made (tests). */
    async idle() {
      while (chains.size > 0) await Promise.all([...chains.values()]);
    },
  };
}

export type AutoReply = ReturnType<typeof createAutoReply>;
