import { authRoutes } from '@athena/contract';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api } from '../lib/api-client.ts';
import { queryKeys } from '../lib/query-keys.ts';
import { useUserStore } from '../stores/user-store.ts';

export type SessionStatus = 'anonymous' | 'loading' | 'error' | 'ready';

/**
 * Loads user/info whenever there is a token and mirrors it into the user store. A 10001 answer is
 * handled by the API client (storage cleared, back to /), which leaves us anonymous.
 */
export function useSession() {
  const token = useUserStore((s) => s.token);
  const setUser = useUserStore((s) => s.setUser);
  const query = useQuery({
    queryKey: queryKeys.session.userInfo(token),
    queryFn: () => api(authRoutes.userInfo),
    enabled: Boolean(token),
  });
  useEffect(() => {
    if (query.data) setUser(query.data);
  }, [query.data, setUser]);

  let status: SessionStatus = 'ready';
  if (!token) status = 'anonymous';
  else if (query.isPending) status = 'loading';
  else if (query.isError) status = 'error';
  return { status, user: query.data ?? null, error: query.error, retry: query.refetch };
}
