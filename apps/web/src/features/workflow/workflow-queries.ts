import { type RunResult, workflowRoutes, workflowRunRoutes } from '@athena/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api-client.ts';
import { currentLocale } from '../../lib/i18n.ts';
import { queryClient } from '../../lib/query-client.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import { type GroupFilter, type ListFilters, listBody } from './list-filters.ts';

export function useWorkflowGroups(spaceId: string | null) {
  return useQuery({
    queryKey: queryKeys.workflows.groups(spaceId),
    queryFn: () => api(workflowRoutes.groupList),
    enabled: Boolean(spaceId),
    staleTime: 0,
  });
}

export function useWorkflowList(spaceId: string | null, group: GroupFilter, filters: ListFilters) {
  const body = listBody(group, filters);
  return useQuery({
    queryKey: queryKeys.workflows.list(spaceId, body),
    queryFn: () => api(workflowRoutes.list, body),
    enabled: Boolean(spaceId),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

export function useWorkflowTemplates(spaceId: string | null, enabled = true) {
  return useQuery({
    // Keyed by language: after a switch, the list (and a preview of its graph) is read again in the
    // new one, as the workflow created from it will be.
    queryKey: queryKeys.workflows.templateList(spaceId, currentLocale()),
    queryFn: () => api(workflowRoutes.templateList),
    enabled: Boolean(spaceId) && enabled,
  });
}

/** The workflow a run history belongs to: its name and the caller's rights. */
export function useWorkflowOverview(spaceId: string | null, id: string) {
  return useQuery({
    queryKey: queryKeys.workflows.overview(spaceId, id),
    queryFn: () => api(workflowRoutes.detail, { id }),
    enabled: Boolean(spaceId && id),
  });
}

export const RUNS_PAGE_SIZE = 20;

export function useRunList(spaceId: string | null, workflowId: string, result: RunResult | null, page: number) {
  const body = { workflow_id: workflowId, ...(result ? { result } : {}), page, page_size: RUNS_PAGE_SIZE };
  return useQuery({
    queryKey: queryKeys.workflows.runPage(spaceId, workflowId, body),
    queryFn: () => api(workflowRunRoutes.list, body),
    enabled: Boolean(spaceId && workflowId),
    placeholderData: keepPreviousData,
    staleTime: 0,
    // A run still going shows its result once it ends, without a manual refresh.
    refetchInterval: (query) => (query.state.data?.items.some((run) => run.status !== 'finished') ? 3000 : false),
  });
}

export function useRunDetail(spaceId: string | null, runId: string | null) {
  return useQuery({
    queryKey: queryKeys.workflows.run(spaceId, runId ?? ''),
    queryFn: () => api(workflowRunRoutes.detail, { run_id: runId ?? '' }),
    enabled: Boolean(spaceId && runId),
    staleTime: 0,
    refetchInterval: (query) => (query.state.data && query.state.data.run.status !== 'finished' ? 2000 : false),
  });
}

/**
 * After a change to workflows, groups or templates: the lists, the group counts and the templates
 * reload now; everything else of the space (a workflow the editor read before, with its old name
 * or lock) is marked stale, so it is read again when next shown.
 */
export const refreshWorkflowLists = (spaceId: string | null) =>
  Promise.all([
    queryClient.invalidateQueries({ queryKey: queryKeys.workflows.all(spaceId), refetchType: 'none' }),
    queryClient.invalidateQueries({ queryKey: queryKeys.workflows.lists(spaceId) }),
    queryClient.invalidateQueries({ queryKey: queryKeys.workflows.groups(spaceId) }),
    queryClient.invalidateQueries({ queryKey: queryKeys.workflows.templates(spaceId) }),
    queryClient.invalidateQueries({ queryKey: queryKeys.workflows.picker(spaceId) }),
  ]);
