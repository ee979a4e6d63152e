import { and, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../platform/db/database.ts';
import { rowsOf } from '../../platform/db/sql.ts';
import type { KfSyncedMessage, WecomKfApi } from '../../platform/wecom/kf-api.ts';
import type { AutoReply } from './auto-reply.ts';
import { chatCustomers } from './chat-history.schema.ts';
import { applyEvents } from './message-events.ts';
import { storeMessages } from './message-store.ts';
import { wecomCursors } from './wecom-account.schema.ts';
import type { WecomAccountRow, WecomClients } from './wecom-clients.ts';
import type { WecomMedia } from './wecom-media.ts';
import { eventOfKf, incomingOfKf } from './wecom-messages.ts';

/** How long a pull holds an account; renewed with every page, so only a dead process lets it lapse. */
const LEASE_MS = 120_000;

/**
 * Pulls a WeCom customer-service account's new messages after a push (docs/wecom.md, "Pulling"):
 * one process at a time per account, through a lease on its cursor row; each page stored with the
 * cursor after it; a push that arrives while a pull runs leaves its sync token and the puller goes
 * round once more, so nothing announced is left behind.
 */
export function createWecomPuller(deps: {
  db: Db;
  clients: WecomClients;
  now: () => Date;
  log: FastifyBaseLogger;
  onChanged: (spaceId: string, sceneId: number, conversationIds: number[]) => void;
  autoReply: Pick<AutoReply, 'onCustomerMessages' | 'onEnterSession'>;
  media: Pick<WecomMedia, 'start'>;
}) {
  const { db, now } = deps;
  const running = new Set<Promise<void>>();

  const leaseEnd = () => new Date(now().getTime() + LEASE_MS).toISOString();
  const cursorRow = (accountId: string, openKfId: string) =>
    and(eq(wecomCursors.accountId, accountId), eq(wecomCursors.openKfId, openKfId));

  /** The cursor when this process now holds the account; null when another pull runs (it was told). */
  async function claim(accountId: string, openKfId: string, syncToken: string) {
    await db.insert(wecomCursors).values({ accountId, openKfId }).onConflictDoNothing();
    const [claimed] = rowsOf<{ cursor: string }>(
      await db.execute(sql`update wecom_cursors set pulling_until = ${leaseEnd()}::timestamptz, pending_sync_token = null
        where account_id = ${accountId}::uuid and open_kfid = ${openKfId}
          and (pulling_until is null or pulling_until < ${now().toISOString()}::timestamptz)
        returning cursor`),
    );
    if (claimed) return claimed.cursor;
    await db.update(wecomCursors).set({ pendingSyncToken: syncToken }).where(cursorRow(accountId, openKfId));
    return null;
  }

  /** Lets go of the account, unless a push came meanwhile: then its sync token, to go round again. */
  async function releaseOrNext(accountId: string, openKfId: string): Promise<string | null> {
    const released = await db
      .update(wecomCursors)
      .set({ pullingUntil: null })
      .where(and(cursorRow(accountId, openKfId), sql`pending_sync_token is null`))
      .returning({ accountId: wecomCursors.accountId });
    if (released.length > 0) return null;
    const [pending] = await db
      .update(wecomCursors)
      .set({ pendingSyncToken: null, pullingUntil: new Date(leaseEnd()) })
      .where(cursorRow(accountId, openKfId))
      .returning({ cursor: wecomCursors.cursor });
    return pending ? '' : null;
  }

  async function storePage(
    account: WecomAccountRow,
    api: WecomKfApi,
    messages: KfSyncedMessage[],
    cursor: string,
    openKfId: string,
  ) {
    const incoming = messages.flatMap((message) => incomingOfKf(message, openKfId) ?? []);
    const stored = await storeMessages(db, account.spaceId, account.sceneId, incoming);
    const events = messages.map(eventOfKf);
    const byEvents = await applyEvents(db, account.spaceId, account.sceneId, events);
    await db
      .update(wecomCursors)
      .set({ cursor, pullingUntil: new Date(leaseEnd()), updatedAt: now() })
      .where(cursorRow(account.id, openKfId));
    await nameNewCustomers(
      account,
      api,
      incoming.flatMap((message) => message.customer?.sourceId ?? []),
    );
    deps.onChanged(account.spaceId, account.sceneId, [...new Set([...stored.conversationIds, ...byEvents])]);
    const scene = { spaceId: account.spaceId, sceneId: account.sceneId };
    for (const event of events) if (event.kind === 'enter_session') deps.autoReply.onEnterSession(scene, event);
    deps.autoReply.onCustomerMessages(scene, stored.customerConversationIds);
    await deps.media.start(stored.mediaMessageIds);
  }

  /** Customers still without a name get WeCom's nickname and avatar (best effort: a failure leaves them unnamed). */
  async function nameNewCustomers(account: WecomAccountRow, api: WecomKfApi, externalIds: string[]) {
    if (externalIds.length === 0) return;
    const unnamed = await db
      .select({ sourceId: chatCustomers.sourceId })
      .from(chatCustomers)
      .where(
        and(
          eq(chatCustomers.spaceId, account.spaceId),
          eq(chatCustomers.sceneId, account.sceneId),
          inArray(chatCustomers.sourceId, [...new Set(externalIds)]),
          eq(chatCustomers.name, ''),
        ),
      );
    if (unnamed.length === 0) return;
    try {
      const { customers } = await api.customers(unnamed.map((row) => row.sourceId));
      for (const customer of customers) {
        const avatar = /^https?:\/\//i.test(customer.avatar) ? customer.avatar : null;
        await db
          .update(chatCustomers)
          .set({ name: customer.nickname.slice(0, 100), avatarUrl: avatar })
          .where(
            and(
              eq(chatCustomers.spaceId, account.spaceId),
              eq(chatCustomers.sceneId, account.sceneId),
              eq(chatCustomers.sourceId, customer.external_userid),
            ),
          );
      }
    } catch (error) {
      deps.log.warn({ err: error, account: account.id }, 'WeCom customer names could not be fetched');
    }
  }

  async function pull(account: WecomAccountRow, openKfId: string, syncToken: string) {
    let cursor = await claim(account.id, openKfId, syncToken);
    if (cursor === null) return;
    const api = deps.clients.clientOf(account);
    let token: string | null = syncToken;
    try {
      while (token !== null) {
        await api.pullNew({ cursor, syncToken: token, openKfId }, async (messages, next) => {
          await storePage(account, api, messages, next, openKfId);
          cursor = next;
        });
        token = await releaseOrNext(account.id, openKfId);
      }
      await db.execute(sql`update wecom_accounts set last_pull_at = ${now().toISOString()}::timestamptz, last_error = null
        where id = ${account.id}::uuid`);
    } catch (error) {
      deps.log.warn({ err: error, account: account.id }, 'WeCom pull failed');
      await db.update(wecomCursors).set({ pullingUntil: null }).where(cursorRow(account.id, openKfId));
      await db.execute(sql`update wecom_accounts set last_error = ${String((error as Error).message).slice(0, 500)}
        where id = ${account.id}::uuid`);
    }
  }

  return {
    /** Starts a pull in the background (a push must be answered within WeCom's 5 seconds). */
    start(account: WecomAccountRow, openKfId: string, syncToken: string) {
      const task = pull(account, openKfId, syncToken).finally(() => running.delete(task));
      running.add(task);
    },
    /** Resolves when every pull this process started has finished (tests, shutdown). */
    async idle() {
      while (running.size > 0) await Promise.all([...running]);
    },
  };
}

export type WecomPuller = ReturnType<typeof createWecomPuller>;
