import { mcpExternalRoutes } from '@athena/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { api } from '../../lib/api-client.ts';
import { queryKeys } from '../../lib/query-keys.ts';

// Under the MCP page's keys, so anything that reads the page again reads these too.
const externalKey = (spaceId: string | null) => [...queryKeys.mcp.all(spaceId), 'external'] as const;

export function useExternalServers(spaceId: string | null) {
  return useQuery({
    queryKey: externalKey(spaceId),
    queryFn: () => api(mcpExternalRoutes.list),
    enabled: Boolean(spaceId),
  });
}

/** A server's cached tool list, read when its row is opened. */
export function useExternalTools(spaceId: string | null, serverId: string, readAt: string | null) {
  return useQuery({
    queryKey: [...externalKey(spaceId), 'tools', serverId, readAt] as const,
    queryFn: () => api(mcpExternalRoutes.tools, { id: serverId }),
    enabled: Boolean(spaceId),
  });
}

export function useRefreshExternal(spaceId: string | null) {
  const client = useQueryClient();
  return useCallback(() => client.invalidateQueries({ queryKey: externalKey(spaceId) }), [client, spaceId]);
}
