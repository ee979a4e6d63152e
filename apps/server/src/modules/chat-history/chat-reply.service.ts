import { eq } from 'drizzle-orm';
import type { AuthContext } from '../../platform/auth-guard.ts';
import { newToken, sha256 } from '../../platform/crypto.ts';
import type { Db } from '../../platform/db/database.ts';
import { AppError } from '../../platform/http/app-error.ts';
import { users } from '../auth/auth.schema.ts';
import type { AiAnswer } from './ai-answer.ts';
import { type MediaUrlOf, presentMessage } from './chat-history.presenters.ts';
import type { ChatHistoryRepo } from './chat-history.repo.ts';
import { chatScope } from './chat-scope.ts';
import type { ReplySender } from './reply-sender.ts';
import type { SceneSettingsService } from './scene-settings.service.ts';

/**
 * Replies made from the console (docs/chat-replies.md): a person's message (`human`, or
 * `ai_assisted` when it began as the agent's draft), the agent's draft, and the agent answering
 * now at a person's request (`ai_manual`). Any member may reply.
 */
export function createChatReplyService(deps: {
  db: Db;
  repo: ChatHistoryRepo;
  sender: ReplySender;
  ai: AiAnswer;
  settings: Pick<SceneSettingsService, 'replyOf'>;
  mediaUrlOf: MediaUrlOf;
}) {
  async function target(ctx: AuthContext, conversationId: string) {
    const scope = chatScope(ctx, 'chat.reply');
    const found = await deps.repo.conversationIn(scope, conversationId);
    const conversation = found === null ? null : await deps.sender.conversationOf(scope, found);
    if (!conversation) throw new AppError('CHAT_CONVERSATION_NOT_FOUND');
    return { scope, conversation };
  }

  async function nicknameOf(userId: string) {
    const [row] = await deps.db.select({ nickname: users.nickname }).from(users).where(eq(users.id, userId));
    return row?.nickname ?? '';
  }

  return {
    async send(
      ctx: AuthContext,
      body: { conversation_id: string; content: string; send_type: 'human' | 'ai_assisted'; client_msg_id: string },
    ) {
      const { scope, conversation } = await target(ctx, body.conversation_id);
      const row = await deps.sender.send(scope, conversation, {
        content: body.content,
        sendType: body.send_type,
        senderName: await nicknameOf(scope.userId),
        // WeCom's msgid: at most 32 characters; the same client message is the same msgid.
        msgid: `c${sha256(`${scope.spaceId}:${body.client_msg_id}`).slice(0, 31)}`,
      });
      return presentMessage(row, deps.mediaUrlOf);
    },

    async draft(ctx: AuthContext, conversationId: string) {
      const { scope, conversation } = await target(ctx, conversationId);
      const reply = await deps.settings.replyOf(scope);
      const answered = await deps.ai.answer(scope.spaceId, reply.agent_id, conversation.id, scope.userId);
      return { text: answered.text, handover: answered.handover };
    },

    async aiReply(ctx: AuthContext, conversationId: string) {
      const { scope, conversation } = await target(ctx, conversationId);
      const reply = await deps.settings.replyOf(scope);
      const answered = await deps.ai.answer(scope.spaceId, reply.agent_id, conversation.id, scope.userId);
      if (!answered.text)
        throw new AppError('CHAT_AI_FAILED', { detail: 'the agent would rather hand over to a person' });
      const row = await deps.sender.send(scope, conversation, {
        content: answered.text,
        sendType: 'ai_manual',
        senderName: answered.agentName,
        msgid: `m${newToken()
          .replace(/[^A-Za-z0-9]/g, '')
          .slice(0, 31)}`,
      });
      return presentMessage(row, deps.mediaUrlOf);
    },
  };
}

export type ChatReplyService = ReturnType<typeof createChatReplyService>;
