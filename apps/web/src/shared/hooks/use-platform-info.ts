import { platformRoutes } from '@athena/contract';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api-client.ts';
import { queryKeys } from '../../lib/query-keys.ts';

/** Public deployment facts (which SMS / WeChat provider runs); they do not change while the page lives. */
export function usePlatformInfo() {
  return useQuery({
    queryKey: queryKeys.platform.info(),
    queryFn: () => api(platformRoutes.info),
    staleTime: Number.POSITIVE_INFINITY,
  });
}
