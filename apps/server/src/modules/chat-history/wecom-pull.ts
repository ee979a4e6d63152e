import { randomUUID } from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../platform/db/database.ts';
import { rowsOf } from '../../platform/db/sql.ts';
import { type KfSyncedMessage, WecomApiError, type WecomKfApi } from '../../platform/wecom/kf-api.ts';
import type { AfterStore } from './after-store.ts';
import type { AutoReply } from './auto-reply.ts';
import { chatCustomers } from './chat-history.schema.ts';
import type { SessionNotice } from './events.ts';
import { applyEvents } from './message-events.ts';
import { storeMessages } from './message-store.ts';
import { wecomCursors } from './wecom-account.schema.ts';
import { createChannelNames } from './wecom-channel-names.ts';
import type { WecomAccountRow, WecomClients } from './wecom-clients.ts';
import type { WecomMedia } from './wecom-media.ts';
import { conversationSourceIdOf, eventOfKf, incomingOfKf, str } from './wecom-messages.ts';

class LeaseLost extends Error {}
/** The account's team was dissolved (or the account disconnected) while the pull ran. */
class AccountGone extends Error {}

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
  /** Runs `chat.stored` for each page's new messages and session changes (after-store.ts). */
  afterStore: AfterStore;
}) {
  const { db, now } = deps;
  const running = new Set<Promise<void>>();
  const channelNameOf = createChannelNames({ now, log: deps.log });

  const leaseEnd = () => new Date(now().getTime() + LEASE_MS).toISOString();
  const cursorRow = (accountId: string, openKfId: string) =>
    and(eq(wecomCursors.accountId, accountId), eq(wecomCursors.openKfId, openKfId));

  /**
   * The cursor when this pull now holds the account; null when another pull holds it, which has
   * then been left this push's sync token and goes round once more before letting go.
   */
  async function claim(accountId: string, openKfId: string, syncToken: string, owner: string) {
    await db.insert(wecomCursors).values({ accountId, openKfId }).onConflictDoNothing();
    // Two tries: the holder may let go between our claim and our note, and then the lease is free.
    for (let attempt = 0; attempt < 2; attempt++) {
      const [claimed] = rowsOf<{ cursor: string }>(
        await db.execute(sql`update wecom_cursors
          set pulling_until = ${leaseEnd()}::timestamptz, lease_owner = ${owner}, pending_sync_token = null
          where account_id = ${accountId}::uuid and open_kfid = ${openKfId}
            and (pulling_until is null or pulling_until < ${now().toISOString()}::timestamptz)
          returning cursor`),
      );
      if (claimed) return claimed.cursor;
      const noted = await db
        .update(wecomCursors)
        .set({ pendingSyncToken: syncToken })
        .where(and(cursorRow(accountId, openKfId), sql`pulling_until >= ${now().toISOString()}::timestamptz`))
        .returning({ openKfId: wecomCursors.openKfId });
      if (noted.length > 0) return null;
    }
    return null;
  }

  /**
   * Lets go of the account, unless a push came meanwhile: then its sync token (empty: none), to
   * go round again with the lease renewed. Null also when the lease was lost to another pull.
   */
  async function releaseOrNext(accountId: string, openKfId: string, owner: string): Promise<string | null> {
    const mine = and(cursorRow(accountId, openKfId), eq(wecomCursors.leaseOwner, owner));
    const released = await db
      .update(wecomCursors)
      .set({ pullingUntil: null, leaseOwner: null })
      .where(and(mine, sql`pending_sync_token is null`))
      .returning({ openKfId: wecomCursors.openKfId });
    if (released.length > 0) return null;
    const [pending] = rowsOf<{ token: string | null }>(
      await db.execute(sql`with held as (
          select pending_sync_token as token from wecom_cursors
          where account_id = ${accountId}::uuid and open_kfid = ${openKfId} and lease_owner = ${owner} for update
        )
        update wecom_cursors set pending_sync_token = null, pulling_until = ${leaseEnd()}::timestamptz
        from held
        where account_id = ${accountId}::uuid and open_kfid = ${openKfId} and lease_owner = ${owner}
        returning held.token`),
    );
    return pending ? (pending.token ?? '') : null;
  }

  async function storePage(
    account: WecomAccountRow,
    api: WecomKfApi,
    page: { messages: KfSyncedMessage[]; cursor: string; openKfId: string; owner: string },
  ) {
    const { messages, cursor, openKfId } = page;
    const channelName = messages.length > 0 ? await channelNameOf(account.id, api, openKfId) : '';
    const incoming = messages.flatMap((message) => incomingOfKf(message, channelName) ?? []);
    const stored = await storeMessages(db, account.spaceId, account.sceneId, incoming);
    const events = messages.map(eventOfKf);
    const byEvents = await applyEvents(db, account.spaceId, account.sceneId, events);
    const scene = { spaceId: account.spaceId, sceneId: account.sceneId };
    // Before the cursor moves: WeCom's session events are not stored as messages, so if the process
    // stops in between, the page is pulled again and its reactions run again (they store each
    // event once).
    await deps.afterStore(scene, stored, events.flatMap(sessionNoticeOf));
    const moved = await db
      .update(wecomCursors)
      .set({ cursor, pullingUntil: new Date(leaseEnd()), updatedAt: now() })
      .where(and(cursorRow(account.id, openKfId), eq(wecomCursors.leaseOwner, page.owner)))
      .returning({ openKfId: wecomCursors.openKfId });
    // Another pull took over (this one stalled past its lease): it owns the cursor now.
    if (moved.length === 0) throw new LeaseLost();
    await nameNewCustomers(
      account,
      api,
      incoming.flatMap((message) => message.customer?.sourceId ?? []),
    );
    deps.onChanged(account.spaceId, account.sceneId, [...new Set([...stored.conversationIds, ...byEvents])]);
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
        const avatar = /^https?:\/\/\S+$/i.test(str(customer.avatar, 1_000)) ? str(customer.avatar, 1_000) : null;
        await db
          .update(chatCustomers)
          .set({ name: str(customer.nickname, 100), avatarUrl: avatar })
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
    const owner = randomUUID();
    let cursor = await claim(account.id, openKfId, syncToken, owner);
    if (cursor === null) return;
    const api = deps.clients.clientOf(account);
    let token: string | null = syncToken;
    try {
      while (token !== null) {
        // Asked again before every round: a pull going round for a push that came meanwhile must
        // not call WeCom for a team dissolved since (the callback itself refuses them at once).
        if (!(await deps.clients.isLive(account.id))) throw new AccountGone();
        await api.pullNew({ cursor, syncToken: token, openKfId }, async (messages, next) => {
          await storePage(account, api, { messages, cursor: next, openKfId, owner });
          cursor = next;
        });
        token = await releaseOrNext(account.id, openKfId, owner);
      }
      await db.execute(sql`update wecom_accounts set last_pull_at = ${now().toISOString()}::timestamptz, last_error = null
        where id = ${account.id}::uuid`);
    } catch (error) {
      if (error instanceof LeaseLost) return;
      await db
        .update(wecomCursors)
        .set({ pullingUntil: null, leaseOwner: null })
        .where(and(cursorRow(account.id, openKfId), eq(wecomCursors.leaseOwner, owner)));
      if (error instanceof AccountGone) return;
      deps.log.warn({ err: error, account: account.id }, 'WeCom pull failed');
      // Members read it: WeCom's own words (a wrong secret, an expired cursor), never an internal error's.
      const shown = error instanceof WecomApiError ? error.message : 'messages could not be stored; see the server log';
      await db.execute(
        sql`update wecom_accounts set last_error = ${shown.slice(0, 500)} where id = ${account.id}::uuid`,
      );
    }
  }

  return {
    /** Starts a pull in the background (a push must be answered within WeCom's 5 seconds). */
    start(account: WecomAccountRow, openKfId: string, syncToken: string) {
      const task = pull(account, openKfId, syncToken)
        .catch((error) => deps.log.error({ err: error, account: account.id }, 'WeCom pull could not start or stop'))
        .finally(() => running.delete(task));
      running.add(task);
    },
    /** Resolves when every pull this process started has finished (tests, shutdown). */
    async idle() {
      while (running.size > 0) await Promise.all([...running]);
    },
  };
}

export type WecomPuller = ReturnType<typeof createWecomPuller>;

function sessionNoticeOf(event: ReturnType<typeof eventOfKf>): SessionNotice[] {
  if (event.kind === 'enter_session') {
    const conversationSourceId = conversationSourceIdOf(event.openKfId, event.externalUserId);
    return [
      {
        change: 'start',
        eventId: event.eventId,
        conversationSourceId,
        customerSourceId: event.externalUserId,
        at: event.at,
        msgCode: '',
      },
    ];
  }
  if (event.kind === 'session' && event.state === 'ended') {
    const { eventId, conversationSourceId, externalUserId, at, msgCode } = event;
    return [{ change: 'end', eventId, conversationSourceId, customerSourceId: externalUserId, at, msgCode }];
  }
  return [];
}
