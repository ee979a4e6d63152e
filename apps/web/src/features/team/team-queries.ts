import { type AuditAction, teamRoutes } from '@athena/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api-client.ts';
import { queryKeys } from '../../lib/query-keys.ts';

/** Server pagination size for members and the audit log. */
export const PAGE_SIZE = 20;

/**
 * Other people change a team (join, leave, revoke…), so its lists refetch whenever a tab opens
 * instead of trusting the app-wide 30-second freshness.
 */
const FRESH = { staleTime: 0 } as const;

export function useMembers(spaceId: string | null, keyword: string, page: number) {
  return useQuery({
    queryKey: queryKeys.team.members(spaceId, { keyword, page }),
    queryFn: () => api(teamRoutes.memberList, { keyword: keyword || undefined, page, page_size: PAGE_SIZE }),
    enabled: Boolean(spaceId),
    placeholderData: keepPreviousData,
    ...FRESH,
  });
}

export function useInvites(spaceId: string | null, enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.team.invites(spaceId),
    queryFn: () => api(teamRoutes.inviteList),
    enabled: Boolean(spaceId) && enabled,
    ...FRESH,
  });
}

export interface AuditFilters {
  action?: AuditAction;
  from?: string;
  to?: string;
  page: number;
}

export function useAudit(spaceId: string | null, filters: AuditFilters, enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.team.audit(spaceId, filters),
    queryFn: () => api(teamRoutes.auditList, { ...filters, page_size: PAGE_SIZE }),
    enabled: Boolean(spaceId) && enabled,
    placeholderData: keepPreviousData,
    ...FRESH,
  });
}
