import { describe, expect, it } from 'vitest';
import {
  filtersFromSearch,
  filtersToSearch,
  isFiltered,
  LIST_PAGE_SIZE,
  listBody,
  NO_FILTERS,
} from './list-filters.ts';

describe('workflow list filters', () => {
  it('a plain list has no query string and asks for the first page of everything', () => {
    expect(filtersToSearch(NO_FILTERS)).toEqual({});
    expect(listBody('', NO_FILTERS)).toEqual({ page: 1, page_size: LIST_PAGE_SIZE });
    expect(isFiltered(NO_FILTERS)).toBe(false);
  });

  it('round-trips every filter through the address', () => {
    const filters = { keyword: '客服', effective: true, locked: false, lastResult: 'never' as const, page: 3 };
    const search = new URLSearchParams(filtersToSearch(filters));
    expect(search.toString()).toBe('q=%E5%AE%A2%E6%9C%8D&effective=1&locked=0&result=never&page=3');
    expect(filtersFromSearch(search)).toEqual(filters);
  });

  it('sends each set filter, false ones included, and the group', () => {
    const filters = { keyword: '  report ', effective: false, locked: true, lastResult: 'has_error' as const, page: 2 };
    expect(listBody('g1', filters)).toEqual({
      group_id: 'g1',
      keyword: 'report',
      effective: false,
      locked: true,
      last_result: 'has_error',
      page: 2,
      page_size: LIST_PAGE_SIZE,
    });
    expect(listBody('ungrouped', NO_FILTERS)).toMatchObject({ group_id: 'ungrouped' });
    expect(isFiltered({ ...NO_FILTERS, locked: false })).toBe(true);
    expect(isFiltered({ ...NO_FILTERS, keyword: '   ' })).toBe(false);
  });

  it('ignores what a hand-edited address gets wrong', () => {
    const search = new URLSearchParams(`effective=yes&locked=2&result=exploded&page=-4&q=${'x'.repeat(80)}`);
    expect(filtersFromSearch(search)).toEqual({ ...NO_FILTERS, keyword: 'x'.repeat(50) });
    expect(filtersFromSearch(new URLSearchParams('page=1.5')).page).toBe(1);
  });
});
