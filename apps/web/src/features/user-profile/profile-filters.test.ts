import type { ProfileField } from '@athena/contract';
import { describe, expect, it } from 'vitest';
import {
  completeConditions,
  isFiltered,
  listFilters,
  NO_PROFILE_FILTERS,
  OPS_BY_TYPE,
  totalOf,
  withField,
} from './profile-filters.ts';

const field = (id: string, type: ProfileField['type']): ProfileField => ({
  id,
  name: `f${id}`,
  type,
  options: type === 'select' ? ['A', 'B'] : [],
  required: false,
  ai_extract: false,
  ai_overwrite: false,
  description: '',
  position: 0,
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
});
const fields = [field('1', 'text'), field('2', 'number'), field('3', 'select')];

describe('customer list filters', () => {
  it('sends only finished conditions on known fields', () => {
    const conditions = completeConditions(
      [
        { key: 1, fieldId: '1', op: 'contains', value: ' vip ' },
        { key: 2, fieldId: '2', op: 'gte', value: '' },
        { key: 3, fieldId: '3', op: 'empty', value: 'ignored' },
        { key: 4, fieldId: 'gone', op: 'eq', value: 'x' },
        { key: 5, fieldId: '3', op: 'gte', value: 'A' },
      ],
      fields,
    );
    expect(conditions).toEqual([
      { field_id: '1', op: 'contains', value: 'vip' },
      { field_id: '3', op: 'empty' },
    ]);
  });

  it('keeps a comparison the new field offers and drops the typed value', () => {
    const moved = withField({ key: 1, fieldId: '1', op: 'contains', value: 'x' }, field('2', 'number'));
    expect(moved).toEqual({ key: 1, fieldId: '2', op: OPS_BY_TYPE.number[0], value: '' });
    expect(withField({ key: 1, fieldId: '2', op: 'gte', value: '3' }, field('9', 'date')).op).toBe('gte');
  });

  it('turns the time choice into last_active, a custom range only once complete', () => {
    expect(listFilters(NO_PROFILE_FILTERS, fields)).toEqual({ keyword: '', conditions: [] });
    expect(listFilters({ ...NO_PROFILE_FILTERS, time: '7d' }, fields).last_active).toBe('7d');
    const half = listFilters({ ...NO_PROFILE_FILTERS, time: 'custom', from: 1000, to: null }, fields);
    expect(half.last_active).toBeUndefined();
    expect(listFilters({ ...NO_PROFILE_FILTERS, time: 'custom', from: 1000, to: 2000 }, fields)).toMatchObject({
      last_active: 'custom',
      start_time: 1000,
      end_time: 2000,
    });
  });

  it('says whether anything narrows the list', () => {
    expect(isFiltered(listFilters(NO_PROFILE_FILTERS, fields))).toBe(false);
    expect(isFiltered(listFilters({ ...NO_PROFILE_FILTERS, keyword: '  ' }, fields))).toBe(false);
    expect(isFiltered(listFilters({ ...NO_PROFILE_FILTERS, keyword: '王' }, fields))).toBe(true);
    const unhappy = listFilters({ ...NO_PROFILE_FILTERS, satisfaction: 'unsatisfied' }, fields);
    expect(unhappy.satisfaction).toBe('unsatisfied');
    expect(isFiltered(unhappy)).toBe(true);
    expect(listFilters(NO_PROFILE_FILTERS, fields)).not.toHaveProperty('satisfaction');
    const quiet = listFilters({ ...NO_PROFILE_FILTERS, inactive: '30d' }, fields);
    expect(quiet.inactive).toBe('30d');
    expect(isFiltered(quiet)).toBe(true);
    expect(listFilters(NO_PROFILE_FILTERS, fields)).not.toHaveProperty('inactive');
  });

  it('shows the exact count in place of the estimate once it arrives, and says which it shows', () => {
    const list = { total: 76_037 };
    expect(totalOf({ total: 12 }, false, { isError: false })).toEqual({ total: 12, totalKind: 'exact' });
    expect(totalOf(list, true, { isError: false })).toEqual({ total: 76_037, totalKind: 'counting' });
    expect(totalOf(list, true, { data: { total: 16_012 }, isError: false })).toEqual({
      total: 16_012,
      totalKind: 'exact',
    });
    expect(totalOf(list, true, { data: { total: null }, isError: false })).toEqual({
      total: 76_037,
      totalKind: 'tooMany',
    });
    expect(totalOf(list, true, { isError: true })).toEqual({ total: 76_037, totalKind: 'estimated' });
  });
});
