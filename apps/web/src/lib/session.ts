import { authRoutes, type UserInfo } from '@athena/contract';
import { useUserStore } from '../stores/user-store.ts';
import { api } from './api-client.ts';
import { queryClient } from './query-client.ts';
import { queryKeys } from './query-keys.ts';

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

/**
 * Applies a change the server confirmed to the signed-in user everywhere at once: the user/info
 * query cache (so a later re-render of the session does not bring the old value back) and the
 * user store (header avatar and nickname, the dashboard).
 */
export function patchUserInfo(patch: Partial<UserInfo>): void {
  const { token, userinfo, setUser } = useUserStore.getState();
  if (!userinfo) return;
  const next = { ...userinfo, ...patch };
  queryClient.setQueryData(queryKeys.session.userInfo(token), next);
  setUser(next);
}
