import { modelKeyRoutes } from '@athena/contract';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api-client.ts';
import { queryClient } from '../../lib/query-client.ts';
import { queryKeys } from '../../lib/query-keys.ts';

/**
 * All keys of the current space (masked); the page filters by purpose itself so the counts of
 * every purpose stay visible. Admins change keys for everyone, so the list is never trusted stale.
 */
export function useModelKeys(spaceId: string | null) {
  return useQuery({
    queryKey: queryKeys.modelKeys.all(spaceId),
    queryFn: () => api(modelKeyRoutes.list),
    enabled: Boolean(spaceId),
    staleTime: 0,
  });
}

export const refreshModelKeys = (spaceId: string | null) =>
  queryClient.invalidateQueries({ queryKey: queryKeys.modelKeys.all(spaceId) });
