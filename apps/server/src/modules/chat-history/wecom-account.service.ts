import { WECOM_CALLBACK_PATH_PREFIX, WECOM_SCENES, type WecomAccount, type wecomConnectBody } from '@athena/contract';
import { and, eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { AuthContext } from '../../platform/auth-guard.ts';
import { decryptSecret, encryptSecret, newToken } from '../../platform/crypto.ts';
import type { Db } from '../../platform/db/database.ts';
import { AppError } from '../../platform/http/app-error.ts';
import { createWecomKfApi, WecomApiError } from '../../platform/wecom/kf-api.ts';
import { type ChatScope, chatScope } from './chat-scope.ts';
import { wecomAccounts } from './wecom-account.schema.ts';
import type { WecomAccountRow, WecomClients } from './wecom-clients.ts';

/**
 * A scene's WeCom customer-service connection: connected by the creator or an admin once WeCom
 * accepts the corp id and secret; seen by members without its credentials.
 */
export function createWecomAccountService(deps: {
  db: Db;
  masterKey: Buffer;
  publicUrl: string;
  apiBase: string;
  clients: Pick<WecomClients, 'accountOf'>;
}) {
  const { db } = deps;
  const callbackUrl = (row: WecomAccountRow) => `${deps.publicUrl}${WECOM_CALLBACK_PATH_PREFIX}${row.callbackId}`;

  const rowOf = (scope: ChatScope) => deps.clients.accountOf(scope);

  const present = (row: WecomAccountRow | null): WecomAccount => ({
    connected: row !== null,
    corp_id: row?.corpId ?? null,
    callback_url: row ? callbackUrl(row) : null,
    verified_at: row?.verifiedAt?.toISOString() ?? null,
    last_pull_at: row?.lastPullAt?.toISOString() ?? null,
    last_error: row?.lastError ?? null,
  });

  return {
    async get(ctx: AuthContext) {
      return present(await rowOf(chatScope(ctx, 'chat.view')));
    },

    /**
     * Checks the corp id and secret with WeCom (an access token), then stores them sealed with the
     * callback Token and EncodingAESKey. Connecting again replaces the credentials and keeps the
     * callback URL, so what is pasted into WeCom stays right.
     */
    async connect(ctx: AuthContext, body: z.output<typeof wecomConnectBody>) {
      const scope = chatScope(ctx, 'chat.configure');
      if (!WECOM_SCENES.includes(scope.sceneId)) throw new AppError('CHAT_WECOM_SCENE_UNSUPPORTED');
      try {
        await createWecomKfApi({ apiBase: deps.apiBase, corpId: body.corpid, secret: body.secret }).checkCredentials();
      } catch (error) {
        if (error instanceof WecomApiError && error.errcode !== undefined) {
          throw new AppError('CHAT_WECOM_CREDENTIALS_REFUSED', { detail: `errcode ${error.errcode}` });
        }
        throw new AppError('CHAT_WECOM_UNREACHABLE');
      }
      const existing = await rowOf(scope);
      const sealed = {
        corpId: body.corpid,
        secretSealed: encryptSecret(deps.masterKey, body.secret),
        tokenSealed: encryptSecret(deps.masterKey, body.callback_token),
        aesKeySealed: encryptSecret(deps.masterKey, body.encoding_aes_key),
        lastError: null,
      };
      const [row] = existing
        ? await db
            .update(wecomAccounts)
            .set({
              ...sealed,
              // Another Token or key means WeCom must check the URL again.
              verifiedAt: sameCallbackKeys(existing, body, deps.masterKey) ? existing.verifiedAt : null,
            })
            .where(eq(wecomAccounts.id, existing.id))
            .returning()
        : // Two first connects at once: the second updates what the first made.
          await db
            .insert(wecomAccounts)
            .values({
              spaceId: scope.spaceId,
              sceneId: scope.sceneId,
              callbackId: newToken().slice(0, 32),
              createdBy: scope.userId,
              ...sealed,
            })
            .onConflictDoUpdate({ target: [wecomAccounts.spaceId, wecomAccounts.sceneId], set: sealed })
            .returning();
      return present(row);
    },

    async disconnect(ctx: AuthContext) {
      const scope = chatScope(ctx, 'chat.configure');
      await db
        .delete(wecomAccounts)
        .where(and(eq(wecomAccounts.spaceId, scope.spaceId), eq(wecomAccounts.sceneId, scope.sceneId)));
      return null;
    },
  };
}

function sameCallbackKeys(row: WecomAccountRow, body: z.output<typeof wecomConnectBody>, key: Buffer) {
  return (
    row.corpId === body.corpid &&
    decryptSecret(key, row.tokenSealed) === body.callback_token &&
    decryptSecret(key, row.aesKeySealed) === body.encoding_aes_key
  );
}

export type WecomAccountService = ReturnType<typeof createWecomAccountService>;
