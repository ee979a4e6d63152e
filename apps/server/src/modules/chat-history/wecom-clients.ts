import { and, eq } from 'drizzle-orm';
import { decryptSecret } from '../../platform/crypto.ts';
import type { Db } from '../../platform/db/database.ts';
import { createWecomKfApi, type WecomKfApi } from '../../platform/wecom/kf-api.ts';
import { wecomAccounts } from './wecom-account.schema.ts';

export type WecomAccountRow = typeof wecomAccounts.$inferSelect;

/**
 * The WeCom API client of each connected account, kept while its credentials stay the same so
 * its access token is reused by pulls and sends alike.
 */
export function createWecomClients(deps: { db: Db; masterKey: Buffer; apiBase: string }) {
  const clients = new Map<string, { key: string; api: WecomKfApi }>();

  return {
    clientOf(account: WecomAccountRow) {
      const key = `${account.corpId}:${account.secretSealed}`;
      const cached = clients.get(account.id);
      if (cached?.key === key) return cached.api;
      const api = createWecomKfApi({
        apiBase: deps.apiBase,
        corpId: account.corpId,
        secret: decryptSecret(deps.masterKey, account.secretSealed),
      });
      clients.set(account.id, { key, api });
      return api;
    },

    async accountOf(scope: { spaceId: string; sceneId: number }) {
      const [row] = await deps.db
        .select()
        .from(wecomAccounts)
        .where(and(eq(wecomAccounts.spaceId, scope.spaceId), eq(wecomAccounts.sceneId, scope.sceneId)));
      return row ?? null;
    },
  };
}

export type WecomClients = ReturnType<typeof createWecomClients>;
