import { type KnowledgeUnit, knowledgeRoutes, modelKeyRoutes } from '@athena/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { queryClient } from '../../app/query-client.ts';
import { api } from '../../lib/api-client.ts';
import { anyActive, POLL_MS } from './unit-status.ts';

/** Everything cached about one space's knowledge bases starts with ['knowledge', spaceId]. */
export const knowledgeKeys = {
  all: (spaceId: string | null) => ['knowledge', spaceId] as const,
  groups: (spaceId: string | null) => ['knowledge', spaceId, 'groups'] as const,
  list: (spaceId: string | null, groupId: string, keyword: string) =>
    ['knowledge', spaceId, 'list', groupId, keyword] as const,
  one: (spaceId: string | null, id: string) => ['knowledge', spaceId, 'one', id] as const,
  units: (spaceId: string | null, id: string) => ['knowledge', spaceId, 'units', id] as const,
  /** Single units (the segment page's header); keyed by unit only, so a base's are found by their data. */
  anyUnit: (spaceId: string | null) => ['knowledge', spaceId, 'unit'] as const,
  unit: (spaceId: string | null, unitId: string) => ['knowledge', spaceId, 'unit', unitId] as const,
  segments: (spaceId: string | null, id: string) => ['knowledge', spaceId, 'segments', id] as const,
};

export function useKnowledgeGroups(spaceId: string | null) {
  return useQuery({
    queryKey: knowledgeKeys.groups(spaceId),
    queryFn: () => api(knowledgeRoutes.groupList),
    enabled: Boolean(spaceId),
    staleTime: 0,
  });
}

/** `groupId`: '' for all bases, 'ungrouped', or a group's id. */
export function useKnowledgeList(spaceId: string | null, groupId: string, keyword: string) {
  return useQuery({
    queryKey: knowledgeKeys.list(spaceId, groupId, keyword),
    queryFn: () =>
      api(knowledgeRoutes.list, {
        ...(groupId ? { group_id: groupId } : {}),
        ...(keyword ? { keyword } : {}),
      }),
    enabled: Boolean(spaceId),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

export function useKnowledgeBase(spaceId: string | null, id: string) {
  return useQuery({
    queryKey: knowledgeKeys.one(spaceId, id),
    queryFn: () => api(knowledgeRoutes.get, { id }),
    enabled: Boolean(spaceId && id),
    staleTime: 0,
  });
}

/**
 * A base's units with live status: read again every 1.5 s while any unit waits or indexes, and
 * not at all otherwise (TanStack Query also pauses while the tab is hidden).
 */
export function useUnitPolling(spaceId: string | null, knowledgeId: string) {
  return useQuery({
    queryKey: knowledgeKeys.units(spaceId, knowledgeId),
    queryFn: () => api(knowledgeRoutes.unitList, { knowledge_id: knowledgeId }),
    enabled: Boolean(spaceId && knowledgeId),
    staleTime: 0,
    refetchInterval: (query) => (anyActive(query.state.data?.items) ? POLL_MS : false),
  });
}

/** One unit, polled the same way while it indexes (its segment page shows the progress). */
export function useUnit(spaceId: string | null, unitId: string) {
  return useQuery({
    queryKey: knowledgeKeys.unit(spaceId, unitId),
    queryFn: () => api(knowledgeRoutes.unitGet, { id: unitId }),
    enabled: Boolean(spaceId && unitId),
    staleTime: 0,
    refetchInterval: (query) => (anyActive(query.state.data ? [query.state.data] : undefined) ? POLL_MS : false),
  });
}

export interface SegmentQuery {
  knowledgeId: string;
  unitId?: string;
  keyword: string;
  page: number;
  pageSize: number;
}

export function useSegments(spaceId: string | null, query: SegmentQuery, enabled = true) {
  return useQuery({
    queryKey: [...knowledgeKeys.segments(spaceId, query.knowledgeId), query] as const,
    queryFn: () =>
      api(knowledgeRoutes.segmentList, {
        knowledge_id: query.knowledgeId,
        ...(query.unitId ? { unit_id: query.unitId } : {}),
        ...(query.keyword ? { keyword: query.keyword } : {}),
        page: query.page,
        page_size: query.pageSize,
      }),
    enabled: Boolean(spaceId && query.knowledgeId) && enabled,
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

/** The space's embedding keys, for a base's embedding model (everyone may use them). */
export function useEmbeddingKeys(spaceId: string | null) {
  return useQuery({
    queryKey: ['modelKeys', spaceId, 'embedding'],
    queryFn: () => api(modelKeyRoutes.list, { purpose: 'embedding' }),
    enabled: Boolean(spaceId),
  });
}

/** After a change to bases or groups: lists, counts and the open base reload. */
export const refreshKnowledge = (spaceId: string | null) =>
  queryClient.invalidateQueries({ queryKey: knowledgeKeys.all(spaceId) });

/**
 * After a change to one base's files or segments (a segment created, edited, switched on or off
 * or deleted changes its unit's segment and token counts too): the base, its unit list, every
 * single unit of it that is cached (the segment page's header), its segments and the base lists.
 */
export const refreshBase = (spaceId: string | null, knowledgeId: string) =>
  Promise.all([
    queryClient.invalidateQueries({ queryKey: knowledgeKeys.one(spaceId, knowledgeId) }),
    queryClient.invalidateQueries({ queryKey: knowledgeKeys.units(spaceId, knowledgeId) }),
    queryClient.invalidateQueries({
      queryKey: knowledgeKeys.anyUnit(spaceId),
      // A unit not read yet (or whose read failed) has no base to compare; reading it again is harmless.
      predicate: (query) => {
        const unit = query.state.data as KnowledgeUnit | undefined;
        return !unit || unit.knowledge_id === knowledgeId;
      },
    }),
    queryClient.invalidateQueries({ queryKey: knowledgeKeys.segments(spaceId, knowledgeId) }),
    queryClient.invalidateQueries({ queryKey: ['knowledge', spaceId, 'list'] }),
  ]);
