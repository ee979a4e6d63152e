import { type CustomBusinessStatus, customBusinessRoutes as routes } from '@athena/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api-client.ts';
import { queryClient } from '../../lib/query-client.ts';
import { queryKeys } from '../../lib/query-keys.ts';

export const PAGE_SIZE = 10;

/** Operators change statuses from elsewhere, so these lists never trust the app-wide freshness. */
const FRESH = { staleTime: 0 } as const;

/** After any change to a request: every list and detail of the page reloads. */
export const refreshCustomBusiness = () => queryClient.invalidateQueries({ queryKey: queryKeys.customBusiness.all() });

export function useRequests(spaceId: string | null, status: CustomBusinessStatus | undefined, page: number) {
  return useQuery({
    queryKey: queryKeys.customBusiness.mine(spaceId, { status, page }),
    queryFn: () => api(routes.list, { status, page, page_size: PAGE_SIZE }),
    enabled: Boolean(spaceId),
    placeholderData: keepPreviousData,
    ...FRESH,
  });
}

/** One request: the space's view, or an operator's view of any space. */
export function useRequest(id: string | null, operator: boolean) {
  return useQuery({
    queryKey: queryKeys.customBusiness.detail(id, operator),
    queryFn: () => api(operator ? routes.operatorGet : routes.get, { id: id ?? '' }),
    enabled: Boolean(id),
    ...FRESH,
  });
}

export interface OperatorFilters {
  status?: CustomBusinessStatus;
  keyword?: string;
  page: number;
}

export function useOperatorRequests(filters: OperatorFilters, enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.customBusiness.operator(filters),
    queryFn: () => api(routes.operatorList, { ...filters, page_size: PAGE_SIZE }),
    enabled,
    placeholderData: keepPreviousData,
    ...FRESH,
  });
}
