import { randomUUID } from 'node:crypto';
import type { RechargeStatus } from '@athena/contract';
import type { InvalidationBus } from '../../platform/cache.ts';

const ORDER_PREFIX = 'billing-order:';
const SPACE_PREFIX = 'space:';

export type BillingNewsItem = { kind: 'balance' } | { kind: 'order'; orderId: string; status: RechargeStatus };
type Listener = { spaceId: string; push: (item: BillingNewsItem) => void };

/**
 * Billing news across processes, for the live stream of the fees page and the header's balance:
 * a team's balance changed (the `space:<id>` notice every ledger posting publishes) or one of its
 * orders changed state. The bus hands a notice to this process directly and again through NOTIFY;
 * order notices carry an id so each is told once.
 */
export function createBillingNews(bus: InvalidationBus) {
  const listeners = new Set<Listener>();
  const seen = new Set<string>();
  const tell = (spaceId: string, item: BillingNewsItem) => {
    for (const listener of listeners) if (listener.spaceId === spaceId) listener.push(item);
  };

  bus.subscribe((key) => {
    if (key.startsWith(SPACE_PREFIX)) {
      tell(key.slice(SPACE_PREFIX.length), { kind: 'balance' });
    } else if (key.startsWith(ORDER_PREFIX)) {
      const [notice, spaceId, orderId, status] = key.slice(ORDER_PREFIX.length).split(':');
      if (seen.has(notice)) return;
      seen.add(notice);
      if (seen.size > 1_000) seen.delete(seen.values().next().value as string);
      tell(spaceId, { kind: 'order', orderId, status: status as RechargeStatus });
    }
  });

  return {
    /** After a ledger posting made in a caller's transaction committed. */
    balance: (spaceId: string) => bus.publish(`${SPACE_PREFIX}${spaceId}`),
    order: (spaceId: string, orderId: string, status: RechargeStatus) =>
      bus.publish(`${ORDER_PREFIX}${randomUUID()}:${spaceId}:${orderId}:${status}`),
    /** Calls `push` for the team's news until the returned function is called. */
    follow(spaceId: string, push: Listener['push']) {
      const listener = { spaceId, push };
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}

export type BillingNews = ReturnType<typeof createBillingNews>;
