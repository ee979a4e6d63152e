import {
  CHAT_INGEST_PATH_PREFIX,
  type ReplySettings,
  replySettingsSchema,
  type SceneSettings,
  sendTypeOptionsOf,
} from '@athena/contract';
import { and, count, eq } from 'drizzle-orm';
import type { AuthContext } from '../../platform/auth-guard.ts';
import { encryptSecret, newToken } from '../../platform/crypto.ts';
import type { Db } from '../../platform/db/database.ts';
import { AppError } from '../../platform/http/app-error.ts';
import { createAgentLookup } from '../agent/index.ts';
import { chatConversations, chatSceneSettings } from './chat-history.schema.ts';
import { type ChatScope, chatScope } from './chat-scope.ts';
import { wecomAccounts } from './wecom-account.schema.ts';

const SECRET_PREFIX = 'athena_chat_';

/** A scene's configuration: which channels feed it. Reading is for members, changing for the authority. */
export function createSceneSettingsService(deps: { db: Db; masterKey: Buffer; publicUrl: string; now: () => Date }) {
  const { db } = deps;
  const ingestUrl = (ingestId: string) => `${deps.publicUrl}${CHAT_INGEST_PATH_PREFIX}${ingestId}`;

  async function settingsRow(spaceId: string, sceneId: number) {
    const [row] = await db
      .select()
      .from(chatSceneSettings)
      .where(and(eq(chatSceneSettings.spaceId, spaceId), eq(chatSceneSettings.sceneId, sceneId)));
    return row ?? null;
  }

  async function canSend(scope: ChatScope) {
    const [row] = await db
      .select({ id: wecomAccounts.id })
      .from(wecomAccounts)
      .where(and(eq(wecomAccounts.spaceId, scope.spaceId), eq(wecomAccounts.sceneId, scope.sceneId)));
    return Boolean(row);
  }

  async function settingsOf(scope: ChatScope): Promise<SceneSettings> {
    const row = await settingsRow(scope.spaceId, scope.sceneId);
    const [counted] = await db
      .select({ value: count() })
      .from(chatConversations)
      .where(and(eq(chatConversations.spaceId, scope.spaceId), eq(chatConversations.sceneId, scope.sceneId)));
    return {
      scene_id: scope.sceneId,
      send_type_options: [...sendTypeOptionsOf(scope.sceneId)],
      conversation_count: counted?.value ?? 0,
      ingest: {
        enabled: Boolean(row?.ingestId),
        url: row?.ingestId ? ingestUrl(row.ingestId) : null,
        secret_prefix: row?.ingestId ? row.ingestSecretPrefix : null,
        last_received_at: row?.lastIngestAt?.toISOString() ?? null,
      },
      reply: replySettingsOf(row?.reply),
      can_send: await canSend(scope),
    };
  }

  const lookUpAgent = createAgentLookup(db);

  return {
    get: (ctx: AuthContext) => settingsOf(chatScope(ctx, 'chat.view')),

    /** The reply settings whole; an AI mode needs an agent of the space. */
    async updateReply(ctx: AuthContext, reply: ReplySettings) {
      const scope = chatScope(ctx, 'chat.configure');
      if (reply.mode !== 'human' && !reply.agent_id) throw new AppError('CHAT_REPLY_AGENT_REQUIRED');
      if (reply.agent_id && !(await lookUpAgent(scope.spaceId, reply.agent_id)))
        throw new AppError('CHAT_REPLY_AGENT_NOT_FOUND');
      const values = { reply, updatedBy: scope.userId, updatedAt: deps.now() };
      await db
        .insert(chatSceneSettings)
        .values({ spaceId: scope.spaceId, sceneId: scope.sceneId, ...values })
        .onConflictDoUpdate({ target: [chatSceneSettings.spaceId, chatSceneSettings.sceneId], set: values });
      return settingsOf(scope);
    },

    /** What a scene's replies follow, for the reply service (no permission: it acts for the scene). */
    async replyOf(scope: Pick<ChatScope, 'spaceId' | 'sceneId'>) {
      return replySettingsOf((await settingsRow(scope.spaceId, scope.sceneId))?.reply);
    },

    /** A new signing secret (and the endpoint on); the old secret stops working at once. The URL stays. */
    async rotateIngest(ctx: AuthContext) {
      const scope = chatScope(ctx, 'chat.configure');
      const existing = await settingsRow(scope.spaceId, scope.sceneId);
      const ingestId = existing?.ingestId ?? newToken().slice(0, 32);
      const secret = `${SECRET_PREFIX}${newToken()}`;
      const values = {
        ingestId,
        ingestSecretSealed: encryptSecret(deps.masterKey, secret),
        ingestSecretPrefix: secret.slice(0, SECRET_PREFIX.length + 4),
        updatedBy: scope.userId,
        updatedAt: deps.now(),
      };
      await db
        .insert(chatSceneSettings)
        .values({ spaceId: scope.spaceId, sceneId: scope.sceneId, ...values })
        .onConflictDoUpdate({ target: [chatSceneSettings.spaceId, chatSceneSettings.sceneId], set: values });
      return { url: ingestUrl(ingestId), secret, secret_prefix: values.ingestSecretPrefix };
    },

    /** Turns the endpoint off: the URL answers not-found and a later rotate gives a new URL. */
    async disableIngest(ctx: AuthContext) {
      const scope = chatScope(ctx, 'chat.configure');
      await db
        .update(chatSceneSettings)
        .set({ ingestId: null, ingestSecretSealed: null, ingestSecretPrefix: null, updatedBy: scope.userId })
        .where(and(eq(chatSceneSettings.spaceId, scope.spaceId), eq(chatSceneSettings.sceneId, scope.sceneId)));
      return null;
    },
  };
}

export type SceneSettingsService = ReturnType<typeof createSceneSettingsService>;

/** Stored settings over the defaults; a stored value that no longer fits falls back to them. */
function replySettingsOf(stored: Partial<ReplySettings> | undefined): ReplySettings {
  const parsed = replySettingsSchema.safeParse(stored ?? {});
  return parsed.success ? parsed.data : replySettingsSchema.parse({});
}
