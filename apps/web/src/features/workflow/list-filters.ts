import { type RouteBody, WORKFLOW_LIST_LAST_RESULTS, type workflowRoutes } from '@athena/contract';

export type LastResultFilter = (typeof WORKFLOW_LIST_LAST_RESULTS)[number];

/** '' is every workflow, 'ungrouped' the workflows in no group, anything else a group's id. */
export type GroupFilter = string;
export const UNGROUPED = 'ungrouped';
export const LIST_PAGE_SIZE = 24;

/** What the list shows besides the group; kept in the address so a filtered list can be shared. */
export interface ListFilters {
  keyword: string;
  effective: boolean | null;
  locked: boolean | null;
  lastResult: LastResultFilter | null;
  page: number;
}

export const NO_FILTERS: ListFilters = { keyword: '', effective: null, locked: null, lastResult: null, page: 1 };

const yesNo = (value: string | null): boolean | null => (value === '1' ? true : value === '0' ? false : null);
const isLastResult = (value: string | null): value is LastResultFilter =>
  (WORKFLOW_LIST_LAST_RESULTS as readonly (string | null)[]).includes(value);

/** Reads the filters from the page's query string; anything unknown or malformed is ignored. */
export function filtersFromSearch(search: URLSearchParams): ListFilters {
  const lastResult = search.get('result');
  const page = Number(search.get('page'));
  return {
    keyword: (search.get('q') ?? '').slice(0, 50),
    effective: yesNo(search.get('effective')),
    locked: yesNo(search.get('locked')),
    lastResult: isLastResult(lastResult) ? lastResult : null,
    page: Number.isInteger(page) && page >= 1 && page <= 10_000 ? page : 1,
  };
}

/** The query string for the filters: only what differs from "no filter", so a plain list has none. */
export function filtersToSearch(filters: ListFilters): Record<string, string> {
  const out: Record<string, string> = {};
  const keyword = filters.keyword.trim();
  if (keyword) out.q = keyword;
  if (filters.effective !== null) out.effective = filters.effective ? '1' : '0';
  if (filters.locked !== null) out.locked = filters.locked ? '1' : '0';
  if (filters.lastResult) out.result = filters.lastResult;
  if (filters.page > 1) out.page = String(filters.page);
  return out;
}

/** The list call's body for a group and the filters (the keyword as the person typed it, debounced). */
export function listBody(group: GroupFilter, filters: ListFilters): NonNullable<RouteBody<typeof workflowRoutes.list>> {
  const keyword = filters.keyword.trim().slice(0, 50);
  return {
    ...(group ? { group_id: group } : {}),
    ...(keyword ? { keyword } : {}),
    ...(filters.effective === null ? {} : { effective: filters.effective }),
    ...(filters.locked === null ? {} : { locked: filters.locked }),
    ...(filters.lastResult ? { last_result: filters.lastResult } : {}),
    page: filters.page,
    page_size: LIST_PAGE_SIZE,
  };
}

/** Whether anything narrows the list (an empty answer then means "no match", not "nothing yet"). */
export const isFiltered = (filters: ListFilters) =>
  filters.keyword.trim() !== '' || filters.effective !== null || filters.locked !== null || filters.lastResult !== null;
