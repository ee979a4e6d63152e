import { type KnowledgeUnit, UNIT_STATUSES, type UnitStatus } from '@athena/contract';

/** Waiting and indexing units still move on their own: the page keeps asking until none is left. */
export const isActive = (status: UnitStatus) => status === 'waiting' || status === 'indexing';

export const anyActive = (units: readonly Pick<KnowledgeUnit, 'status'>[] | undefined) =>
  Boolean(units?.some((unit) => isActive(unit.status)));

/** How often the units list is read again while something indexes. */
export const POLL_MS = 1_500;

/** The order a summary reads in: what is done first, then what moves, then what needs a person. */
export const SUMMARY_ORDER: readonly UnitStatus[] = [
  'indexed',
  'indexing',
  'waiting',
  'not_indexed',
  'failed',
  'canceled',
];

export type StatusCounts = Record<UnitStatus, number>;

export const emptyCounts = (): StatusCounts =>
  Object.fromEntries(UNIT_STATUSES.map((status) => [status, 0])) as StatusCounts;

export function countByStatus(units: readonly Pick<KnowledgeUnit, 'status'>[]): StatusCounts {
  const counts = emptyCounts();
  for (const unit of units) counts[unit.status] += 1;
  return counts;
}

/** The non-zero counts in summary order: "12 indexed · 2 indexing · 1 failed". */
export function summaryParts(counts: Partial<StatusCounts>): { status: UnitStatus; count: number }[] {
  return SUMMARY_ORDER.flatMap((status) => {
    const count = counts[status] ?? 0;
    return count > 0 ? [{ status, count }] : [];
  });
}

/** Which actions a unit's row offers, by its state (the server refuses the others with 40108). */
export function unitActions(status: UnitStatus) {
  return {
    start: status === 'not_indexed',
    cancel: isActive(status),
    retry: status === 'failed' || status === 'canceled',
  };
}
