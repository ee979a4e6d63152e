import { MEDIA_KINDS, type MediaKind, mediaRoutes, type RouteData } from '@athena/contract';
import { type InfiniteData, keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
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

const itemListBody = (query: ItemQuery, page: number) => ({
  library_id: query.libraryId,
  kind: query.kind ?? undefined,
  keyword: query.keyword || undefined,
  sort: query.sort,
  order: query.order,
  trash: query.trash,
  page,
  page_size: ITEM_PAGE,
});

type ItemPage = RouteData<typeof mediaRoutes.itemList>;

/** A library's items page by page (the virtual list asks for the next page near its end). */
export function useItems(spaceId: string | null, query: ItemQuery) {
  return useInfiniteQuery({
    queryKey: queryKeys.media.items(spaceId, query),
    queryFn: ({ pageParam }) => api(mediaRoutes.itemList, itemListBody(query, pageParam)),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (pages.length * ITEM_PAGE < last.total ? pages.length + 1 : undefined),
    enabled: Boolean(spaceId && query.libraryId),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

/** How often a preview that is being made is asked about. */
export const PREVIEW_POLL_MS = 3000;

/**
 * While items on screen wait for their preview, reads again every few seconds only the pages
 * (`pages`, 1-based) that hold them, and puts them into the list: a whole refetch would read
 * every page loaded so far. It holds back while `paused` (a video plays) and while the tab is
 * hidden, and stops when `pages` is empty.
 */
export function usePreviewPoll(spaceId: string | null, query: ItemQuery, pages: number[], paused: boolean) {
  const wanted = pages.join(',');
  useEffect(() => {
    if (!spaceId || !wanted || paused) return;
    const numbers = wanted.split(',').map(Number);
    const key = queryKeys.media.items(spaceId, query);
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const poll = async () => {
      if (!document.hidden) {
        const fresh = await Promise.all(
          numbers.map((page) => api(mediaRoutes.itemList, itemListBody(query, page)).catch(() => null)),
        );
        if (stopped) return;
        queryClient.setQueryData<InfiniteData<ItemPage, number>>(key, (old) =>
          old ? { ...old, pages: old.pages.map((page, index) => fresh[numbers.indexOf(index + 1)] ?? page) } : old,
        );
      }
      if (!stopped) timer = setTimeout(() => void poll(), PREVIEW_POLL_MS);
    };
    timer = setTimeout(() => void poll(), PREVIEW_POLL_MS);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [spaceId, query, wanted, paused]);
}

/**
 * One item; read again while it is processed, and while its preview is being made unless
 * `paused` (a video plays: the poster would not change what plays, and the player needs the line).
 */
export function useMediaItem(spaceId: string | null, id: string, paused = false) {
  return useQuery({
    queryKey: queryKeys.media.item(spaceId, id),
    queryFn: () => api(mediaRoutes.itemGet, { id }),
    enabled: Boolean(spaceId && id),
    staleTime: 0,
    refetchInterval: (query) => {
      const item = query.state.data;
      if (item?.status === 'processing') return 2000;
      return item?.preview === 'pending' && !item.deleted_at && !paused ? PREVIEW_POLL_MS : false;
    },
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
