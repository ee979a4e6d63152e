import { agentRoutes, modelKeyRoutes } from '@athena/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api-client.ts';
import { queryClient } from '../../lib/query-client.ts';
import { queryKeys } from '../../lib/query-keys.ts';

export function useAgentList(spaceId: string | null, keyword: string) {
  return useQuery({
    queryKey: queryKeys.agents.list(spaceId, keyword),
    queryFn: () => api(agentRoutes.list, keyword ? { keyword } : {}),
    enabled: Boolean(spaceId),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

export function useAgent(spaceId: string | null, id: string) {
  return useQuery({
    queryKey: queryKeys.agents.detail(spaceId, id),
    queryFn: () => api(agentRoutes.get, { id }),
    enabled: Boolean(spaceId && id),
    staleTime: 0,
  });
}

export function useConversations(spaceId: string | null, agentId: string) {
  return useQuery({
    queryKey: queryKeys.agents.conversations(spaceId, agentId),
    queryFn: () => api(agentRoutes.conversations, { agent_id: agentId }),
    enabled: Boolean(spaceId && agentId),
  });
}

export function useApiKeys(spaceId: string | null, agentId: string) {
  return useQuery({
    queryKey: queryKeys.agents.apiKeys(spaceId, agentId),
    queryFn: () => api(agentRoutes.apiKeyList, { agent_id: agentId }),
    enabled: Boolean(spaceId && agentId),
    staleTime: 0,
  });
}

/** The space's chat keys, for the agent's model choice (everyone may use them). */
export function useChatModelKeys(spaceId: string | null) {
  return useQuery({
    queryKey: queryKeys.modelKeys.byPurpose(spaceId, 'chat'),
    queryFn: () => api(modelKeyRoutes.list, { purpose: 'chat' }),
    enabled: Boolean(spaceId),
  });
}

/** After any change to agents (create, save, share, delete…): lists, the agent and /apps reload. */
export const refreshAgents = (spaceId: string | null) =>
  queryClient.invalidateQueries({ queryKey: queryKeys.agents.all(spaceId) });
