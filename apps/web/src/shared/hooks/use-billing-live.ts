import { billingRoutes, type SpaceSummary } from '@athena/contract';
import { useEffect, useRef, useSyncExternalStore } from 'react';
import { api } from '../../lib/api-client.ts';
import {
  type BillingLiveEvent,
  type BillingLiveState,
  billingLiveHub,
  followBillingLive,
} from '../../lib/billing-live.ts';
import { queryClient } from '../../lib/query-client.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import { useUserStore } from '../../stores/user-store.ts';

/** The new balance everywhere it is shown: the header (user store) and the current space's query. */
function applyBalance(spaceId: string, balance: number) {
  if (useUserStore.getState().team?.id !== spaceId) return;
  useUserStore.getState().setBalance(balance);
  queryClient.setQueryData<SpaceSummary>(queryKeys.space.detail(spaceId), (space) =>
    space ? { ...space, balance } : space,
  );
}

function refreshLists(spaceId: string, event: BillingLiveEvent['event']) {
  const invalidate = (queryKey: readonly unknown[]) => void queryClient.invalidateQueries({ queryKey });
  const keys = queryKeys.billing;
  if (event === 'balance') {
    invalidate(keys.summary(spaceId));
    invalidate(keys.lists(spaceId, 'ledger'));
    invalidate(keys.lists(spaceId, 'usage'));
    invalidate(keys.lists(spaceId, 'usageDaily'));
  }
  if (event === 'order') invalidate(keys.lists(spaceId, 'recharges'));
}

/**
 * Follows the team's billing stream while someone is signed in with a space: one stream per tab,
 * mounted once by the main layout. A `balance` event updates the header and the space's figures
 * and reloads the billing lists; every message is passed on through the hub (the recharge dialog
 * listens there for its order). After a gap the balance is read again, since news was missed.
 */
export function useBillingLiveConnection() {
  const token = useUserStore((s) => s.token);
  const spaceId = useUserStore((s) => s.team?.id ?? null);

  useEffect(() => {
    if (!token || !spaceId) return;
    const controller = new AbortController();
    void followBillingLive({
      signal: controller.signal,
      onState: (state) => billingLiveHub.setState(state),
      onEvent: (event) => {
        if (event.event === 'balance') applyBalance(spaceId, event.data.balance);
        if (event.event !== 'bye') refreshLists(spaceId, event.event);
        billingLiveHub.publish(event);
      },
      onResync: () => {
        void queryClient.invalidateQueries({
          queryKey: queryKeys.billing.all(spaceId),
          predicate: (query) => query.queryKey[2] !== 'platformModels',
        });
        void api(billingRoutes.summary).then(
          (summary) => applyBalance(spaceId, summary.balance),
          // The next event or page visit corrects it; a failed catch-up is not worth a notice.
          () => {},
        );
        billingLiveHub.publish({ event: 'resync' });
      },
    });
    return () => {
      controller.abort();
      billingLiveHub.setState('idle');
    };
  }, [token, spaceId]);
}

/** The shared stream's state: readers that must not miss a change poll unless it is `open`. */
export function useBillingLiveState(): BillingLiveState {
  return useSyncExternalStore(billingLiveHub.subscribeState, billingLiveHub.getState);
}

/** Calls `onMessage` for everything the shared stream hears, and `resync` after a gap. */
export function useBillingLiveMessages(onMessage: Parameters<typeof billingLiveHub.listen>[0]) {
  const latest = useRef(onMessage);
  useEffect(() => {
    latest.current = onMessage;
  });
  useEffect(() => billingLiveHub.listen((message) => latest.current(message)), []);
}
