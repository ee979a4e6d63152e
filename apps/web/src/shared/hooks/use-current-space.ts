import { spaceRoutes } from '@athena/contract';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api } from '../../lib/api-client.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import { useUserStore } from '../../stores/user-store.ts';

/** The current space's id; null until the session has loaded. Every space-scoped query keys on it. */
export const useSpaceId = (): string | null => useUserStore((s) => s.team?.id ?? null);

/** Fresh facts of the current space (balance, members) via space/get; mirrored into the user store. */
export function useCurrentSpace() {
  const spaceId = useSpaceId();
  const setTeam = useUserStore((s) => s.setTeam);
  const query = useQuery({
    queryKey: queryKeys.space.detail(spaceId),
    queryFn: () => api(spaceRoutes.get, { id: spaceId ?? '' }),
    enabled: Boolean(spaceId),
  });
  useEffect(() => {
    if (query.data) setTeam(query.data);
  }, [query.data, setTeam]);
  return { spaceId, ...query };
}
