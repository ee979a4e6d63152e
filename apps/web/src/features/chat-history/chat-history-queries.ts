import { type ChatConversation, chatHistoryRoutes, platformRoutes, type RouteData } from '@athena/contract';
import { type InfiniteData, keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api-client.ts';
import { currentLocale } from '../../lib/i18n.ts';
import { queryClient } from '../../lib/query-client.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import type { ListFilters } from './chat-filters.ts';

/** Conversations per page of the list: about two screens, so scrolling rarely waits. */
export const LIST_PAGE_SIZE = 40;

type ListPage = RouteData<typeof chatHistoryRoutes.conversationList>;

/** The deployment's scenes (labels in the UI language); they do not change while the page lives. */
export function useScenes() {
  const language = currentLocale();
  return useQuery({
    queryKey: queryKeys.platform.scenes(language),
    queryFn: () => api(platformRoutes.sceneList),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/**
 * The scene's settings: its send-type options, how many conversations it has, its ingest address.
 * Every call of this feature carries the scene in the scene-id header, which the page keeps in step
 * with `sceneId` (use-chat-scene.ts), so the id in the key is the scene the answer is about.
 */
export function useSceneSettings(spaceId: string | null, sceneId: number | null) {
  return useQuery({
    queryKey: queryKeys.chatHistory.settings(spaceId, sceneId ?? 0),
    queryFn: () => api(chatHistoryRoutes.settingsGet),
    enabled: Boolean(spaceId) && sceneId !== null,
    staleTime: 0,
  });
}

/** The conversation list, newest activity first, a page at a time by `next_cursor`. */
export function useConversationList(
  spaceId: string | null,
  sceneId: number | null,
  filters: ListFilters,
  enabled: boolean,
) {
  return useInfiniteQuery({
    queryKey: queryKeys.chatHistory.list(spaceId, sceneId ?? 0, filters),
    queryFn: ({ pageParam }) =>
      api(chatHistoryRoutes.conversationList, { ...filters, cursor: pageParam, limit: LIST_PAGE_SIZE }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor,
    enabled: Boolean(spaceId) && sceneId !== null && enabled,
    // While a new filter loads, the old list stays (dimmed) instead of flashing to a skeleton.
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

/** One conversation (the thread's header), also when the list does not show it (a link, a filter). */
export function useConversation(spaceId: string | null, sceneId: number | null, id: string | null) {
  return useQuery({
    queryKey: queryKeys.chatHistory.conversation(spaceId, sceneId ?? 0, id ?? ''),
    queryFn: () => api(chatHistoryRoutes.conversationGet, { id: id ?? '' }),
    enabled: Boolean(spaceId && id) && sceneId !== null,
    staleTime: 0,
  });
}

/** While WeCom has not checked a connection's callback URL, it is asked again this often. */
const UNVERIFIED_POLL_MS = 3_000;

/**
 * The scene's WeCom customer-service connection (WeCom scenes only; never its credentials). While
 * it is connected but not verified, it is read again every few seconds: the person is pasting the
 * callback URL into WeCom's console, and the page says "verified" the moment WeCom checks it.
 */
export function useWecomAccount(spaceId: string | null, sceneId: number, enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.chatHistory.wecom(spaceId, sceneId),
    queryFn: () => api(chatHistoryRoutes.wecomGet),
    enabled: Boolean(spaceId) && enabled,
    staleTime: 0,
    refetchInterval: (query) =>
      query.state.data?.connected && !query.state.data.verified_at ? UNVERIFIED_POLL_MS : false,
  });
}

/** Customers by name for the customer filter (the server answers 20 at most). */
export function useCustomerSearch(spaceId: string | null, sceneId: number | null, keyword: string, enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.chatHistory.customers(spaceId, sceneId ?? 0, keyword),
    queryFn: () => api(chatHistoryRoutes.customerSearch, { keyword }),
    enabled: Boolean(spaceId) && sceneId !== null && enabled,
    placeholderData: keepPreviousData,
  });
}

/** After live changes: the lists, the open conversation's header and the settings (counts) reload. */
export const refreshScene = (spaceId: string | null, sceneId: number) =>
  queryClient.invalidateQueries({ queryKey: queryKeys.chatHistory.scene(spaceId, sceneId) });

/** A conversation was opened and marked read: its unread badge goes at once, everywhere it shows. */
export function clearUnreadInCache(spaceId: string | null, sceneId: number, id: string) {
  const clear = (conversation: ChatConversation) =>
    conversation.id === id && conversation.unread > 0 ? { ...conversation, unread: 0 } : conversation;
  queryClient.setQueriesData<InfiniteData<ListPage>>(
    { queryKey: queryKeys.chatHistory.lists(spaceId, sceneId) },
    (data) => data && { ...data, pages: data.pages.map((page) => ({ ...page, items: page.items.map(clear) })) },
  );
  queryClient.setQueryData<ChatConversation>(
    queryKeys.chatHistory.conversation(spaceId, sceneId, id),
    (data) => data && clear(data),
  );
}
