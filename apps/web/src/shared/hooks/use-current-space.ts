import { spaceRoutes } from '@athena/contract';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api } from '../../lib/api-client.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import { useUserStore } from '../../stores/user-store.ts';

/** Fresh facts of the current space (balance, members) via space/get; mirrored into the user store. */
export function useCurrentSpace() {
  const spaceId = useUserStore((s) => s.team?.id ?? null);
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
