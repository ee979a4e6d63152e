import type { UserInfo } from '@athena/contract';
import { queryClient } from '../../app/query-client.ts';
import { useUserStore } from '../../stores/user-store.ts';

/**
 * Applies a change the server confirmed to the signed-in user everywhere at once: the user/info
 * query cache (so a later re-render of the session does not bring the old value back) and the
 * user store (header avatar and nickname, the dashboard).
 */
export function patchUserInfo(patch: Partial<UserInfo>): void {
  const { token, userinfo, setUser } = useUserStore.getState();
  if (!userinfo) return;
  const next = { ...userinfo, ...patch };
  queryClient.setQueryData(['userInfo', token], next);
  setUser(next);
}
