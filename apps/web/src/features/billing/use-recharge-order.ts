import { billingRoutes, type RechargeOrder, type RechargeStatus } from '@athena/contract';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api } from '../../lib/api-client.ts';
import { queryClient } from '../../lib/query-client.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import { useBillingLiveMessages, useBillingLiveState } from '../../shared/hooks/use-billing-live.ts';

/** While the stream is down the order is asked for this often (like the WeChat sign-in QR). */
export const ORDER_POLL_MS = 2000;

/** An order that can still be paid: the dialog keeps watching it. */
export const isOpenOrder = (status: RechargeStatus) => status === 'created' || status === 'paying';

/**
 * One recharge order, kept current: the shared billing stream says when it changed (then it is
 * read again); while the stream is not open it is polled instead, so a payment is never missed.
 */
export function useRechargeOrder(spaceId: string | null, initial: RechargeOrder) {
  const live = useBillingLiveState();
  const key = queryKeys.billing.order(spaceId, initial.id);
  const query = useQuery({
    queryKey: key,
    queryFn: () => api(billingRoutes.rechargeGet, { id: initial.id }),
    initialData: initial,
    staleTime: 0,
    refetchInterval: (current) => {
      const status = current.state.data?.status ?? initial.status;
      return isOpenOrder(status) && live !== 'open' ? ORDER_POLL_MS : false;
    },
  });

  useBillingLiveMessages((message) => {
    const mine = message.event === 'order' && message.data.id === initial.id;
    if (!mine && message.event !== 'resync') return;
    if (message.event === 'order') {
      const { status } = message.data;
      // The news says the state at once; the read that follows brings the paid time and the rest.
      queryClient.setQueryData<RechargeOrder>(key, (order) => (order ? { ...order, status } : order));
    }
    void queryClient.invalidateQueries({ queryKey: key });
  });

  const status = query.data.status;
  useEffect(() => {
    // The credited balance: the stream's balance news may come a moment later, the summary now.
    if (status === 'paid') void queryClient.invalidateQueries({ queryKey: queryKeys.billing.summary(spaceId) });
  }, [status, spaceId]);

  return query;
}
