import type { FastifyBaseLogger } from 'fastify';
import type { WecomKfApi } from '../../platform/wecom/kf-api.ts';
import { str } from './wecom-messages.ts';

/** How long a connection's account names are trusted before WeCom is asked again. */
const FRESH_MS = 10 * 60_000;
/** An account id missing from the names asks WeCom again, but not more often than this. */
const RETRY_MS = 60_000;

/**
 * The names of a WeCom connection's customer-service accounts (`kf/account/list`), by open_kfid,
 * for the conversations' channel column: "售后客服" rather than "wkAJ2GCAAA…". Kept in memory per
 * connection; when WeCom cannot be asked, the name stays empty (the page then shows the id) and
 * a name stored before is kept, since an empty name never replaces one.
 */
export function createChannelNames(deps: { now: () => Date; log: FastifyBaseLogger }) {
  const byConnection = new Map<string, { names: Map<string, string>; askedAt: number }>();

  return async function nameOf(connectionId: string, api: Pick<WecomKfApi, 'accounts'>, openKfId: string) {
    const known = byConnection.get(connectionId);
    const age = known ? deps.now().getTime() - known.askedAt : Number.POSITIVE_INFINITY;
    if (known && age < FRESH_MS && (known.names.has(openKfId) || age < RETRY_MS)) {
      return known.names.get(openKfId) ?? '';
    }
    try {
      const accounts = await api.accounts();
      const names = new Map(accounts.map((account) => [account.open_kfid, str(account.name, 128)]));
      byConnection.set(connectionId, { names, askedAt: deps.now().getTime() });
      return names.get(openKfId) ?? '';
    } catch (error) {
      deps.log.warn({ err: error, connection: connectionId }, 'WeCom account names could not be fetched');
      byConnection.set(connectionId, { names: known?.names ?? new Map(), askedAt: deps.now().getTime() });
      return known?.names.get(openKfId) ?? '';
    }
  };
}
