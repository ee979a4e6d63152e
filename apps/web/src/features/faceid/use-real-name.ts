import { accountRoutes, type RealName } from '@athena/contract';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api-client.ts';
import { queryClient } from '../../lib/query-client.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import { patchUserInfo } from '../../lib/session.ts';
import { useUserStore } from '../../stores/user-store.ts';

/** How often a pending check asks the provider for its result. */
export const REAL_NAME_POLL_MS = 3000;

/** Stores a fresh answer and keeps user/info's `real_name_verified` in step with it. */
export function rememberRealName(realName: RealName): RealName {
  queryClient.setQueryData(queryKeys.account.realName(), realName);
  const verified = realName.state === 'verified';
  if (useUserStore.getState().userinfo?.real_name_verified !== verified)
    patchUserInfo({ real_name_verified: verified });
  return realName;
}

/**
 * My verification state. A pending attempt is asked about at once (realname/refresh asks the
 * provider — e.g. after its page sent the person back here); with `poll`, again every few seconds
 * while it stays pending and the page is visible.
 */
export function useRealName({ poll = false }: { poll?: boolean } = {}) {
  return useQuery({
    queryKey: queryKeys.account.realName(),
    queryFn: async () => {
      const stored = await api(accountRoutes.realNameGet);
      return rememberRealName(stored.state === 'pending' ? await api(accountRoutes.realNameRefresh) : stored);
    },
    refetchInterval: (query) => (poll && query.state.data?.state === 'pending' ? REAL_NAME_POLL_MS : false),
    staleTime: 0,
  });
}
