import { type KnowledgeUnit, knowledgeRoutes, modelKeyRoutes } from '@athena/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api-client.ts';
import { queryClient } from '../../lib/query-client.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import { anyActive, POLL_MS } from './unit-status.ts';

export function useKnowledgeGroups(spaceId: string | null) {
  return useQuery({
    queryKey: queryKeys.knowledge.groups(spaceId),
    queryFn: () => api(knowledgeRoutes.groupList),
    enabled: Boolean(spaceId),
    staleTime: 0,
  });
}

/** `groupId`: '' for all bases, 'ungrouped', or a group's id. */
export function useKnowledgeList(spaceId: string | null, groupId: string, keyword: string) {
  return useQuery({
    queryKey: queryKeys.knowledge.list(spaceId, groupId, keyword),
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
    queryKey: queryKeys.knowledge.detail(spaceId, id),
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
    queryKey: queryKeys.knowledge.units(spaceId, knowledgeId),
    queryFn: () => api(knowledgeRoutes.unitList, { knowledge_id: knowledgeId }),
    enabled: Boolean(spaceId && knowledgeId),
    staleTime: 0,
    refetchInterval: (query) => (anyActive(query.state.data?.items) ? POLL_MS : false),
  });
}

/** One unit, polled the same way while it indexes (its segment page shows the progress). */
export function useUnit(spaceId: string | null, unitId: string) {
  return useQuery({
    queryKey: queryKeys.knowledge.unit(spaceId, unitId),
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
    queryKey: queryKeys.knowledge.segmentPage(spaceId, query.knowledgeId, query),
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
    queryKey: queryKeys.modelKeys.byPurpose(spaceId, 'embedding'),
    queryFn: () => api(modelKeyRoutes.list, { purpose: 'embedding' }),
    enabled: Boolean(spaceId),
  });
}

/** After a change to bases or groups: lists, counts and the open base reload. */
export const refreshKnowledge = (spaceId: string | null) =>
  queryClient.invalidateQueries({ queryKey: queryKeys.knowledge.all(spaceId) });

/**
 * After a change to one base's files or segments (a segment created, edited, switched on or off
 * or deleted changes its unit's segment and token counts too): the base, its unit list, every
 * single unit of it that is cached (the segment page's header), its segments and the base lists.
 */
export const refreshBase = (spaceId: string | null, knowledgeId: string) =>
  Promise.all([
    queryClient.invalidateQueries({ queryKey: queryKeys.knowledge.detail(spaceId, knowledgeId) }),
    queryClient.invalidateQueries({ queryKey: queryKeys.knowledge.units(spaceId, knowledgeId) }),
    queryClient.invalidateQueries({
      queryKey: queryKeys.knowledge.anyUnit(spaceId),
      // A unit not read yet (or whose read failed) has no base to compare; reading it again is harmless.
      predicate: (query) => {
        const unit = query.state.data as KnowledgeUnit | undefined;
        return !unit || unit.knowledge_id === knowledgeId;
      },
    }),
    queryClient.invalidateQueries({ queryKey: queryKeys.knowledge.segments(spaceId, knowledgeId) }),
    queryClient.invalidateQueries({ queryKey: queryKeys.knowledge.lists(spaceId) }),
  ]);
