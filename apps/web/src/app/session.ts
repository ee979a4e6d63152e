import { authRoutes } from '@athena/contract';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api } from '../lib/api-client.ts';
import { useUserStore } from '../stores/user-store.ts';
import { queryClient } from './query-client.ts';

export type SessionStatus = 'anonymous' | 'loading' | 'error' | 'ready';

/**
 * Loads user/info whenever there is a token and mirrors it into the user store. A 10001 answer is
 * handled by the API client (storage cleared, back to /), which leaves us anonymous.
 */
export function useSession() {
  const token = useUserStore((s) => s.token);
  const setUser = useUserStore((s) => s.setUser);
  const query = useQuery({
    queryKey: ['userInfo', token],
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

/** Stores a fresh session token; the user/info query (keyed by token) then loads by itself. */
export function completeSignIn(token: string): void {
  useUserStore.getState().signIn(token);
}

/** Revokes the session on the server (best effort), then forgets it here. */
export async function signOut(): Promise<void> {
  try {
    await api(authRoutes.logout);
  } catch {
    // The session may already be gone; signing out locally is what the person asked for.
  }
  useUserStore.getState().signOut();
  queryClient.clear();
}
