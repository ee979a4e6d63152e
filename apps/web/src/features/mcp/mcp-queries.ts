import { mcpRoutes } from '@athena/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { api } from '../../lib/api-client.ts';
import { queryKeys } from '../../lib/query-keys.ts';

export const CALLS_PAGE_SIZE = 20;

export function useMcpSettings(spaceId: string | null) {
  return useQuery({
    queryKey: queryKeys.mcp.settings(spaceId),
    queryFn: () => api(mcpRoutes.settingsGet),
    enabled: Boolean(spaceId),
  });
}

export function useMcpTokens(spaceId: string | null) {
  return useQuery({
    queryKey: queryKeys.mcp.tokens(spaceId),
    queryFn: () => api(mcpRoutes.tokenList),
    enabled: Boolean(spaceId),
  });
}

export function useMcpTools(spaceId: string | null) {
  return useQuery({
    queryKey: queryKeys.mcp.tools(spaceId),
    queryFn: () => api(mcpRoutes.toolList),
    enabled: Boolean(spaceId),
  });
}

/** Read when the add dialog opens: what could be exposed, with the schema each tool would have. */
export function useMcpCandidates(spaceId: string | null, enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.mcp.candidates(spaceId),
    queryFn: () => api(mcpRoutes.toolCandidates),
    enabled: Boolean(spaceId) && enabled,
    staleTime: 0,
  });
}

export function useMcpCalls(spaceId: string | null, filters: { toolId: string | undefined; page: number }) {
  return useQuery({
    queryKey: queryKeys.mcp.calls(spaceId, filters),
    queryFn: () => api(mcpRoutes.callList, { tool_id: filters.toolId, page: filters.page, page_size: CALLS_PAGE_SIZE }),
    enabled: Boolean(spaceId),
    placeholderData: (previous) => previous,
  });
}

/** After a write: read the settings, tokens, tools, candidates and log of this space again. */
export function useRefreshMcp(spaceId: string | null) {
  const client = useQueryClient();
  return useCallback(() => client.invalidateQueries({ queryKey: queryKeys.mcp.all(spaceId) }), [client, spaceId]);
}
