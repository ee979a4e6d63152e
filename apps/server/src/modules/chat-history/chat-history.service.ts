import type { ConversationFilter } from '@athena/contract';
import type { AuthContext } from '../../platform/auth-guard.ts';
import type { Db } from '../../platform/db/database.ts';
import { AppError } from '../../platform/http/app-error.ts';
import { type MediaUrlOf, presentConversation, presentMessage } from './chat-history.presenters.ts';
import type { ChatHistoryRepo } from './chat-history.repo.ts';
import { type ChatScope, chatScope } from './chat-scope.ts';
import { type ListCursor, listConversations, type Tuning } from './conversation-list.query.ts';

type MessagePage = { before_id: string | null; after_id: string | null; limit: number };

/** Reading chat history: members of the space, in the scene of the call. */
export function createChatHistoryService(deps: {
  db: Db;
  repo: ChatHistoryRepo;
  now: () => Date;
  mediaUrlOf: MediaUrlOf;
  /** The list's thresholds for this database (conversation-list.query.ts). */
  tuning: Tuning;
}) {
  const { repo } = deps;

  async function conversationOf(scope: ChatScope, id: string) {
    const found = await repo.conversationIn(scope, id);
    if (found === null) throw new AppError('CHAT_CONVERSATION_NOT_FOUND');
    return found;
  }

  async function getConversation(scope: ChatScope, id: string) {
    const conversationId = await conversationOf(scope, id);
    const filter: ConversationFilter = { chat_type: '', send_type: '', time: null, keyword: '', customer_id: null };
    const rows = await listConversations(
      deps.db,
      scope,
      filter,
      { cursor: null, limit: 1 },
      deps.now(),
      deps.tuning,
      conversationId,
    );
    return presentConversation(rows[0]);
  }

  return {
    async list(ctx: AuthContext, body: ConversationFilter & { cursor: string | null; limit: number }) {
      const scope = chatScope(ctx, 'chat.view');
      const rows = await listConversations(
        deps.db,
        scope,
        body,
        { cursor: decodeCursor(body.cursor), limit: body.limit },
        deps.now(),
        deps.tuning,
      );
      const last = rows.at(-1);
      return {
        items: rows.map(presentConversation),
        next_cursor:
          rows.length === body.limit && last
            ? encodeCursor({ at: new Date(last.last_message_at).toISOString(), id: Number(last.id) })
            : null,
      };
    },

    get: (ctx: AuthContext, id: string) => getConversation(chatScope(ctx, 'chat.view'), id),

    async read(ctx: AuthContext, id: string) {
      const scope = chatScope(ctx, 'chat.view');
      await repo.markRead(await conversationOf(scope, id));
      return null;
    },

    async messages(ctx: AuthContext, conversationId: string, page: MessagePage) {
      const scope = chatScope(ctx, 'chat.view');
      const found = await conversationOf(scope, conversationId);
      const { rows, hasMore } = await repo.messages(found, {
        beforeId: page.before_id,
        afterId: page.after_id,
        limit: page.limit,
      });
      return { items: rows.map((row) => presentMessage(row, deps.mediaUrlOf)), has_more: hasMore };
    },

    async customers(ctx: AuthContext, keyword: string) {
      const scope = chatScope(ctx, 'chat.view');
      const rows = await repo.customers(scope, keyword);
      return {
        items: rows.map((row) => ({
          id: String(row.id),
          name: row.name,
          avatar_url: row.avatarUrl,
          source_id: row.sourceId,
        })),
      };
    },
  };
}

export type ChatHistoryService = ReturnType<typeof createChatHistoryService>;

const encodeCursor = (cursor: ListCursor) => Buffer.from(JSON.stringify(cursor)).toString('base64url');

function decodeCursor(value: string | null): ListCursor | null {
  if (!value) return null;
  try {
    const parsed = JSON.parse(Buffer.from(value, 'base64url').toString('utf8')) as Partial<ListCursor>;
    const at = typeof parsed.at === 'string' ? new Date(parsed.at) : null;
    const year = at?.getUTCFullYear() ?? Number.NaN;
    if (at && year >= 1970 && year <= 9999 && Number.isSafeInteger(parsed.id)) {
      return { at: at.toISOString(), id: parsed.id as number };
    }
  } catch {}
  throw new AppError('BAD_REQUEST');
}
