import { and, eq, isNull, type SQL } from 'drizzle-orm';
import type { InvalidationBus } from '../../platform/cache.ts';
import { decryptSecret } from '../../platform/crypto.ts';
import type { Db } from '../../platform/db/database.ts';
import { createWecomKfApi, type WecomKfApi } from '../../platform/wecom/kf-api.ts';
import { spaces } from '../space/space.schema.ts';
import { wecomAccounts } from './wecom-account.schema.ts';

export type WecomAccountRow = typeof wecomAccounts.$inferSelect;

/**
 * The WeCom API client of each connected account, kept while its credentials stay the same so
 * its access token is reused by pulls and sends alike.
 *
 * Every way to an account (a callback, a pull going round again, sends, media downloads,
 * activation events) reads it here, together with its team's state: a dissolved team's account
 * is not found, so nothing calls WeCom with its stored secret again. Its cached clients are
 * dropped on every process when the team is dissolved (`space:<team>`).
 */
export function createWecomClients(deps: { db: Db; masterKey: Buffer; apiBase: string; bus: InvalidationBus }) {
  const clients = new Map<string, { key: string; spaceId: string; api: WecomKfApi }>();
  deps.bus.subscribe((key) => {
    if (key === '*') return clients.clear();
    for (const [accountId, client] of clients) if (key === `space:${client.spaceId}`) clients.delete(accountId);
  });

  async function liveAccount(where: SQL | undefined) {
    const [row] = await deps.db
      .select({ account: wecomAccounts })
      .from(wecomAccounts)
      .innerJoin(spaces, eq(spaces.id, wecomAccounts.spaceId))
      .where(and(where, isNull(spaces.dissolvedAt)));
    return row?.account ?? null;
  }

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
      clients.set(account.id, { key, spaceId: account.spaceId, api });
      return api;
    },

    /** The scene's connected account; null when none, or when its team was dissolved. */
    accountOf: (scope: { spaceId: string; sceneId: number }) =>
      liveAccount(and(eq(wecomAccounts.spaceId, scope.spaceId), eq(wecomAccounts.sceneId, scope.sceneId))),

    /** The account behind a callback URL; null when unknown, or when its team was dissolved. */
    accountByCallback: (callbackId: string) => liveAccount(eq(wecomAccounts.callbackId, callbackId)),

    /** Whether the account is still connected in a live team (a pull asks before each round). */
    isLive: async (accountId: string) => (await liveAccount(eq(wecomAccounts.id, accountId))) !== null,
  };
}

export type WecomClients = ReturnType<typeof createWecomClients>;
