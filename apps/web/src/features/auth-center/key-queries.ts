import { modelKeyRoutes } from '@athena/contract';
import { useQuery } from '@tanstack/react-query';
import { queryClient } from '../../app/query-client.ts';
import { api } from '../../lib/api-client.ts';

/** Everything cached about one space's keys starts with this. */
export const modelKeysKey = (spaceId: string | null) => ['modelKeys', spaceId] as const;

/**
 * All keys of the current space (masked); the page filters by purpose itself so the counts of
 * every purpose stay visible. Admins change keys for everyone, so the list is never trusted stale.
 */
export function useModelKeys(spaceId: string | null) {
  return useQuery({
    queryKey: modelKeysKey(spaceId),
    queryFn: () => api(modelKeyRoutes.list),
    enabled: Boolean(spaceId),
    staleTime: 0,
  });
}

export const refreshModelKeys = (spaceId: string | null) =>
  queryClient.invalidateQueries({ queryKey: modelKeysKey(spaceId) });
