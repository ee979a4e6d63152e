import { type ProfileCustomer, type ProfileField, profileRoutes } from '@athena/contract';
import { keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api-client.ts';
import { queryClient } from '../../lib/query-client.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import type { ListFilters } from './profile-filters.ts';

/** Customers per page of the list. */
export const CUSTOMER_PAGE_SIZE = 20;
/** Changes per page of a history. */
export const HISTORY_PAGE_SIZE = 50;

/**
 * The scene's fields in their order. Every call of this feature carries the scene in the scene-id
 * header, which the page keeps in step with `sceneId` (chat-history's use-chat-scene.ts).
 */
export function useProfileFields(spaceId: string | null, sceneId: number | null) {
  return useQuery({
    queryKey: queryKeys.profile.fields(spaceId, sceneId ?? 0),
    queryFn: () => api(profileRoutes.fieldList),
    enabled: Boolean(spaceId) && sceneId !== null,
    select: (data) => data.items,
  });
}

export function useCustomerList(
  spaceId: string | null,
  sceneId: number | null,
  filters: ListFilters,
  page: number,
  enabled: boolean,
) {
  return useQuery({
    queryKey: queryKeys.profile.customers(spaceId, sceneId ?? 0, { ...filters, page }),
    queryFn: () => api(profileRoutes.customerList, { ...filters, page, page_size: CUSTOMER_PAGE_SIZE }),
    enabled: Boolean(spaceId) && sceneId !== null && enabled,
    // While another page or filter loads, the old rows stay (dimmed) instead of flashing empty.
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

/**
 * The exact number of customers the filters find, asked only when the list could only estimate it
 * (beyond 5 000): the list shows first, the count replaces the estimate when it arrives.
 */
export function useCustomerCount(
  spaceId: string | null,
  sceneId: number | null,
  filters: ListFilters,
  enabled: boolean,
) {
  return useQuery({
    queryKey: queryKeys.profile.customers(spaceId, sceneId ?? 0, { ...filters, count: true }),
    queryFn: () => api(profileRoutes.customerCount, filters),
    enabled: Boolean(spaceId) && sceneId !== null && enabled,
    staleTime: 60_000,
  });
}

/** One customer; the list's row shows at once while it loads (`initial`). */
export function useCustomer(spaceId: string | null, sceneId: number, id: string, initial: ProfileCustomer | undefined) {
  return useQuery({
    queryKey: queryKeys.profile.customer(spaceId, sceneId, id),
    queryFn: () => api(profileRoutes.customerGet, { id }),
    enabled: Boolean(spaceId),
    placeholderData: initial,
    staleTime: 0,
  });
}

/** A customer's changes (one field's when `fieldId` is set), newest first, a page at a time. */
export function useHistory(spaceId: string | null, sceneId: number, customerId: string, fieldId: string) {
  return useInfiniteQuery({
    queryKey: queryKeys.profile.history(spaceId, sceneId, customerId, fieldId),
    queryFn: ({ pageParam }) =>
      api(profileRoutes.history, {
        customer_id: customerId,
        ...(fieldId ? { field_id: fieldId } : {}),
        page: pageParam,
        page_size: HISTORY_PAGE_SIZE,
      }),
    initialPageParam: 1,
    getNextPageParam: (last, pages) =>
      pages.reduce((sum, page) => sum + page.items.length, 0) < last.total && last.items.length > 0
        ? pages.length + 1
        : undefined,
    enabled: Boolean(spaceId),
    staleTime: 0,
  });
}

/** A value changed: the customer's answer goes into its cache; the lists and histories reload. */
export async function afterValueChange(spaceId: string | null, sceneId: number, customer: ProfileCustomer) {
  queryClient.setQueryData(queryKeys.profile.customer(spaceId, sceneId, customer.id), customer);
  await queryClient.invalidateQueries({
    queryKey: queryKeys.profile.scene(spaceId, sceneId),
    predicate: (query) => query.queryKey[3] !== 'fields' && query.queryKey[3] !== 'customer',
  });
}

/** The fields changed: everything of the scene reloads (values of a deleted field go too). */
export const refreshProfiles = (spaceId: string | null, sceneId: number) =>
  queryClient.invalidateQueries({ queryKey: queryKeys.profile.scene(spaceId, sceneId) });

/** The new order shows at once; the server's answer replaces it. */
export function setFieldsInCache(spaceId: string | null, sceneId: number, items: ProfileField[]) {
  queryClient.setQueryData(queryKeys.profile.fields(spaceId, sceneId), { items });
}
