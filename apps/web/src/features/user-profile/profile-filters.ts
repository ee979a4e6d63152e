import type { RouteBody } from '@athena/contract';
import {
  PROFILE_LIMITS,
  type ProfileCondition,
  type ProfileField,
  type ProfileFieldType,
  type ProfileInactiveFilter,
  type ProfileSatisfactionFilter,
  type profileRoutes,
} from '@athena/contract';
import { type TimeChoice, timeRangeOf } from '../../lib/time-range.ts';

export type ConditionOp = ProfileCondition['op'];

/** The comparisons that make sense for each type: "at least" on a name or a choice means nothing. */
export const OPS_BY_TYPE: Record<ProfileFieldType, readonly ConditionOp[]> = {
  text: ['contains', 'eq', 'empty', 'not_empty'],
  number: ['eq', 'gte', 'lte', 'empty', 'not_empty'],
  date: ['eq', 'gte', 'lte', 'empty', 'not_empty'],
  select: ['eq', 'empty', 'not_empty'],
};

export const needsValue = (op: ConditionOp) => op !== 'empty' && op !== 'not_empty';

/** A condition as the filter row holds it, possibly not finished yet. */
export interface DraftCondition {
  key: number;
  fieldId: string;
  op: ConditionOp;
  value: string;
}

export interface ProfileFilters extends TimeChoice {
  keyword: string;
  conditions: DraftCondition[];
  /** The customer's latest satisfaction rating; '' for any. */
  satisfaction: ProfileSatisfactionFilter | '';
  /** Quiet for at least this long (last wrote before); '' for any. */
  inactive: ProfileInactiveFilter | '';
}

export const NO_PROFILE_FILTERS: ProfileFilters = {
  time: '',
  from: null,
  to: null,
  keyword: '',
  conditions: [],
  satisfaction: '',
  inactive: '',
};

/** A new condition on `field`, with the type's first comparison. */
export const newCondition = (key: number, field: ProfileField): DraftCondition => ({
  key,
  fieldId: field.id,
  op: OPS_BY_TYPE[field.type][0] ?? 'eq',
  value: '',
});

/** The same condition moved to another field: its comparison kept when that type offers it. */
export function withField(condition: DraftCondition, field: ProfileField): DraftCondition {
  const ops = OPS_BY_TYPE[field.type];
  return {
    ...condition,
    fieldId: field.id,
    op: ops.includes(condition.op) ? condition.op : (ops[0] ?? 'eq'),
    value: '',
  };
}

/**
 * The conditions the server gets: finished ones only (a known field, a value where one is needed),
 * at most the contract's limit. A half-made row narrows nothing until it is complete.
 */
export function completeConditions(conditions: readonly DraftCondition[], fields: readonly ProfileField[]) {
  const known = new Map(fields.map((field) => [field.id, field]));
  const out: ProfileCondition[] = [];
  for (const condition of conditions) {
    const field = known.get(condition.fieldId);
    if (!field || !OPS_BY_TYPE[field.type].includes(condition.op)) continue;
    if (!needsValue(condition.op)) out.push({ field_id: field.id, op: condition.op });
    else if (condition.value.trim() !== '')
      out.push({ field_id: field.id, op: condition.op, value: condition.value.trim() });
  }
  return out.slice(0, PROFILE_LIMITS.conditions);
}

type ListBody = RouteBody<typeof profileRoutes.customerList>;

/** The list call's filters without the page; also the key of the list's cache. */
export function listFilters(filters: ProfileFilters, fields: readonly ProfileField[]) {
  const range = timeRangeOf(filters);
  const time: Pick<ListBody, 'last_active' | 'start_time' | 'end_time'> =
    range === null
      ? {}
      : range.preset === 'custom'
        ? { last_active: 'custom', start_time: range.from, end_time: range.to }
        : { last_active: range.preset };
  return {
    keyword: filters.keyword.trim().slice(0, PROFILE_LIMITS.keyword),
    conditions: completeConditions(filters.conditions, fields),
    ...time,
    ...(filters.satisfaction ? { satisfaction: filters.satisfaction } : {}),
    ...(filters.inactive ? { inactive: filters.inactive } : {}),
  } satisfies Omit<ListBody, 'page' | 'page_size'>;
}

export type ListFilters = ReturnType<typeof listFilters>;

/** Whether anything narrows the list: an empty answer then means "no match", not "no customers". */
export const isFiltered = (body: ListFilters) =>
  body.keyword !== '' ||
  body.conditions.length > 0 ||
  body.last_active !== undefined ||
  body.inactive !== undefined ||
  body.satisfaction !== undefined;

export type TotalKind = 'exact' | 'counting' | 'estimated' | 'tooMany';

/**
 * The list's total and what it is: its own count; else the exact count once it arrived; else its
 * estimate, while counting, after the count failed, or when the server could not count quickly.
 */
export function totalOf(
  list: { total: number } | undefined,
  estimated: boolean,
  counted: { data?: { total: number | null }; isError: boolean },
): { total: number; totalKind: TotalKind } {
  const total = list?.total ?? 0;
  if (!estimated) return { total, totalKind: 'exact' };
  if (counted.data) {
    return counted.data.total === null
      ? { total, totalKind: 'tooMany' }
      : { total: counted.data.total, totalKind: 'exact' };
  }
  return { total, totalKind: counted.isError ? 'estimated' : 'counting' };
}
