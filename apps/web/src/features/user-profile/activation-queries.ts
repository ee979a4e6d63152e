import { type ActivationAudience, type ActivationEvent, activationRoutes, profileRoutes } from '@athena/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api-client.ts';
import { queryClient } from '../../lib/query-client.ts';
import { queryKeys } from '../../lib/query-keys.ts';

/** Events per page of the activation tab, and sends per page of an event or a customer. */
export const ACTIVATION_PAGE_SIZE = 20;

const keyOf = (spaceId: string | null, sceneId: number, ...rest: unknown[]) => [
  ...queryKeys.profile.scene(spaceId, sceneId),
  'activation',
  ...rest,
];

/** While an event sends, its counts move: the lists look again every few seconds. */
const LIVE_MS = 3_000;
/** A scheduled event this close to its time is watched live (it starts sending soon). */
const SOON_MS = 60_000;

/**
 * Whether an event's counts may move now: it sends, or is due within a minute. Only then do its
 * views look again (a page of events scheduled for tomorrow is not counted every few seconds).
 */
export const isLive = (event: Pick<ActivationEvent, 'status' | 'send_at'>) =>
  event.status === 'sending' ||
  (event.status === 'scheduled' && new Date(event.send_at).getTime() - Date.now() < SOON_MS);

/** Every few seconds while one of the events is live; once a minute while one waits for its time. */
const pollEvery = (events: Pick<ActivationEvent, 'status' | 'send_at'>[]) => {
  if (events.some(isLive)) return LIVE_MS;
  return events.some((event) => event.status === 'scheduled') ? SOON_MS : false;
};

export function useActivationTemplates(spaceId: string | null, sceneId: number | null) {
  return useQuery({
    queryKey: keyOf(spaceId, sceneId ?? 0, 'templates'),
    queryFn: () => api(activationRoutes.templateList),
    enabled: Boolean(spaceId) && sceneId !== null,
    select: (data) => data.items,
  });
}

export function useActivationEvents(spaceId: string | null, sceneId: number | null, page: number) {
  return useQuery({
    queryKey: keyOf(spaceId, sceneId ?? 0, 'events', page),
    queryFn: () => api(activationRoutes.eventList, { page, page_size: ACTIVATION_PAGE_SIZE }),
    enabled: Boolean(spaceId) && sceneId !== null,
    placeholderData: keepPreviousData,
    refetchInterval: (query) => pollEvery(query.state.data?.items ?? []),
  });
}

export function useActivationEvent(spaceId: string | null, sceneId: number, id: string | null) {
  return useQuery({
    queryKey: keyOf(spaceId, sceneId, 'event', id),
    queryFn: () => api(activationRoutes.eventGet, { id: id ?? '' }),
    enabled: Boolean(spaceId) && id !== null,
    refetchInterval: (query) => pollEvery(query.state.data ? [query.state.data] : []),
  });
}

/** An event's sends, or a customer's (exactly one of the two). */
export function useActivationSends(
  spaceId: string | null,
  sceneId: number,
  of: { event_id: string } | { customer_id: string },
  page: number,
  /**
   * False stops looking again (an event's sends while the event is not live: nothing moves). Part
   * of the key, so the sends are read once more when their event stops being live.
   */
  live = true,
) {
  return useQuery({
    queryKey: keyOf(spaceId, sceneId, 'sends', of, page, live),
    queryFn: () => api(activationRoutes.sendList, { ...of, page, page_size: ACTIVATION_PAGE_SIZE }),
    // The event drawer is mounted before an event is chosen: no id, nothing to ask.
    enabled: Boolean(spaceId) && Object.values(of).every(Boolean),
    placeholderData: keepPreviousData,
    refetchInterval: (query) =>
      live && query.state.data?.items.some((send) => send.state === 'pending') ? LIVE_MS : false,
  });
}

export function useAudienceCount(spaceId: string | null, sceneId: number, audience: ActivationAudience | null) {
  return useQuery({
    queryKey: keyOf(spaceId, sceneId, 'audience', audience),
    queryFn: () => api(activationRoutes.audienceCount, { audience: audience ?? {} }),
    enabled: Boolean(spaceId) && audience !== null,
    staleTime: 0,
  });
}

/** Customers offered when choosing an audience one by one. */
const CHOOSE_PAGE_SIZE = 20;

/** The customers the customer list finds for `keyword` (its search: name, remark, field values). */
export function useCustomerSearch(spaceId: string | null, sceneId: number, keyword: string, enabled: boolean) {
  return useQuery({
    queryKey: keyOf(spaceId, sceneId, 'customer-search', keyword),
    queryFn: () =>
      api(profileRoutes.customerList, {
        ...(keyword ? { keyword } : {}),
        page: 1,
        page_size: CHOOSE_PAGE_SIZE,
      }),
    enabled: Boolean(spaceId) && enabled,
    placeholderData: keepPreviousData,
    select: (data) => data.items,
  });
}

/** After a template or an event changed: everything of activation in the scene is read again. */
export const refreshActivation = (spaceId: string | null, sceneId: number) =>
  queryClient.invalidateQueries({ queryKey: keyOf(spaceId, sceneId) });
