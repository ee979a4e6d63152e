import { agentRoutes, modelKeyRoutes } from '@athena/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { queryClient } from '../../app/query-client.ts';
import { api } from '../../lib/api-client.ts';

/** Everything cached about one space's agents starts with ['agents', spaceId]. */
export const agentKeys = {
  all: (spaceId: string | null) => ['agents', spaceId] as const,
  list: (spaceId: string | null, keyword: string) => ['agents', spaceId, 'list', keyword] as const,
  one: (spaceId: string | null, id: string) => ['agents', spaceId, 'one', id] as const,
  conversations: (spaceId: string | null, id: string) => ['agents', spaceId, 'conversations', id] as const,
  apiKeys: (spaceId: string | null, id: string) => ['agents', spaceId, 'apiKeys', id] as const,
  apps: (spaceId: string | null) => ['agents', spaceId, 'apps'] as const,
};

export function useAgentList(spaceId: string | null, keyword: string) {
  return useQuery({
    queryKey: agentKeys.list(spaceId, keyword),
    queryFn: () => api(agentRoutes.list, keyword ? { keyword } : {}),
    enabled: Boolean(spaceId),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

export function useAgent(spaceId: string | null, id: string) {
  return useQuery({
    queryKey: agentKeys.one(spaceId, id),
    queryFn: () => api(agentRoutes.get, { id }),
    enabled: Boolean(spaceId && id),
    staleTime: 0,
  });
}

export function useConversations(spaceId: string | null, agentId: string) {
  return useQuery({
    queryKey: agentKeys.conversations(spaceId, agentId),
    queryFn: () => api(agentRoutes.conversations, { agent_id: agentId }),
    enabled: Boolean(spaceId && agentId),
  });
}

export function useApiKeys(spaceId: string | null, agentId: string) {
  return useQuery({
    queryKey: agentKeys.apiKeys(spaceId, agentId),
    queryFn: () => api(agentRoutes.apiKeyList, { agent_id: agentId }),
    enabled: Boolean(spaceId && agentId),
    staleTime: 0,
  });
}

/** The space's chat keys, for the agent's model choice (everyone may use them). */
export function useChatModelKeys(spaceId: string | null) {
  return useQuery({
    queryKey: ['modelKeys', spaceId, 'chat'],
    queryFn: () => api(modelKeyRoutes.list, { purpose: 'chat' }),
    enabled: Boolean(spaceId),
  });
}

/** After any change to agents (create, save, share, delete…): lists, the agent and /apps reload. */
export const refreshAgents = (spaceId: string | null) =>
  queryClient.invalidateQueries({ queryKey: agentKeys.all(spaceId) });
