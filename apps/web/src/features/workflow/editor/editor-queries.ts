import { type WorkflowDetail, workflowRoutes } from '@athena/contract';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** The workflow with its draft. Not refetched on focus: the canvas owns the draft once it is open. */
export function useWorkflowDetail(spaceId: string | null, id: string) {
  return useQuery({
    queryKey: queryKeys.workflows.detail(spaceId, id),
    queryFn: () => api(workflowRoutes.detail, { id }),
    enabled: Boolean(spaceId && id),
    refetchOnWindowFocus: false,
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/**
 * After a publish: the version is the effective one now. The cached detail says so at once (the
 * "API & triggers" drawer read "not effective" until a reload), without refetching the draft the
 * canvas owns; the lists are read again.
 */
export function markPublished(spaceId: string | null, id: string, version: number) {
  queryClient.setQueryData<WorkflowDetail>(queryKeys.workflows.detail(spaceId, id), (detail) =>
    detail ? { ...detail, effective: true, published_version: version } : detail,
  );
  void queryClient.invalidateQueries({ queryKey: queryKeys.workflows.lists(spaceId) });
}
