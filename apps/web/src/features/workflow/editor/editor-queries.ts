import { workflowRoutes } from '@athena/contract';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
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
