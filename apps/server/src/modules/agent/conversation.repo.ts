import { randomUUID } from 'node:crypto';
import type { AgentToolStep, ChatMessage, Citation } from '@athena/contract';
import { and, asc, desc, eq, isNull, lt, ne, or } from 'drizzle-orm';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { isUuid } from '../../platform/crypto.ts';
import type { Db } from '../../platform/db/database.ts';
import { AppError } from '../../platform/http/app-error.ts';
import { conversations, messages } from './agent.schema.ts';
import type { AgentRow } from './agent.service.ts';

export type ConversationRepo = ReturnType<typeof createConversationRepo>;
/** The part of this repo a chat turn writes through. */
export type ChatStore = Pick<ConversationRepo, 'openTurn' | 'saveProgress' | 'saveAnswer'>;
/**
 * Whose conversations: a signed-in member's, within the space they are in (so a member who left a
 * team cannot reach those conversations from another space), or a share-page visitor's.
 */
export type ChatOwner =
  | { userId: string; spaceId: string; visitorId?: undefined }
  | { visitorId: string; userId?: undefined; spaceId?: undefined };
export type ChatChannel = 'playground' | 'share';

/** How an answer ended: what streamed, its status, the catalogue key of a failure, its sources. */
export interface FinishedAnswer {
  content: string;
  status: ChatMessage['status'];
  error: string | null;
  citations: Citation[];
  /** The MCP tools it called, in order. */
  steps: AgentToolStep[];
  tokens: { input: number; output: number };
}

/** How many earlier messages go back to the model with each question. */
const HISTORY_LIMIT = 40;

/**
 * Conversations and their messages, scoped by owner (a signed-in user or a share-page visitor).
 * Callers check access to the agent first; the model call is the chat-turn command's.
 */
export function createConversationRepo(deps: { db: Db; now: () => Date }) {
  const { db } = deps;

  const ownerCondition = (owner: ChatOwner) =>
    owner.userId
      ? and(eq(conversations.userId, owner.userId), eq(conversations.spaceId, owner.spaceId))
      : eq(conversations.visitorId, owner.visitorId!);

  async function findConversation(agentId: string, id: string, owner: ChatOwner) {
    if (!isUuid(id)) throw new AppError('NOT_FOUND');
    const [row] = await db
      .select()
      .from(conversations)
      .where(and(eq(conversations.id, id), eq(conversations.agentId, agentId), ownerCondition(owner)))
      .limit(1);
    if (!row) throw new AppError('NOT_FOUND');
    return row;
  }

  const toMessage = (row: typeof messages.$inferSelect): ChatMessage => ({
    id: row.id,
    role: row.role as ChatMessage['role'],
    content: row.content,
    status: row.status as ChatMessage['status'],
    error: row.error,
    citations: row.citations as ChatMessage['citations'],
    steps: row.steps as ChatMessage['steps'],
    created_at: row.createdAt.toISOString(),
  });

  const promptOf = (agent: AgentRow, history: { role: string; content: string }[]): ChatCompletionMessageParam[] => [
    ...(agent.systemPrompt ? [{ role: 'system' as const, content: agent.systemPrompt }] : []),
    ...history.map((m) => ({ role: m.role as 'user' | 'assistant', content: m.content })),
  ];

  /**
   * A first question needs nothing from the database to be answered, so the model call starts at
   * once and its rows (ids made here) are written by `persist` once the first token has gone out
   * (chat-turn.command.ts says why). A crash before the first token loses only the unanswered question.
   */
  function startConversation(agent: AgentRow, owner: ChatOwner, channel: ChatChannel, message: string, at: Date) {
    const conversationId = randomUUID();
    const answerId = randomUUID();
    const write = () =>
      db.transaction(async (tx) => {
        await tx.insert(conversations).values({
          id: conversationId,
          agentId: agent.id,
          spaceId: agent.spaceId,
          userId: owner.userId,
          visitorId: owner.visitorId,
          channel,
          title: message.slice(0, 40),
          createdAt: at,
          updatedAt: at,
        });
        await tx.insert(messages).values([
          { conversationId, role: 'user', content: message, status: 'complete', createdAt: at },
          {
            id: answerId,
            conversationId,
            role: 'assistant',
            content: '',
            status: 'streaming',
            createdAt: new Date(at.getTime() + 1),
            streamedAt: at,
          },
        ]);
      });
    return { conversationId, answerId, prompt: promptOf(agent, [{ role: 'user', content: message }]), persist: write };
  }

  return {
    async listConversations(agentId: string, owner: ChatOwner) {
      const rows = await db
        .select()
        .from(conversations)
        .where(and(eq(conversations.agentId, agentId), ownerCondition(owner)))
        .orderBy(desc(conversations.updatedAt))
        .limit(200);
      return { items: rows.map((row) => ({ id: row.id, title: row.title, updated_at: row.updatedAt.toISOString() })) };
    },

    async messages(conversationId: string, owner: ChatOwner, agentId?: string) {
      if (!isUuid(conversationId)) throw new AppError('NOT_FOUND');
      const conditions = [eq(conversations.id, conversationId), ownerCondition(owner)];
      if (agentId) conditions.push(eq(conversations.agentId, agentId));
      const [conversation] = await db
        .select()
        .from(conversations)
        .where(and(...conditions))
        .limit(1);
      if (!conversation) throw new AppError('NOT_FOUND');
      const rows = await db
        .select()
        .from(messages)
        .where(eq(messages.conversationId, conversationId))
        .orderBy(asc(messages.createdAt), asc(messages.role));
      return { conversation, items: rows.map(toMessage) };
    },

    async rename(id: string, owner: ChatOwner, title: string) {
      if (!isUuid(id)) throw new AppError('NOT_FOUND');
      const done = await db
        .update(conversations)
        .set({ title })
        .where(and(eq(conversations.id, id), ownerCondition(owner)))
        .returning({ id: conversations.id });
      if (done.length === 0) throw new AppError('NOT_FOUND');
    },

    async remove(id: string, owner: ChatOwner) {
      if (!isUuid(id)) throw new AppError('NOT_FOUND');
      const done = await db
        .delete(conversations)
        .where(and(eq(conversations.id, id), ownerCondition(owner)))
        .returning({ id: conversations.id });
      if (done.length === 0) throw new AppError('NOT_FOUND');
    },

    /**
     * Records the question (or, to regenerate, drops the last answer) and an empty answer to
     * stream into. Everything that can fail for the caller fails here, before the stream starts.
     */
    async openTurn(input: {
      agent: AgentRow;
      owner: ChatOwner;
      channel: ChatChannel;
      conversationId?: string;
      message?: string;
      regenerate: boolean;
    }) {
      const at = deps.now();
      const conversation = input.conversationId
        ? await findConversation(input.agent.id, input.conversationId, input.owner)
        : undefined;
      if (input.regenerate) {
        if (!conversation) throw new AppError('NOTHING_TO_REGENERATE');
        const [last] = await db
          .select()
          .from(messages)
          .where(eq(messages.conversationId, conversation.id))
          .orderBy(desc(messages.createdAt))
          .limit(1);
        if (!last) throw new AppError('NOTHING_TO_REGENERATE');
        if (last.role === 'assistant') await db.delete(messages).where(eq(messages.id, last.id));
      } else {
        if (!input.message) throw new AppError('MESSAGE_REQUIRED');
        if (!conversation) return startConversation(input.agent, input.owner, input.channel, input.message, at);
        await db.insert(messages).values({
          conversationId: conversation.id,
          role: 'user',
          content: input.message,
          status: 'complete',
          createdAt: at,
        });
      }
      const history = (
        await db
          .select({ role: messages.role, content: messages.content })
          .from(messages)
          .where(and(eq(messages.conversationId, conversation.id), ne(messages.content, '')))
          .orderBy(desc(messages.createdAt))
          .limit(HISTORY_LIMIT)
      ).reverse();
      // The answer is created a millisecond after the question so the order survives equal clocks.
      const answerId = randomUUID();
      await db.insert(messages).values({
        id: answerId,
        conversationId: conversation.id,
        role: 'assistant',
        content: '',
        status: 'streaming',
        createdAt: new Date(at.getTime() + 1),
        streamedAt: at,
      });
      await db.update(conversations).set({ updatedAt: at }).where(eq(conversations.id, conversation.id));
      return {
        conversationId: conversation.id,
        answerId,
        prompt: promptOf(input.agent, history),
        persist: () => Promise.resolve(),
      };
    },

    /**
     * What has streamed so far, written every few seconds while the answer streams: a crash loses
     * at most the last few seconds, and `streamedAt` shows the answer's process is alive.
     */
    async saveProgress(answerId: string, content: string) {
      await db
        .update(messages)
        .set({ content, streamedAt: deps.now() })
        .where(and(eq(messages.id, answerId), eq(messages.status, 'streaming')));
    },

    /**
     * Answers still "streaming" whose process last wrote before `before` lost that process (a crash,
     * a kill): they become `interrupted`, keeping what had been written. Returns how many.
     */
    async markInterrupted(before: Date) {
      const marked = await db
        .update(messages)
        .set({ status: 'interrupted' })
        .where(and(eq(messages.status, 'streaming'), or(isNull(messages.streamedAt), lt(messages.streamedAt, before))))
        .returning({ id: messages.id });
      return marked.length;
    },

    /**
     * Writes how the answer ended. Its row must still be streaming: one deleted meanwhile (its
     * conversation or agent deleted, a regenerate that replaced it) or already marked interrupted
     * was not kept, and the turn says so rather than reporting a saved answer.
     */
    async saveAnswer(answerId: string, answer: FinishedAnswer) {
      const { content, status, error, citations, steps, tokens } = answer;
      const saved = await db
        .update(messages)
        .set({ content, status, error, citations, steps, inputTokens: tokens.input, outputTokens: tokens.output })
        .where(and(eq(messages.id, answerId), eq(messages.status, 'streaming')))
        .returning({ id: messages.id });
      if (saved.length === 0) throw new Error(`the answer ${answerId} is no longer there to be saved`);
    },
  };
}
