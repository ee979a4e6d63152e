import { MEDIA_KINDS, type MediaKind, mediaRoutes } from '@athena/contract';
import { keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api-client.ts';
import { queryClient } from '../../lib/query-client.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import { UNGROUPED } from '../../shared/ui/group-side-list.tsx';

/** The server's largest page; a library of 10 000 items loads in 100 of them as the list scrolls. */
export const ITEM_PAGE = 100;
/** Libraries are few; one large page holds a team's. */
const LIBRARY_PAGE = 100;

export const isMediaKind = (value: string | null): value is MediaKind =>
  value !== null && (MEDIA_KINDS as readonly string[]).includes(value);

export function useMediaGroups(spaceId: string | null) {
  return useQuery({
    queryKey: queryKeys.media.groups(spaceId),
    queryFn: () => api(mediaRoutes.groupList),
    enabled: Boolean(spaceId),
    staleTime: 0,
  });
}

/**
 * The libraries of one group, or all ('') — the server filters by group only; ungrouped ones are
 * picked from all of them here.
 */
export function useLibraries(spaceId: string | null, groupId: string) {
  return useQuery({
    queryKey: queryKeys.media.libraries(spaceId, groupId),
    queryFn: async () => {
      const serverGroup = groupId && groupId !== UNGROUPED ? groupId : undefined;
      const page = await api(mediaRoutes.libraryList, { group_id: serverGroup, page: 1, page_size: LIBRARY_PAGE });
      return groupId === UNGROUPED ? page.items.filter((library) => library.group_id === null) : page.items;
    },
    enabled: Boolean(spaceId),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

export function useLibrary(spaceId: string | null, id: string) {
  return useQuery({
    queryKey: queryKeys.media.library(spaceId, id),
    queryFn: () => api(mediaRoutes.libraryGet, { id }),
    enabled: Boolean(spaceId && id),
    staleTime: 0,
  });
}

export function useMediaUsage(spaceId: string | null) {
  return useQuery({
    queryKey: queryKeys.media.usage(spaceId),
    queryFn: () => api(mediaRoutes.usage),
    enabled: Boolean(spaceId),
    staleTime: 0,
  });
}

export interface ItemQuery {
  libraryId: string;
  kind: MediaKind | null;
  keyword: string;
  sort: 'time' | 'name' | 'size';
  order: 'asc' | 'desc';
  trash: boolean;
}

/** A library's items page by page (the virtual list asks for the next page near its end). */
export function useItems(spaceId: string | null, query: ItemQuery) {
  return useInfiniteQuery({
    queryKey: queryKeys.media.items(spaceId, query),
    queryFn: ({ pageParam }) =>
      api(mediaRoutes.itemList, {
        library_id: query.libraryId,
        kind: query.kind ?? undefined,
        keyword: query.keyword || undefined,
        sort: query.sort,
        order: query.order,
        trash: query.trash,
        page: pageParam,
        page_size: ITEM_PAGE,
      }),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (pages.length * ITEM_PAGE < last.total ? pages.length + 1 : undefined),
    enabled: Boolean(spaceId && query.libraryId),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

export function useMediaItem(spaceId: string | null, id: string) {
  return useQuery({
    queryKey: queryKeys.media.item(spaceId, id),
    queryFn: () => api(mediaRoutes.itemGet, { id }),
    enabled: Boolean(spaceId && id),
    staleTime: 0,
    // Processing is quick today (sniffing only) but will take longer once thumbnails exist.
    refetchInterval: (query) => (query.state.data?.status === 'processing' ? 2000 : false),
  });
}

/** The signed URL of an item's file; read again well before it expires (it lives one to two hours). */
export function useItemUrl(spaceId: string | null, id: string, enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.media.url(spaceId, id),
    queryFn: () => api(mediaRoutes.itemUrl, { id }),
    enabled: Boolean(spaceId && id && enabled),
    staleTime: 30 * 60 * 1000,
  });
}

export const refreshMedia = (spaceId: string | null) =>
  queryClient.invalidateQueries({ queryKey: queryKeys.media.all(spaceId) });
