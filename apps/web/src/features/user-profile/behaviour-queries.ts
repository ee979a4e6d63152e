import { type BehaviourKind, behaviourRoutes } from '@athena/contract';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api-client.ts';
import { queryClient } from '../../lib/query-client.ts';
import { queryKeys } from '../../lib/query-keys.ts';

/** Events per page of a customer's behaviour timeline. */
export const BEHAVIOUR_PAGE_SIZE = 20;

const sceneKey = (spaceId: string | null, sceneId: number) => queryKeys.profile.scene(spaceId, sceneId);

/** A customer's behaviour events, newest first, a page at a time ('' kind: every kind). */
export function useBehaviour(spaceId: string | null, sceneId: number, customerId: string, kind: BehaviourKind | '') {
  return useInfiniteQuery({
    queryKey: [...sceneKey(spaceId, sceneId), 'behaviour', customerId, kind] as const,
    queryFn: ({ pageParam }) =>
      api(behaviourRoutes.behaviourList, {
        customer_id: customerId,
        ...(kind ? { kind } : {}),
        page: pageParam,
        page_size: BEHAVIOUR_PAGE_SIZE,
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

/** A customer's satisfaction surveys, newest first (the latest 100). */
export function useCustomerSatisfaction(spaceId: string | null, sceneId: number, customerId: string) {
  return useQuery({
    queryKey: [...sceneKey(spaceId, sceneId), 'satisfaction', customerId] as const,
    queryFn: () => api(behaviourRoutes.satisfactionList, { customer_id: customerId, page_size: 100 }),
    enabled: Boolean(spaceId),
    staleTime: 0,
  });
}

const settingsKey = (spaceId: string | null, sceneId: number) =>
  [...sceneKey(spaceId, sceneId), 'satisfaction-settings'] as const;

export function useSatisfactionSettings(spaceId: string | null, sceneId: number, enabled: boolean) {
  return useQuery({
    queryKey: settingsKey(spaceId, sceneId),
    queryFn: () => api(behaviourRoutes.satisfactionSettingsGet),
    enabled: Boolean(spaceId) && enabled,
  });
}

export const refreshSatisfactionSettings = (spaceId: string | null, sceneId: number) =>
  queryClient.invalidateQueries({ queryKey: settingsKey(spaceId, sceneId) });
