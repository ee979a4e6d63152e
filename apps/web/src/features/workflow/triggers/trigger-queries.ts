import { type RouteBody, workflowTriggerRoutes as r } from '@athena/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

// The triggers panel's own keys: nothing else reads or invalidates them.
const keyOf = (spaceId: string | null, workflowId: string, part: string) =>
  ['workflowTriggers', spaceId, workflowId, part] as const;

export function useApiKeys(spaceId: string | null, workflowId: string, enabled: boolean) {
  return useQuery({
    queryKey: keyOf(spaceId, workflowId, 'keys'),
    queryFn: () => api(r.apiKeyList, { workflow_id: workflowId }),
    enabled: enabled && Boolean(spaceId && workflowId),
  });
}

export function useWebhook(spaceId: string | null, workflowId: string, enabled: boolean) {
  return useQuery({
    queryKey: keyOf(spaceId, workflowId, 'webhook'),
    queryFn: () => api(r.webhookGet, { workflow_id: workflowId }),
    enabled: enabled && Boolean(spaceId && workflowId),
  });
}

export function useSchedule(spaceId: string | null, workflowId: string, enabled: boolean) {
  return useQuery({
    queryKey: keyOf(spaceId, workflowId, 'schedule'),
    queryFn: () => api(r.scheduleGet, { workflow_id: workflowId }),
    enabled: enabled && Boolean(spaceId && workflowId),
  });
}

/** The next fire times of what is typed, checked by the server as a schedule would be. */
export function useSchedulePreview(spaceId: string | null, cron: string, timezone: string) {
  return useQuery({
    queryKey: ['workflowTriggers', spaceId, 'preview', cron, timezone] as const,
    queryFn: () => api(r.schedulePreview, { cron, timezone }),
    enabled: Boolean(spaceId && cron.trim() && timezone),
    retry: false,
  });
}

export function useRefreshTriggers(spaceId: string | null, workflowId: string) {
  const client = useQueryClient();
  return (part: 'keys' | 'webhook' | 'schedule') =>
    client.invalidateQueries({ queryKey: keyOf(spaceId, workflowId, part) });
}

export function useSaveSchedule(spaceId: string | null, workflowId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: Omit<RouteBody<typeof r.scheduleSet>, 'workflow_id'>) =>
      api(r.scheduleSet, { ...body, workflow_id: workflowId }),
    onSuccess: (saved) => client.setQueryData(keyOf(spaceId, workflowId, 'schedule'), saved),
  });
}
