import type { RechargeStatus } from '@athena/contract';
import type { InvalidationBus } from '../../platform/cache.ts';
import type { Events } from '../../platform/events.ts';
import { createLiveFeed } from '../../platform/live-feed.ts';
import { billingChanged } from './events.ts';

export type BillingNewsItem = { kind: 'balance' } | { kind: 'order'; orderId: string; status: RechargeStatus };

/**
 * Billing news across processes, for the live stream of the fees page and the header's balance:
 * a team's balance changed or one of its orders changed state.
 */
export function createBillingNews(deps: { bus: InvalidationBus; events: Events }) {
  const feed = createLiveFeed(deps.events.channel('billing.changed', billingChanged), (news) => news.spaceId);
  return {
    /** After a ledger posting committed: the team's cached rows (its balance) are dropped everywhere, and its readers told. */
    async balance(spaceId: string) {
      await deps.bus.publish(`space:${spaceId}`);
      await feed.tell({ kind: 'balance', spaceId });
    },
    order: (spaceId: string, orderId: string, status: RechargeStatus) =>
      feed.tell({ kind: 'order', spaceId, orderId, status }),
    /** Calls `push` for the team's news until the returned function is called. */
    follow(spaceId: string, push: (item: BillingNewsItem) => void) {
      return feed.follow(spaceId, ({ spaceId: _, ...item }) => push(item));
    },
  };
}

export type BillingNews = ReturnType<typeof createBillingNews>;
