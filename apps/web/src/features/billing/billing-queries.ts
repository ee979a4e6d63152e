import {
  agentRoutes,
  billingRoutes,
  billingUsageRoutes,
  type LedgerEntryKind,
  type RechargeStatus,
  type RouteBody,
  teamRoutes,
  workflowRoutes,
} from '@athena/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api } from '../../lib/api-client.ts';
import { queryClient } from '../../lib/query-client.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import type { TimeRangeBody } from '../../lib/time-range.ts';
import { useUserStore } from '../../stores/user-store.ts';

export const PAGE_SIZE = 10;

/** Payments and other members' calls change these from elsewhere: never trust the app-wide freshness. */
const FRESH = { staleTime: 0 } as const;

/** The summary; its balance is the newest the page has, so the header learns it too. */
export function useBillingSummary(spaceId: string | null) {
  const query = useQuery({
    queryKey: queryKeys.billing.summary(spaceId),
    queryFn: () => api(billingRoutes.summary),
    enabled: Boolean(spaceId),
    ...FRESH,
  });
  const balance = query.data?.balance;
  useEffect(() => {
    if (balance !== undefined && useUserStore.getState().team?.id === spaceId) {
      useUserStore.getState().setBalance(balance);
    }
  }, [balance, spaceId]);
  return query;
}

export const refreshBilling = (spaceId: string | null) =>
  queryClient.invalidateQueries({ queryKey: queryKeys.billing.all(spaceId) });

export interface RechargeFilters {
  status: RechargeStatus | null;
  time: TimeRangeBody | null;
  page: number;
}

export function useRecharges(spaceId: string | null, filters: RechargeFilters, enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.billing.list(spaceId, 'recharges', filters),
    queryFn: () => api(billingRoutes.rechargeList, { ...filters, page_size: PAGE_SIZE }),
    enabled: Boolean(spaceId) && enabled,
    placeholderData: keepPreviousData,
    ...FRESH,
  });
}

export interface LedgerFilters {
  kind: LedgerEntryKind | null;
  time: TimeRangeBody | null;
  page: number;
}

export function useLedger(spaceId: string | null, filters: LedgerFilters, enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.billing.list(spaceId, 'ledger', filters),
    queryFn: () => api(billingRoutes.ledgerList, { ...filters, page_size: PAGE_SIZE }),
    enabled: Boolean(spaceId) && enabled,
    placeholderData: keepPreviousData,
    ...FRESH,
  });
}

/** The usage filter as the routes take it (the list adds its page, the chart its time zone). */
export type UsageQuery = Required<Omit<NonNullable<RouteBody<typeof billingUsageRoutes.usageDaily>>, 'time_zone'>>;

export function useUsage(spaceId: string | null, filter: UsageQuery, page: number) {
  return useQuery({
    queryKey: queryKeys.billing.list(spaceId, 'usage', { ...filter, page }),
    queryFn: () => api(billingUsageRoutes.usageList, { ...filter, page, page_size: PAGE_SIZE }),
    enabled: Boolean(spaceId),
    placeholderData: keepPreviousData,
    ...FRESH,
  });
}

export function useUsageDaily(spaceId: string | null, filter: UsageQuery, timeZone: string) {
  return useQuery({
    queryKey: queryKeys.billing.list(spaceId, 'usageDaily', { ...filter, timeZone }),
    queryFn: () => api(billingUsageRoutes.usageDaily, { ...filter, time_zone: timeZone }),
    enabled: Boolean(spaceId),
    placeholderData: keepPreviousData,
    ...FRESH,
  });
}

/** The catalogue, and whether I am an operator (who also sees disabled models and the operator tab). */
export function usePlatformModels(spaceId: string | null) {
  return useQuery({
    queryKey: queryKeys.billing.platformModels(spaceId),
    queryFn: () => api(billingUsageRoutes.platformModels),
    enabled: Boolean(spaceId),
  });
}

export const refreshPlatformModels = (spaceId: string | null) =>
  queryClient.invalidateQueries({ queryKey: queryKeys.billing.platformModels(spaceId) });

/** The team's agents or workflows (the first hundred), to filter fee records by one of them. */
export function useSubjectOptions(kind: 'agent' | 'workflow') {
  const spaceId = useUserStore((s) => s.team?.id ?? null);
  return useQuery({
    queryKey: queryKeys.billing.subjects(spaceId, kind),
    queryFn: async () =>
      kind === 'agent'
        ? (await api(agentRoutes.list, {})).items.map((agent) => ({ value: agent.id, label: agent.name }))
        : (await api(workflowRoutes.list, { page: 1, page_size: 100 })).items.map((workflow) => ({
            value: workflow.id,
            label: workflow.name,
          })),
    enabled: Boolean(spaceId),
  });
}

/** Members to filter fee records by (the first hundred matching what is typed). */
export function useMemberOptions(spaceId: string | null, keyword: string, enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.team.memberPicker(spaceId, keyword),
    queryFn: () => api(teamRoutes.memberList, { keyword: keyword || undefined, page: 1, page_size: 100 }),
    enabled: Boolean(spaceId) && enabled,
    placeholderData: keepPreviousData,
  });
}
