import { platformRoutes } from '@athena/contract';
import { useQuery } from '@tanstack/react-query';
import { api } from '../lib/api-client.ts';

/** Public deployment facts (which SMS / WeChat provider runs); they do not change while the page lives. */
export function usePlatformInfo() {
  return useQuery({
    queryKey: ['platformInfo'],
    queryFn: () => api(platformRoutes.info),
    staleTime: Number.POSITIVE_INFINITY,
  });
}
