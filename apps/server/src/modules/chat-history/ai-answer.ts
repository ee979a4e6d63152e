import { CHAT_LIMITS } from '@athena/contract';
import { desc, eq } from 'drizzle-orm';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { Db } from '../../platform/db/database.ts';
import { AppError } from '../../platform/http/app-error.ts';
import { classifyLlmError, type LlmGateway } from '../../platform/llm/llm-gateway.ts';
import { createAgentLookup } from '../agent/index.ts';
import type { KnowledgeModule } from '../knowledge/index.ts';
import type { ModelKeyService } from '../model-key/model-key.service.ts';
import { chatMessages } from './chat-history.schema.ts';

/** Messages of the conversation the agent reads: enough for context, bounded in cost. */
const HISTORY = 20;
/** The agent says this, alone or after its text, when a person should take over. */
export const HANDOVER_MARK = '[[HANDOVER]]';
const ANSWER_TIMEOUT_MS = 60_000;

const CUSTOMER_SERVICE_RULES = `You are answering a customer in a customer-service chat on WeChat.
Reply in the customer's language, briefly, in plain text without Markdown.
If the sources and the conversation do not let you answer with confidence, or the customer asks for a person, reply with exactly ${HANDOVER_MARK}.`;

/** What a non-text message reads as in the agent's context. */
const placeholderOf = (displayType: string) => `[${displayType}]`;

/**
 * The scene's agent answering a conversation (docs/chat-replies.md): its own prompt, model key,
 * temperature and knowledge bases, the conversation's last messages as context, through the
 * gateway (usage recorded as `chat.reply`). Says when it would rather hand over to a person.
 */
export function createAiAnswer(deps: {
  db: Db;
  modelKeys: Pick<ModelKeyService, 'resolveForUse'>;
  gateway: LlmGateway;
  retrieval: KnowledgeModule['retrieval'];
}) {
  const { db } = deps;

  const lookUpAgent = createAgentLookup(db);
  async function agentOf(spaceId: string, agentId: string | null) {
    if (!agentId) throw new AppError('CHAT_REPLY_AGENT_REQUIRED');
    const agent = await lookUpAgent(spaceId, agentId);
    if (!agent) throw new AppError('CHAT_REPLY_AGENT_NOT_FOUND');
    return agent;
  }

  return {
    async answer(spaceId: string, agentId: string | null, conversationId: number, userId: string | null) {
      const agent = await agentOf(spaceId, agentId);
      const recent = await db
        .select({
          sendType: chatMessages.sendType,
          displayType: chatMessages.displayType,
          content: chatMessages.content,
          recalled: chatMessages.recalled,
        })
        .from(chatMessages)
        .where(eq(chatMessages.conversationId, conversationId))
        .orderBy(desc(chatMessages.sentAt), desc(chatMessages.id))
        .limit(HISTORY);
      const history = recent.reverse().filter((message) => !message.recalled);
      const query = history.findLast((message) => message.sendType === 'user')?.content ?? '';
      const hits =
        agent.attachments.knowledge_ids.length > 0 && query.trim()
          ? await deps.retrieval.retrieveForAgent({
              spaceId,
              userId,
              knowledgeIds: agent.attachments.knowledge_ids,
              query,
            })
          : [];
      const sources = hits.map((hit, index) => `[${index + 1}] ${hit.segment.content || hit.segment.answer}`);
      const messages: ChatCompletionMessageParam[] = [
        ...(agent.systemPrompt ? [{ role: 'system' as const, content: agent.systemPrompt }] : []),
        { role: 'system', content: CUSTOMER_SERVICE_RULES },
        ...(sources.length > 0 ? [{ role: 'system' as const, content: `Sources:\n${sources.join('\n')}` }] : []),
        ...history.map(
          (message): ChatCompletionMessageParam => ({
            role: message.sendType === 'user' ? 'user' : 'assistant',
            content: message.displayType === 'text' ? message.content || ' ' : placeholderOf(message.displayType),
          }),
        ),
      ];
      const key = await deps.modelKeys.resolveForUse(spaceId, { id: agent.modelKeyId ?? undefined, purpose: 'chat' });
      if (!key) throw new AppError('CHAT_AI_FAILED', { detail: 'no chat model key' });
      let text: string;
      try {
        const completion = await deps.gateway.chat({
          key,
          messages,
          temperature: agent.params.temperature,
          maxTokens: agent.params.max_tokens ?? undefined,
          signal: AbortSignal.timeout(ANSWER_TIMEOUT_MS),
          usage: { spaceId, userId, source: 'chat.reply', subject: { kind: 'agent', id: agentId ?? '' } },
        });
        text = completion.choices[0]?.message?.content ?? '';
      } catch (error) {
        // A platform model the balance cannot cover says so, rather than "the model failed".
        if (error instanceof AppError) throw error;
        throw new AppError('CHAT_AI_FAILED', { detail: classifyLlmError(error) });
      }
      const handover = text.includes(HANDOVER_MARK);
      // A reply WeCom takes in one message; a longer answer is cut rather than refused.
      const answer = [...text.replaceAll(HANDOVER_MARK, '').trim()].slice(0, CHAT_LIMITS.replyChars).join('');
      return { text: answer, handover: handover || !answer, agentName: agent.name };
    },
  };
}

export type AiAnswer = ReturnType<typeof createAiAnswer>;
